import * as v from 'valibot';
import { NO_CONTROL_CHARACTERS_PATTERN, type ValidationCode } from '../validation.ts';

/**
 * Stable codes an error answer may carry beside its message, for clients that act on the failure
 * rather than show it: the contract's validation codes for a field that failed its rule, and these for
 * the rest. Clients never parse `message`; it is English text for people reading the raw answer.
 */
export const API_ERROR_CODES = [
  'inUse',
  'conflict',
  'notFound',
  'forbidden',
  'preconditionFailed',
  'preconditionRequired',
  'unsupportedMediaType',
  'tooLarge',
  'malformed',
  'throttled',
  /** 403: nobody edits, deactivates or reactivates their own primary account. */
  'ownAccount',
  /** 409: a partner account is deactivated only once no active account is left under it. */
  'partnerHasActiveAccounts',
  /** 409: an account is reactivated only while its partner account is active. */
  'partnerInactive',
  /** 403: a call made with an API token that only a signed-in session may make. */
  'sessionRequired',
  /** 403: API tokens are made and extended by their own user only, whatever the caller may do. */
  'ownUserOnly',
  /** 403: a user whose permissions are not all the caller's is changed by someone stronger only. */
  'userExceedsYours',
  /** 409: the most objects of a kind one holder may have (20 active API tokens). */
  'limitReached',
  /** 403: a role's new permissions include one the caller does not hold (decision 018 G5). */
  'permissionNotHeld',
  /** 403: the role grants a permission the caller does not hold, so the caller may not change it. */
  'roleExceedsYours',
  /** 409: built-in roles are never edited or archived. */
  'builtInRole',
  /** 409: with the roles feature off, custom roles are neither defined nor newly assigned. */
  'rolesFeatureOff',
  /** 403: nobody changes their own roles (decision 018 G3). */
  'ownUser',
  /** 409: the last enabled system-scope system administrator keeps that role (G8). */
  'lastSystemAdministrator',
  /** 409: the user has no SAML or OIDC user name, or the account no single sign-on method. */
  'noSingleSignOn',
  /** 409: the user has no two-factor authentication enrolled or locked, so there is nothing to reset. */
  'noTwoFactor',
  /** 409: a password-reset mail goes to a verified address only. */
  'emailNotVerified',
  /** 409: the user already has a password, so a standard-login invitation has nothing to set. */
  'hasPassword',
  /** 403: the account's public issuance feature is off; its certificates are issued by administrators. */
  'publicIssuanceDisabled',
  /** 409: the enrollment's certificate was issued already (issued or redeemed); its link issues no other. */
  'enrollmentUsed',
  /** 409: an administrator cancelled the enrollment. */
  'enrollmentCancelled',
  /** 410: the enrollment's code is past its lifetime; a resend makes a new one. */
  'enrollmentExpired',
  /** 409: the enrollment has no certificate yet to install or redeem. */
  'enrollmentNotIssued',
] as const;
export type ApiErrorCode = ValidationCode | (typeof API_ERROR_CODES)[number];

/**
 * The one error body of the platform API (overview §8): `{ error: { status, message, field?, code? } }`.
 * `field` is the dot path of the request value at fault (`service_period.to`, `administrator.user_name`,
 * `If-Match` for a header); `code` is one of `ApiErrorCode`. Both are optional so that any server
 * speaking the older shape still parses.
 */
export const apiErrorSchema = v.object({
  error: v.object({
    status: v.number(),
    message: v.string(),
    field: v.optional(v.string()),
    code: v.optional(v.string()),
  }),
});
export type ApiErrorBody = v.InferOutput<typeof apiErrorSchema>;

/**
 * The 412 answer of an edit whose If-Match names a version that is no longer current: the error and
 * the object exactly as its GET answers it now (its ETag comes in the `ETag` header).
 */
export function preconditionFailedSchema<TItem extends v.GenericSchema>(item: TItem) {
  return v.object({ ...apiErrorSchema.entries, current: item });
}
export const preconditionFailedBodySchema = preconditionFailedSchema(v.unknown());
export type PreconditionFailedBody = v.InferOutput<typeof preconditionFailedBodySchema>;

/**
 * Lists carry their page of items and the total (overview §3). A long list counts only so far past
 * the page (decision 024): then `total_is_lower_bound` is true and more than `total` rows match.
 */
export function listSchema<TItem extends v.GenericSchema>(item: TItem) {
  return v.object({
    items: v.array(item),
    total: v.number(),
    total_is_lower_bound: v.optional(
      v.pipe(
        v.boolean(),
        v.description(
          'True when the count stopped at its window past the page (decision 024): more rows than total match.',
        ),
      ),
    ),
  });
}

export const MAX_PAGE_LIMIT = 99_999;
export const DEFAULT_LIST_LIMIT = 20;
export const ALL_ITEMS_LIMIT = 99_999;
export const PROFILE_LIST_LIMIT = 99_999_999;
export const PAGE_SIZE = 20;

export const uuidSchema = v.pipe(v.string(), v.uuid('invalidValue'));
/** `YYYY-MM-DD` (overview §9). */
export const isoDateSchema = v.pipe(v.string(), v.isoDate('invalidValue'));

/** Longest id the API accepts in a path, query or body. */
export const RESOURCE_ID_MAX_LENGTH = 64;

/**
 * An object's id as the API receives it: bounded, and without control characters (PostgreSQL cannot
 * store NUL). Not checked as a UUID, so a malformed id is simply not found.
 */
export const resourceIdSchema = v.pipe(
  v.string('invalidType'),
  v.maxLength(RESOURCE_ID_MAX_LENGTH, 'tooLong'),
  v.regex(NO_CONTROL_CHARACTERS_PATTERN, 'invalidValue'),
);

/** The most objects one delete-several call names (`DELETE tenants?ids=`, `DELETE user?ids=`). */
export const MAX_IDS_PER_CALL = 100;

/** `ids=a,b,c` in a query: the objects a delete-several call names, all or none. */
export const idListQuerySchema = v.pipe(
  v.string('required'),
  v.transform((value) =>
    value
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
  ),
  v.minLength(1, 'required'),
  v.maxLength(MAX_IDS_PER_CALL, 'tooLong'),
  v.check((ids) => ids.every((id) => id.length <= RESOURCE_ID_MAX_LENGTH), 'tooLong'),
  v.check((ids) => ids.every((id) => NO_CONTROL_CHARACTERS_PATTERN.test(id)), 'invalidValue'),
);
