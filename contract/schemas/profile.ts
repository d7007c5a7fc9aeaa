import * as v from 'valibot';
import { ACCESS_SCOPES, APPLICATION_CODES } from '../permissions.ts';

export const permissionEntrySchema = v.object({ name: v.string() });

/** The signed-in user's profile (overview §3). */
export const profileSchema = v.object({
  id: v.string(),
  access_scope: v.picklist(ACCESS_SCOPES),
  primary_account_id: v.string(),
  accounts: v.array(
    v.object({
      id: v.string(),
      display_name: v.string(),
      active: v.boolean(),
      service_period: v.object({ to: v.nullable(v.string()) }),
    }),
  ),
  permissions: v.array(permissionEntrySchema),
  has_onelogin_id: v.boolean(),
  onelogin_url: v.nullable(v.string()),
  locale: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  email: v.string(),
  user_name: v.string(),
  date_format: v.nullable(v.string()),
  applications: v.array(
    v.object({
      app_code: v.picklist(APPLICATION_CODES),
      /** `code` names a built-in role, which the console shows in the reader's language. */
      roles: v.array(v.object({ name: v.string(), code: v.nullable(v.string()) })),
    }),
  ),
  /** What the own profile page shows and edits (decision 039 §7). */
  phone: v.nullable(v.string()),
  aliases: v.record(v.string(), v.string()),
  saml_username: v.nullable(v.string()),
  oidc_username: v.nullable(v.string()),
  email_verified: v.boolean(),
  default_application: v.nullable(v.string()),
  /** The user's version (its ETag), on which the own profile's edit is made. */
  version: v.number(),
});
export type Profile = v.InferOutput<typeof profileSchema>;

/** GET permission?accessScope=&accountId= */
export const permissionsQuerySchema = v.object({
  accessScope: v.picklist(ACCESS_SCOPES, 'invalidValue'),
  accountId: v.optional(v.pipe(v.string(), v.uuid('invalidValue'))),
});

/** GET user/applications?accountId= */
export const userApplicationsQuerySchema = v.object({
  accountId: v.optional(v.pipe(v.string(), v.uuid('invalidValue'))),
});

export const applicationSchema = v.object({
  id: v.string(),
  app_code: v.picklist(APPLICATION_CODES),
  app_name: v.string(),
  context: v.string(),
});
export type Application = v.InferOutput<typeof applicationSchema>;

/** A locale entry: code and language, exposed as id and name (overview §3). */
export const localeEntrySchema = v.object({
  id: v.string(),
  name: v.string(),
});
export type LocaleEntry = v.InferOutput<typeof localeEntrySchema>;
