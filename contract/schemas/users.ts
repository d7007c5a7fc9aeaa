import * as v from 'valibot';
import { PLATFORM_LOCALES } from '../locales.ts';
import { ACCESS_SCOPES, APPLICATION_CODES, PERMISSION_GROUP_IDS, PERMISSION_NAMES } from '../permissions.ts';
import { ROLE_SORT_COLUMNS, USER_SORT_COLUMNS } from '../sort-columns.ts';
import {
  emailSchema,
  optionalPhoneSchema,
  PASSWORD_MAX_LENGTH,
  passwordConfirmationSchema,
  passwordSchema,
  personNameSchema,
  requiredTextLineSchema,
  userNameSchema,
  withPasswordConfirmation,
} from '../validation.ts';
import { idListQuerySchema, listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries, sortQuery, textFilterQuery } from './query.ts';

/**
 * An administrator created together with what they will administer (the platform at setup, a new
 * account), who signs in with this password.
 */
export const newAdministratorSchema = withPasswordConfirmation(
  v.object({
    first_name: personNameSchema,
    last_name: personNameSchema,
    email: emailSchema,
    user_name: userNameSchema,
    password: passwordSchema,
    repeatedPassword: passwordConfirmationSchema,
  }),
);

/**
 * What a user's state is, derived and never stored (decision 018 §1): `disabled` when not enabled,
 * `pending` when no password was ever set and the e-mail is not verified (invited, setup not
 * finished), otherwise `active`. Service users add `expired` with their slice.
 */
export const USER_STATUSES = ['active', 'pending', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** Date and time as the API writes it: ISO 8601 in UTC. */
const timestampSchema = v.string();

const idNameSchema = v.object({ id: v.string(), name: v.string() });

/** One row of GET user: what the administrators list shows, filters and sorts (decision 035 §1). */
export const userSummarySchema = v.object({
  id: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  user_name: v.string(),
  email: v.string(),
  access_scope: v.picklist(ACCESS_SCOPES),
  primary_account: idNameSchema,
  status: v.picklist(USER_STATUSES),
  email_verified: v.boolean(),
  /** The user's roles that are not archived, by name; `code` names a built-in role (null for custom). */
  roles: v.array(v.object({ ...idNameSchema.entries, code: v.nullable(v.string()) })),
  last_sign_in_at: v.nullable(timestampSchema),
  created_at: timestampSchema,
  /** Row version: the user's ETag. */
  version: v.number(),
});
export type UserSummary = v.InferOutput<typeof userSummarySchema>;

export const userListSchema = listSchema(userSummarySchema);
export type UserList = v.InferOutput<typeof userListSchema>;

/**
 * GET user: paging, sort and filters. `q` matches user name, e-mail or full name; `account_id` the
 * primary account; `role_id` a role the user holds. An account or role out of the caller's reach is
 * answered 404, never an empty page.
 */
export const userListQuerySchema = v.object({
  ...pagingQueryEntries,
  sort: sortQuery(USER_SORT_COLUMNS),
  q: textFilterQuery,
  status: v.optional(v.picklist(USER_STATUSES, 'invalidValue')),
  scope: v.optional(v.picklist(ACCESS_SCOPES, 'invalidValue')),
  account_id: v.optional(resourceIdSchema),
  role_id: v.optional(resourceIdSchema),
});
export type UserListQuery = v.InferOutput<typeof userListQuerySchema>;
export type UserListQueryInput = v.InferInput<typeof userListQuerySchema>;

/** GET user/export: the same filters and sort, every page, as CSV. */
export const userExportQuerySchema = v.omit(userListQuerySchema, ['limit', 'offset']);

export const userIdParamsSchema = v.object({ id: resourceIdSchema });

/** GET user/exists?user_name=: whether the name is taken, across the platform (names are unique). */
export const userExistsQuerySchema = v.object({ user_name: userNameSchema });
export const userExistsSchema = v.object({ exists: v.boolean() });
export type UserExists = v.InferOutput<typeof userExistsSchema>;

const userApplicationSchema = v.object({
  id: v.string(),
  app_code: v.picklist(APPLICATION_CODES),
  app_name: v.string(),
  context: v.string(),
});

/** GET user/{id}/applications: the licensed applications the user holds a role in, with those roles. */
export const userApplicationListSchema = listSchema(
  v.object({
    ...userApplicationSchema.entries,
    roles: v.array(v.object({ ...idNameSchema.entries, code: v.nullable(v.string()) })),
  }),
);
export type UserApplicationList = v.InferOutput<typeof userApplicationListSchema>;

/** GET user/{id}: the whole user record (O-13 and what the details page shows; decision 035 §1). */
export const userSchema = v.object({
  id: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  user_name: v.string(),
  email: v.string(),
  phone: v.nullable(v.string()),
  locale: v.string(),
  saml_username: v.nullable(v.string()),
  oidc_username: v.nullable(v.string()),
  has_onelogin_id: v.boolean(),
  onelogin_url: v.nullable(v.string()),
  /** Identifier → value (E-26); only system-scope users carry any. */
  aliases: v.record(v.string(), v.string()),
  /** What the user's roles grant, archived roles excluded. */
  permissions: v.array(v.object({ name: v.string() })),
  /** The user's accounts that the caller sees, primary first. */
  accounts: v.array(
    v.object({
      id: v.string(),
      active: v.boolean(),
      partner_account_id: v.nullable(v.string()),
      enabled_feature_ids: v.array(v.string()),
    }),
  ),
  access_scope: v.picklist(ACCESS_SCOPES),
  primary_account_id: v.string(),
  primary_account_dta_enabled: v.boolean(),
  date_format: v.nullable(v.string()),
  applications: v.array(userApplicationSchema),
  kind: v.picklist(['person', 'service']),
  enabled: v.boolean(),
  email_verified: v.boolean(),
  status: v.picklist(USER_STATUSES),
  roles: v.array(
    v.object({
      ...idNameSchema.entries,
      /** The built-in role's code, by which the console translates its name; null for a custom role. */
      code: v.nullable(v.string()),
      app_code: v.picklist(APPLICATION_CODES),
      built_in: v.boolean(),
    }),
  ),
  last_sign_in_at: v.nullable(timestampSchema),
  password_changed_at: v.nullable(timestampSchema),
  created_at: timestampSchema,
  mfa: v.object({ enrolled: v.boolean(), locked: v.boolean() }),
  default_application: v.nullable(v.string()),
  agreement_accepted_at: v.nullable(timestampSchema),
  /** The last mail sent to the user; null until the platform has sent one. */
  last_mail: v.nullable(v.object({ kind: v.string(), state: v.string(), at: timestampSchema })),
  version: v.number(),
});
export type User = v.InferOutput<typeof userSchema>;

/** Built-in roles or custom ones (`type` filter of GET role). */
export const ROLE_TYPES = ['built_in', 'custom'] as const;
export const ROLE_STATUSES = ['active', 'archived'] as const;

/** A role: built-in, or custom to one account; `version` is its ETag. */
export const roleSchema = v.object({
  id: v.string(),
  name: v.string(),
  /** The built-in role's code (`account_administrator` …); null for a custom role. */
  code: v.nullable(v.string()),
  app_code: v.picklist(APPLICATION_CODES),
  /** The account a custom role belongs to; null for a built-in role, which every account shares. */
  account_id: v.nullable(v.string()),
  /** That account's name; null for a built-in role. */
  account_name: v.nullable(v.string()),
  built_in: v.boolean(),
  status: v.picklist(ROLE_STATUSES),
  permissions: v.array(v.string()),
  description: v.string(),
  /** The role the console filled the create form from, if it was a clone and that role still exists. */
  cloned_from: v.nullable(v.string()),
  /**
   * How many users hold the role among those the caller reaches (decision 018 §3.1), archived or not:
   * the count the archive dialog shows, the same on the list and the details.
   */
  users_count: v.number(),
  created_at: timestampSchema,
  version: v.number(),
});
export type Role = v.InferOutput<typeof roleSchema>;

/**
 * GET role/{id} and the rows of GET role: the role with whether the caller may edit and archive it (a
 * custom, active role, the roles feature on, manage user role, and everything it grants held by the
 * caller), so the console offers only what the server accepts.
 */
export const roleDetailsSchema = v.object({
  ...roleSchema.entries,
  editable: v.boolean(),
});
export type RoleDetails = v.InferOutput<typeof roleDetailsSchema>;

export const roleListSchema = listSchema(roleDetailsSchema);
export type RoleList = v.InferOutput<typeof roleListSchema>;

/**
 * GET role: paging, sort and filters. `account_id` keeps the built-in roles and the custom roles of
 * that account (the roles a user of it may hold); an account out of reach is answered 404.
 */
export const roleListQuerySchema = v.object({
  ...pagingQueryEntries,
  sort: sortQuery(ROLE_SORT_COLUMNS),
  q: textFilterQuery,
  application_id: v.optional(v.picklist(APPLICATION_CODES, 'invalidValue')),
  account_id: v.optional(resourceIdSchema),
  type: v.optional(v.picklist(ROLE_TYPES, 'invalidValue')),
  status: v.optional(v.picklist(ROLE_STATUSES, 'invalidValue')),
});
export type RoleListQuery = v.InferOutput<typeof roleListQuerySchema>;

/** GET role/export: the list's filters and sort, every matching role. */
export const roleExportQuerySchema = v.omit(roleListQuerySchema, ['limit', 'offset']);

export const roleIdParamsSchema = v.object({ id: resourceIdSchema });

/** A role's description: a few lines of text, without control characters other than line breaks and tabs. */
export const ROLE_DESCRIPTION_MAX_LENGTH = 1000;
const roleDescriptionSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.maxLength(ROLE_DESCRIPTION_MAX_LENGTH, 'tooLong'),
  v.regex(/^(?:\P{Cc}|[\t\n\r])*$/u, 'invalidValue'),
);

/** The permissions a role grants, by name; repeated names count once. */
const rolePermissionsSchema = v.pipe(
  v.array(v.picklist(PERMISSION_NAMES, 'invalidValue'), 'invalidType'),
  v.maxLength(500, 'tooLong'),
);

/** PUT role/{id}: a custom role's definition, replaced whole (decision 035 §2). */
export const roleUpdateSchema = v.object({
  name: requiredTextLineSchema,
  description: roleDescriptionSchema,
  permissions: rolePermissionsSchema,
});
export type RoleUpdate = v.InferOutput<typeof roleUpdateSchema>;

/**
 * POST role: a new custom role of `account_id` for the application `application_id`. A clone names
 * the role its form was filled from in `cloned_from`; the submitted permissions are what is checked.
 */
export const roleCreateSchema = v.object({
  name: requiredTextLineSchema,
  description: v.optional(roleDescriptionSchema, ''),
  application_id: v.picklist(APPLICATION_CODES, 'invalidValue'),
  account_id: resourceIdSchema,
  permissions: rolePermissionsSchema,
  cloned_from: v.optional(resourceIdSchema),
});
export type RoleCreate = v.InferOutput<typeof roleCreateSchema>;
export type RoleCreateInput = v.InferInput<typeof roleCreateSchema>;

/** GET role/unique: whether `name` is free for a new custom role of that account and application. */
export const roleUniqueQuerySchema = v.object({
  application_id: v.picklist(APPLICATION_CODES, 'invalidValue'),
  account_id: resourceIdSchema,
  name: requiredTextLineSchema,
});
export const roleUniqueSchema = v.object({ unique: v.boolean() });
export type RoleUnique = v.InferOutput<typeof roleUniqueSchema>;

/** GET role/{id}/users: a page of the role's holders the caller reaches, by name; `total` is what the archive dialog shows. */
export const roleUsersQuerySchema = v.object({ ...pagingQueryEntries });

/** The most users one PUT role/{id}/users may name in `add` or in `remove`. */
export const ROLE_USERS_MAX_CHANGES = 100;
const roleUserIdsSchema = v.optional(
  v.pipe(v.array(resourceIdSchema, 'invalidType'), v.maxLength(ROLE_USERS_MAX_CHANGES, 'tooLong')),
  [],
);

/** PUT role/{id}/users: users to give the role and users to take it from, all or none. */
export const roleUsersUpdateSchema = v.object({ add: roleUserIdsSchema, remove: roleUserIdsSchema });
export type RoleUsersUpdate = v.InferOutput<typeof roleUsersUpdateSchema>;

/** GET permissiongroup: the permission groups of an application, as a role of that account may grant them. */
export const permissionGroupQuerySchema = v.object({
  application_id: v.picklist(APPLICATION_CODES, 'invalidValue'),
  account_id: resourceIdSchema,
});

/**
 * A group of permissions; `grantable` is false for a name the caller does not hold or the account's
 * type does not allow (decision 018 G5, G9), which the role form shows but does not let one choose.
 */
export const permissionGroupListSchema = listSchema(
  v.object({
    id: v.picklist(PERMISSION_GROUP_IDS),
    permissions: v.array(v.object({ name: v.picklist(PERMISSION_NAMES), grantable: v.boolean() })),
  }),
);
export type PermissionGroupList = v.InferOutput<typeof permissionGroupListSchema>;

/* ---- Changing users (decision 035 §1) ---- */

/** An alias identifier: 1–30 of letters, digits, `_ . -` (account administration §5, §9). */
export const ALIAS_IDENTIFIER_MAX_LENGTH = 30;
/** An alias value: 1–50 characters of the general-name pattern plus `@` and `:`. */
export const ALIAS_VALUE_MAX_LENGTH = 50;
/** The most aliases one user holds. */
export const MAX_ALIASES = 20;
export const ALIAS_IDENTIFIER_PATTERN = /^[A-Za-z0-9_.-]+$/;
export const ALIAS_VALUE_PATTERN = /^[\p{L}\p{M}\p{N}_ \-.,()&'#/~;@:]+$/u;

export const aliasIdentifierSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(ALIAS_IDENTIFIER_MAX_LENGTH, 'tooLong'),
  v.regex(ALIAS_IDENTIFIER_PATTERN, 'invalidIdentifier'),
);

export const aliasValueSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(ALIAS_VALUE_MAX_LENGTH, 'tooLong'),
  v.regex(ALIAS_VALUE_PATTERN, 'invalidValue'),
);

/** Aliases as the API holds them: identifier → value (E-26); only a system-scope user may carry any. */
export const aliasesSchema = v.pipe(
  // A JSON array is an object too, and `record` would read it as indexes → values.
  v.custom<object>(
    (input) => typeof input === 'object' && input !== null && !Array.isArray(input),
    'invalidType',
  ),
  v.record(aliasIdentifierSchema, aliasValueSchema, 'invalidType'),
  v.check((aliases) => Object.keys(aliases).length <= MAX_ALIASES, 'tooManyAliases'),
);

/**
 * A phone number as stored (E-19): separators dropped and a leading `00` written `+`, so the same
 * number typed two ways compares equal. No country is guessed: a number without `+` stays as typed.
 */
export function normalizePhone(value: string): string {
  const compact = value.replace(/[\s().-]/g, '');
  return compact.startsWith('00') ? `+${compact.slice(2)}` : compact;
}

/** Optional phone: the spec's pattern, then normalised; empty means none. */
export const userPhoneSchema = v.pipe(optionalPhoneSchema, v.transform(normalizePhone));

const userLocaleSchema = v.picklist(PLATFORM_LOCALES, 'invalidLocale');

/** How a new user signs in: an invitation to choose a password, or the account's single sign-on. */
export const SIGN_IN_METHODS = ['standard', 'single_sign_on'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** The most accounts or roles one user change names. */
export const MAX_USER_GRANTS = 100;
const grantIdsSchema = v.pipe(
  v.array(resourceIdSchema, 'invalidType'),
  v.maxLength(MAX_USER_GRANTS, 'tooLong'),
);
const roleIdsSchema = v.pipe(grantIdsSchema, v.minLength(1, 'required'));

/**
 * POST user: a new person. Scope comes from the primary account's type; `account_ids` are accounts
 * beyond it; every role must pass G5 and G6. No password: the user gets an invitation (or the SSO mail).
 */
export const userCreateSchema = v.object({
  first_name: personNameSchema,
  last_name: personNameSchema,
  email: emailSchema,
  user_name: userNameSchema,
  phone: userPhoneSchema,
  locale: userLocaleSchema,
  primary_account_id: resourceIdSchema,
  account_ids: v.optional(grantIdsSchema, []),
  role_ids: roleIdsSchema,
  aliases: v.optional(aliasesSchema, {}),
  sign_in: v.optional(v.picklist(SIGN_IN_METHODS, 'invalidValue'), 'standard'),
});
export type UserCreate = v.InferOutput<typeof userCreateSchema>;
export type UserCreateInput = v.InferInput<typeof userCreateSchema>;

/**
 * PUT user/{id}: the fields a person may also edit on their own profile, replaced as a whole;
 * `aliases` absent leaves them as they are (only system-scope users have any). Roles, accounts,
 * scope and enabled state are not here: members not in the schema are dropped, never applied.
 */
export const userUpdateSchema = v.object({
  first_name: personNameSchema,
  last_name: personNameSchema,
  user_name: userNameSchema,
  email: emailSchema,
  phone: userPhoneSchema,
  locale: userLocaleSchema,
  aliases: v.optional(aliasesSchema),
});
export type UserUpdate = v.InferOutput<typeof userUpdateSchema>;
export type UserUpdateInput = v.InferInput<typeof userUpdateSchema>;

/** PUT user/{id}/access: the full sets of accounts beyond the primary one and of roles. */
export const userAccessSchema = v.object({
  account_ids: grantIdsSchema,
  role_ids: roleIdsSchema,
});
export type UserAccess = v.InferOutput<typeof userAccessSchema>;

/** PUT user/{id}/enable and PUT service-user/{id}/enable (the spec's body). */
export const userEnableSchema = v.object({ enabled: v.boolean('invalidType') });
export type UserEnable = v.InferOutput<typeof userEnableSchema>;

/** DELETE user?ids=a,b: several users at once, all or none. */
export const userDeleteQuerySchema = v.object({ ids: idListQuerySchema });

/** PUT user/{id}/defaultManager?appUrl=: an application's `context` in which the user holds a role. */
export const defaultManagerQuerySchema = v.object({ appUrl: requiredTextLineSchema });

/** PUT user/{id}/agreement: the person accepts the terms in the language they read them in. */
export const agreementSchema = v.object({ locale: userLocaleSchema });

/** A one-time code from a mailed link; anything malformed is simply an expired link. */
const linkCodeSchema = v.pipe(
  v.string('invalidType'),
  v.nonEmpty('required'),
  v.maxLength(128, 'linkExpired'),
);

/** A password typed to prove who one is: checked against the stored hash, never against the rules. */
const currentPasswordSchema = v.pipe(
  v.string('invalidType'),
  v.nonEmpty('required'),
  v.maxLength(PASSWORD_MAX_LENGTH, 'wrongPassword'),
);

/**
 * POST user/{id}/verify (public): the mailed code, the user name, and a password: a new one for an
 * invitation (the password rules apply), the current one after an address change.
 */
export const userVerifySchema = v.object({
  verification_code: linkCodeSchema,
  login: userNameSchema,
  password: currentPasswordSchema,
});
export type UserVerify = v.InferOutput<typeof userVerifySchema>;

/**
 * POST user/{id}/verify/holder (public): whose an invitation or verification link is, so that its
 * page shows the user name instead of asking for it. Nothing is spent.
 */
export const linkHolderRequestSchema = v.object({ verification_code: linkCodeSchema });
export type LinkHolderRequest = v.InferOutput<typeof linkHolderRequestSchema>;
export const linkHolderSchema = v.object({ user_name: v.string() });
export type VerifyLinkHolder = v.InferOutput<typeof linkHolderSchema>;

/** POST user/{id}/reset-password (public): the mailed code and the new password. */
export const passwordResetSchema = withPasswordConfirmation(
  v.object({
    reset_code: linkCodeSchema,
    password: passwordSchema,
    repeatedPassword: passwordConfirmationSchema,
  }),
);
export type PasswordReset = v.InferOutput<typeof passwordResetSchema>;

/** PUT user/{id}/password: one's own password, proven by the current one; other sessions end. */
export const passwordChangeSchema = withPasswordConfirmation(
  v.object({
    current_password: currentPasswordSchema,
    password: passwordSchema,
    repeatedPassword: passwordConfirmationSchema,
  }),
);
export type PasswordChange = v.InferOutput<typeof passwordChangeSchema>;
