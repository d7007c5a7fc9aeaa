import type { Kysely } from 'kysely';
import { PERSON_TOKEN_OWNERS, type TokenOwner } from '../api-tokens/index.ts';
import type { Database } from '../db/schema.ts';
import { sessionIdOf } from '../identity/authenticate.ts';
import type { Principal } from '../identity/principal.ts';
import type { Access } from '../resources/versioned-resource.ts';

/** The user whose certificates a route addresses, within the caller's reach. */
export type CertificateOwner = TokenOwner & { primary_account_id: string };

/**
 * Whose client-authentication certificates a set of routes addresses, and who may do what with them
 * (decision 019): exactly the rules of the owner's other sensitive sub-resources, their API tokens
 * (decision 018 §3.2, decision 035 §3). People (`user/{id}/…`, a service user's id is not found there): the
 * person themselves, and whoever may read users sees them; whoever may change that person and holds
 * all they hold (G4) changes them. Service users (`service-user/{id}/…`, a person's id is not found
 * there): whoever may change the service user. Reach (G1) comes first: 404 outside it.
 */
export interface CertificateOwners {
  /** `/user` or `/service-user`: the routes are `${prefix}/:id/client-auth-certificate[…]`. */
  prefix: '/user' | '/service-user';
  find(
    db: Kysely<Database>,
    principal: Principal,
    id: string,
    lock: boolean,
  ): Promise<CertificateOwner | undefined>;
  /** 403 without the permission `access` needs. */
  authorize(principal: Principal, owner: TokenOwner, access: Access): void;
}

export const PERSON_CERTIFICATE_OWNERS: CertificateOwners = {
  prefix: '/user',
  find: PERSON_TOKEN_OWNERS.find,
  authorize: PERSON_TOKEN_OWNERS.authorize,
};

/**
 * A certificate is a credential: registering one (generating, uploading, or enabling one again) is
 * a change (`manage`) made in a signed-in session only, so a leaked API token cannot mint itself a
 * certificate that signs its user in (403 `sessionRequired`), as it cannot mint another token.
 */
export function assertMayRegister(owners: CertificateOwners, principal: Principal, owner: TokenOwner): void {
  owners.authorize(principal, owner, 'manage');
  sessionIdOf(principal);
}
