import * as v from 'valibot';
import { ACCESS_SCOPES, APPLICATION_CODES } from '../permissions.ts';
import { SERVICE_USER_SORT_COLUMNS } from '../sort-columns.ts';
import { dateOnlySchema, emailSchema, type ValidationCode } from '../validation.ts';
import { apiTokenCreatedSchema, apiTokenNameSchema } from './api-tokens.ts';
import { listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries, sortQuery, textFilterQuery } from './query.ts';
import { MAX_USER_GRANTS } from './users.ts';

/**
 * Service users (decision 018 §1, decision 035 §4): users of kind `service` that never sign in and call the API
 * with API tokens only. Their name is a user name (one namespace with people), their e-mail the
 * responsible person's, to which no mail is ever sent.
 */

/** `disabled` when not enabled, `expired` after its end date, otherwise `enabled`. */
export const SERVICE_USER_STATUSES = ['enabled', 'disabled', 'expired'] as const;
export type ServiceUserStatus = (typeof SERVICE_USER_STATUSES)[number];

export const SERVICE_USER_NAME_MAX_LENGTH = 64;
/** Letters, digits, spaces, dashes and underscores (the reference's rule for service-user names). */
export const SERVICE_USER_NAME_PATTERN = /^[\p{L}\p{N} _-]+$/u;
export const SERVICE_USER_DESCRIPTION_MAX_LENGTH = 1000;

export const serviceUserNameSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.nonEmpty('required' satisfies ValidationCode),
  v.maxLength(SERVICE_USER_NAME_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  v.regex(SERVICE_USER_NAME_PATTERN, 'invalidName' satisfies ValidationCode),
);

/** A few lines of text, without control characters other than line breaks and tabs. */
export const serviceUserDescriptionSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.maxLength(SERVICE_USER_DESCRIPTION_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  v.regex(/^(?:\P{Cc}|[\t\n\r])*$/u, 'invalidValue' satisfies ValidationCode),
);

/** The service user works through 23:59:59 UTC of this day; null for no end date. */
const endDateSchema = v.nullable(dateOnlySchema);

const idNameSchema = v.object({ id: v.string(), name: v.string() });

/** One row of GET service-user: what the list shows, filters and sorts (decision 039 §5). */
export const serviceUserSummarySchema = v.object({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  email: v.string(),
  end_date: v.nullable(v.string()),
  status: v.picklist(SERVICE_USER_STATUSES),
  primary_account: idNameSchema,
  /** Its roles that are not archived, by name; `code` names a built-in role (null for custom ones). */
  roles: v.array(v.object({ ...idNameSchema.entries, code: v.nullable(v.string()) })),
  /** When any of its tokens was last used. */
  last_used_at: v.nullable(v.string()),
  created_at: v.string(),
  version: v.number(),
});
export type ServiceUserSummary = v.InferOutput<typeof serviceUserSummarySchema>;

export const serviceUserListSchema = listSchema(serviceUserSummarySchema);
export type ServiceUserList = v.InferOutput<typeof serviceUserListSchema>;

/** GET service-user/{id}: the whole service user (decision 035 §4). */
export const serviceUserSchema = v.object({
  ...serviceUserSummarySchema.entries,
  enabled: v.boolean(),
  access_scope: v.picklist(ACCESS_SCOPES),
  /** Its accounts that the caller sees, primary first. */
  accounts: v.array(idNameSchema),
  roles: v.array(
    v.object({
      ...idNameSchema.entries,
      code: v.nullable(v.string()),
      app_code: v.picklist(APPLICATION_CODES),
      built_in: v.boolean(),
    }),
  ),
  /** What its roles grant, archived roles excluded. */
  permissions: v.array(v.string()),
  /** Who created it, when that user still exists. */
  created_by: v.nullable(idNameSchema),
});
export type ServiceUser = v.InferOutput<typeof serviceUserSchema>;

/**
 * GET service-user: paging, sort and filters. `q` matches the name, description or e-mail;
 * `account_id` the primary account, answered 404 when out of the caller's reach.
 */
export const serviceUserListQuerySchema = v.object({
  ...pagingQueryEntries,
  sort: sortQuery(SERVICE_USER_SORT_COLUMNS),
  q: textFilterQuery,
  status: v.optional(v.picklist(SERVICE_USER_STATUSES, 'invalidValue')),
  account_id: v.optional(resourceIdSchema),
});
export type ServiceUserListQuery = v.InferOutput<typeof serviceUserListQuerySchema>;
export type ServiceUserListQueryInput = v.InferInput<typeof serviceUserListQuerySchema>;

/** GET service-user/export: the same filters and sort, every page, as CSV. */
export const serviceUserExportQuerySchema = v.omit(serviceUserListQuerySchema, ['limit', 'offset']);

export const serviceUserIdParamsSchema = v.object({ id: resourceIdSchema });

const grantIdsSchema = v.pipe(
  v.array(resourceIdSchema, 'invalidType' satisfies ValidationCode),
  v.maxLength(MAX_USER_GRANTS, 'tooLong' satisfies ValidationCode),
);

/** The name of the first token when the form leaves it empty. */
export const DEFAULT_SERVICE_USER_TOKEN_NAME = 'Initial token';

/**
 * POST service-user: a service user, its accounts and roles (G5, G6 as for people; scope from the
 * primary account's type) and its first API token, whose end date is the service user's.
 */
export const serviceUserCreateSchema = v.object({
  name: serviceUserNameSchema,
  description: v.optional(serviceUserDescriptionSchema, ''),
  email: emailSchema,
  end_date: v.optional(endDateSchema, null),
  primary_account_id: resourceIdSchema,
  account_ids: v.optional(grantIdsSchema, []),
  role_ids: v.pipe(grantIdsSchema, v.minLength(1, 'required' satisfies ValidationCode)),
  token_name: v.optional(apiTokenNameSchema, DEFAULT_SERVICE_USER_TOKEN_NAME),
});
export type ServiceUserCreate = v.InferOutput<typeof serviceUserCreateSchema>;
export type ServiceUserCreateInput = v.InferInput<typeof serviceUserCreateSchema>;

/** The creation answer: the service user and its first token, whose value is shown this once. */
export const serviceUserCreatedSchema = v.object({
  service_user: serviceUserSchema,
  api_token: apiTokenCreatedSchema,
});
export type ServiceUserCreated = v.InferOutput<typeof serviceUserCreatedSchema>;

/** PUT service-user/{id}: its own fields, replaced as a whole; accounts, roles and state are not here. */
export const serviceUserUpdateSchema = v.object({
  name: serviceUserNameSchema,
  description: serviceUserDescriptionSchema,
  email: emailSchema,
  end_date: endDateSchema,
});
export type ServiceUserUpdate = v.InferOutput<typeof serviceUserUpdateSchema>;
export type ServiceUserUpdateInput = v.InferInput<typeof serviceUserUpdateSchema>;
