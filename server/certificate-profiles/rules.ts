import type { Kysely } from 'kysely';
import {
  EC_CURVES,
  EXTENDED_KEY_USAGES,
  KEY_USAGES,
  type ProfilePolicy,
  RSA_KEY_SIZES,
  SUBJECT_FIELDS,
} from '../../contract/certificate-policy.ts';
import type { Database } from '../db/schema.ts';
import { ApiError } from '../http/errors.ts';
import { profileNameTaken } from './repository.ts';

/** The 409 of a name another profile of the same account holds (compared without case). */
export function profileNameInUse(): ApiError {
  return new ApiError(409, 'Another certificate profile of this account has this name.', {
    field: 'name',
    code: 'inUse',
  });
}

export async function assertProfileNameFree(
  db: Kysely<Database>,
  scope: { accountId: string; name: string; exceptId?: string },
): Promise<void> {
  if (await profileNameTaken(db, scope)) throw profileNameInUse();
}

/**
 * A policy as stored: every list without repeats and in the contract's order, so that the same
 * choice made twice compares equal and the trail records no change for it.
 */
export function normalizePolicy(policy: ProfilePolicy): ProfilePolicy {
  const inOrder = <T>(values: readonly T[], order: readonly T[]): T[] =>
    order.filter((value) => values.includes(value));
  return {
    subject: Object.fromEntries(
      SUBJECT_FIELDS.map((field) => [field, policy.subject[field]]),
    ) as ProfilePolicy['subject'],
    validity_days: policy.validity_days,
    key_usages: inOrder(policy.key_usages, KEY_USAGES),
    extended_key_usages: inOrder(policy.extended_key_usages, EXTENDED_KEY_USAGES),
    key_types: {
      rsa: inOrder(policy.key_types.rsa, RSA_KEY_SIZES),
      ec: inOrder(policy.key_types.ec, EC_CURVES),
    },
  };
}

/**
 * The policy as the trail compares it, one entry per field by dot path (decision 016: nested fields
 * by dot path); lists are written as text so that equal lists compare equal.
 */
export function policyFields(policy: ProfilePolicy): Record<string, string | number> {
  const fields: Record<string, string | number> = {
    'policy.validity_days': policy.validity_days,
    'policy.key_usages': policy.key_usages.join(', '),
    'policy.extended_key_usages': policy.extended_key_usages.join(', '),
    'policy.key_types.rsa': policy.key_types.rsa.join(', '),
    'policy.key_types.ec': policy.key_types.ec.join(', '),
  };
  for (const field of SUBJECT_FIELDS) fields[`policy.subject.${field}`] = policy.subject[field];
  return fields;
}
