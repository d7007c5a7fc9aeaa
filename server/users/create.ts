import type { Kysely } from 'kysely';
import type { UserCreate } from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { type AuditActor, auditChangeBy } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { assertRoleFitsUser } from '../authorization/grants.ts';
import { assertUserAccess } from '../authorization/user-access.ts';
import { reachesUsersOf } from '../authorization/user-reach.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';
import type { Principal } from '../identity/principal.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { assertMayGiveRole } from '../role-assignments/index.ts';
import { assertAccountsInReach, rolesInReach, scopeOfAccountType } from './grants.ts';
import { insertUser } from './repository.ts';
import { assertUserNameFree } from './user-name-probes.ts';

export interface PersonCreation {
  /** Who the trail names: the signed-in caller, or the creator of a bulk job acting in the background. */
  actor: AuditActor;
  /** Whether the invitation mail is queued with the user (a bulk creator may untick it). */
  invitation: boolean;
  /** Added to the CREATE USER event's details (`bulk_job_id`). */
  details?: Readonly<Record<string, unknown>>;
}

/**
 * Creates one person, in the caller's transaction, exactly as POST user does and in its order of
 * checks (decision 018 §3.4): 404 for the primary account, another account or a role out of the
 * creator's reach; 403 without the permission of the scope the account gives; 403 permissionNotHeld
 * and 409 rolesFeatureOff for a role the creator may not give (G5, G8); 409 noSingleSignOn; 400 for
 * aliases of a user below system scope and for a role that does not fit the user (G6); 409 inUse for a
 * taken user name. Then the user with its memberships and roles, its invitation in the outbox and its
 * CREATE USER event. POST user and each row of a bulk job call this one function; answers the new id.
 */
export async function createPerson(
  trx: Kysely<Database>,
  principal: Principal,
  deps: Pick<AppDeps, 'now'>,
  body: UserCreate,
  creation: PersonCreation,
): Promise<string> {
  const now = deps.now();
  const account = await trx
    .selectFrom('accounts')
    .select(['id', 'type'])
    .where('accounts.id', '=', body.primary_account_id)
    .where(reachesUsersOf(principal))
    .executeTakeFirst();
  if (!account) throw new ApiError(404, ACCOUNT_NOT_FOUND, { field: 'primary_account_id' });
  await assertAccountsInReach(trx, principal, body.account_ids, 'account_ids');
  const roles = await rolesInReach(trx, principal, body.role_ids, 'role_ids');
  const scope = scopeOfAccountType(account.type);
  assertUserAccess(principal, scope, 'manage');
  for (const role of roles) await assertMayGiveRole(trx, principal, role, 'role_ids');
  // No account has a single sign-on method yet: such a user could never sign in.
  if (body.sign_in === 'single_sign_on') {
    throw new ApiError(409, 'The account has no single sign-on method.', {
      field: 'sign_in',
      code: 'noSingleSignOn',
    });
  }
  if (scope !== 'system' && Object.keys(body.aliases).length > 0) {
    throw invalidField('aliases', 'invalidValue');
  }
  const user = { access_scope: scope, primary_account_id: account.id };
  for (const role of roles) assertRoleFitsUser(role, user, 'role_ids');
  await assertUserNameFree(trx, principal, body.user_name, 'user_name', 'This user name is taken.');
  const created = await insertUser(trx, {
    userName: body.user_name,
    firstName: body.first_name,
    lastName: body.last_name,
    email: body.email,
    phone: body.phone === '' ? null : body.phone,
    locale: body.locale,
    aliases: body.aliases,
    accessScope: scope,
    primaryAccountId: account.id,
    accountIds: body.account_ids,
    passwordHash: null,
    roleIds: roles.map((role) => role.id),
    emailVerified: false,
    createdBy: principal.userId,
    now,
  });
  if (creation.invitation) {
    await enqueueMail(trx, {
      kind: 'invitation',
      userId: created,
      to: body.email,
      requestedBy: principal.userId,
      now,
    });
  }
  await auditChangeBy(trx, creation.actor, deps, {
    action: 'CREATE',
    resourceType: 'USER',
    resourceId: created,
    accountId: account.id,
    details: {
      user_name: body.user_name,
      access_scope: scope,
      primary_account_id: account.id,
      roles: roles.map((role) => role.name).sort(),
      ...creation.details,
    },
  });
  return created;
}
