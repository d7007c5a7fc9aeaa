import * as v from 'valibot';
import {
  dateOnlySchema,
  GENERAL_NAME_PATTERN,
  isServiceEndDateAllowed,
  type ValidationCode,
} from '../validation.ts';
import { listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries } from './query.ts';

/**
 * API tokens (decision 035 §3, decision 036): `tct_` and 43 base64url characters (32 random bytes). The
 * prefix tells a token from a session's JWT (whose first segment is base64url JSON, `eyJ…`) and lets
 * secret scanners and log redaction recognise one.
 */
export const API_TOKEN_PREFIX = 'tct_';
export const API_TOKEN_PATTERN = /^tct_[A-Za-z0-9_-]{43}$/;
export const API_TOKEN_NAME_MAX_LENGTH = 100;
/** Tokens a user may hold that are neither revoked nor past their end date. */
export const MAX_ACTIVE_API_TOKENS = 20;

/** `revoked` once revoked, `expired` after its end date, otherwise `active`. */
export const API_TOKEN_STATUSES = ['active', 'expired', 'revoked'] as const;
export type ApiTokenStatus = (typeof API_TOKEN_STATUSES)[number];

/** One token as lists show it: never its value, which only the creation answer holds. */
export const apiTokenSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  name: v.string(),
  /** The token's last four characters. */
  hint: v.string(),
  created_at: v.string(),
  /** The token works through 23:59:59 UTC of this day; null for no end date. */
  end_date: v.nullable(v.string()),
  last_used_at: v.nullable(v.string()),
  revoked_at: v.nullable(v.string()),
  status: v.picklist(API_TOKEN_STATUSES),
  /** Row version: the token's ETag. */
  version: v.number(),
});
export type ApiToken = v.InferOutput<typeof apiTokenSchema>;

/** The creation answer: the row and the token itself, shown this once and never again. */
export const apiTokenCreatedSchema = v.object({ ...apiTokenSchema.entries, value: v.string() });
export type ApiTokenCreated = v.InferOutput<typeof apiTokenCreatedSchema>;

export const apiTokenListSchema = listSchema(apiTokenSchema);
export type ApiTokenList = v.InferOutput<typeof apiTokenListSchema>;

export const apiTokenListQuerySchema = v.object({
  /** `active` (the default) leaves out revoked and expired tokens. */
  status: v.optional(v.picklist(['active', 'all'], 'invalidValue')),
  ...pagingQueryEntries,
});
export type ApiTokenListQuery = v.InferOutput<typeof apiTokenListQuerySchema>;

export const apiTokenNameSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.nonEmpty('required' satisfies ValidationCode),
  v.maxLength(API_TOKEN_NAME_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  v.regex(GENERAL_NAME_PATTERN, 'invalidName' satisfies ValidationCode),
);

const endDateSchema = v.nullable(dateOnlySchema);

export const apiTokenCreateSchema = v.object({ name: apiTokenNameSchema, end_date: endDateSchema });
export type ApiTokenCreate = v.InferOutput<typeof apiTokenCreateSchema>;

export const apiTokenUpdateSchema = v.object({ end_date: endDateSchema });
export type ApiTokenUpdate = v.InferOutput<typeof apiTokenUpdateSchema>;

export const apiTokenParamsSchema = v.object({ id: resourceIdSchema, tokenId: resourceIdSchema });

/**
 * The end-date rule of a new or edited token, which the form and the server both apply: none, or a day
 * after today (both `YYYY-MM-DD`). Answers the code for `end_date`, or null when it is allowed.
 */
export function apiTokenEndDateIssue(endDate: string | null, today: string): 'endDateNotInFuture' | null {
  return endDate === null || isServiceEndDateAllowed(endDate, today) ? null : 'endDateNotInFuture';
}
