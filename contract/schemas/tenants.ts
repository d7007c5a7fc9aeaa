import * as v from 'valibot';
import { PLATFORM_LOCALES } from '../locales.ts';
import { APPLICATION_CODES } from '../permissions.ts';
import { TENANT_SORT_COLUMNS } from '../sort-columns.ts';
import {
  accountNameSchema,
  dateOnlySchema,
  GENERAL_IDENTIFIER_PATTERN,
  NO_CONTROL_CHARACTERS_PATTERN,
} from '../validation.ts';
import { idListQuerySchema, listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries, queryInteger, sortQuery, textFilterQuery } from './query.ts';
import { newAdministratorSchema } from './users.ts';

/** The kinds of account row: the platform's own system account, partners and standard accounts. */
export const TENANT_TYPES = ['system', 'standard', 'partner'] as const;
export type TenantType = (typeof TENANT_TYPES)[number];
/** What can be created: standard or partner (the plan types, overview §3). */
export const CREATABLE_TENANT_TYPES = ['standard', 'partner'] as const;

/** Federation with an external identity product (account administration §3). */
export const FEDERATION_STATUSES = ['linked', 'unlinked'] as const;
export type FederationStatus = (typeof FEDERATION_STATUSES)[number];

export const FRIENDLY_IDENTIFIER_MAX_LENGTH = 64;

const servicePeriodSchema = v.object({
  from: v.string(),
  to: v.nullable(v.string()),
});

/** One row of GET tenants: what the accounts table shows and filters. */
export const tenantSummarySchema = v.object({
  id: v.string(),
  name: v.string(),
  display_name: v.string(),
  active: v.boolean(),
  friendly_identifier: v.string(),
  service_period: servicePeriodSchema,
  locale: v.string(),
  type: v.picklist(TENANT_TYPES),
  system_account: v.boolean(),
  partner_account_id: v.nullable(v.string()),
  partner_account_name: v.nullable(v.string()),
  federated_account_id: v.nullable(v.string()),
  federation_status: v.nullable(v.picklist(FEDERATION_STATUSES)),
  /** The external product's edit page for a linked account; Edit opens it in a new tab. */
  federated_account_details_url: v.nullable(v.string()),
  /** Row version: the ETag of the account, which the list's status actions send as If-Match. */
  version: v.number(),
});
export type TenantSummary = v.InferOutput<typeof tenantSummarySchema>;

export const tenantListSchema = listSchema(tenantSummarySchema);
export type TenantList = v.InferOutput<typeof tenantListSchema>;

export const SIGN_IN_METHODS = ['standard', 'singleSignOnSaml', 'singleSignOnOidc'] as const;
export const signInMethodEntrySchema = v.object({
  signInMethod: v.picklist(SIGN_IN_METHODS),
  status: v.picklist(['enabled', 'disabled']),
  mfaStatus: v.picklist(['enabled', 'disabled']),
  clientAuthCertLoginEnabled: v.boolean(),
});

export const tenantApplicationSchema = v.object({
  id: v.string(),
  name: v.string(),
  app_code: v.picklist(APPLICATION_CODES),
  app_name: v.string(),
  context: v.string(),
  features: v.array(
    v.object({
      name: v.string(),
      attributes: v.object({
        limit: v.number(),
        used: v.number(),
        remaining: v.number(),
        over_use: v.number(),
      }),
    }),
  ),
  permissions: v.array(v.string()),
});

/** GET tenant/{id} and account/{id}: the whole account record (account administration §3). */
export const tenantSchema = v.object({
  ...tenantSummarySchema.entries,
  /**
   * The fields below that the platform does not manage yet (the primary account of a linked identity,
   * authentication configurations, sign-in methods, OAuth clients) are left out of its answers rather
   * than answered with a value that would read as a fact; a client shows them as not configured.
   */
  primary_account_id: v.optional(v.string()),
  federated_account_name: v.nullable(v.string()),
  /** Name of the external identity product the account is linked to. */
  federation_provider: v.nullable(v.string()),
  has_onelogin_id: v.boolean(),
  can_account_be_unlinked: v.boolean(),
  mfa_enabled: v.boolean(),
  can_edit_mfa: v.boolean(),
  allow_user_creation_via_sso: v.boolean(),
  has_dsm_license: v.boolean(),
  auth_config: v.optional(v.array(v.object({ id: v.string(), type: v.string() }))),
  sign_in_methods: v.optional(v.array(signInMethodEntrySchema)),
  oauth_clients: v.optional(
    v.array(
      v.object({
        id: v.string(),
        name: v.string(),
        status: v.picklist(['ENABLED', 'DISABLED']),
        oauthClientId: v.string(),
        oauthClientAccountId: v.string(),
      }),
    ),
  ),
  applications: v.array(tenantApplicationSchema),
});
export type Tenant = v.InferOutput<typeof tenantSchema>;

/** Longest "ends within N days" filter: ten years. */
export const MAX_ENDS_WITHIN_DAYS = 3650;

/**
 * GET tenants (account administration §7): paging, sort and the filters of the accounts table.
 * `endsWithinDays` counts from today; `endDateFrom`/`endDateTo` bound the end date inclusively.
 */
export const tenantListQuerySchema = v.object({
  ...pagingQueryEntries,
  sort: sortQuery(TENANT_SORT_COLUMNS),
  active: v.optional(v.picklist(['true', 'false'], 'invalidValue')),
  endDateFrom: v.optional(dateOnlySchema),
  endDateTo: v.optional(dateOnlySchema),
  endsWithinDays: v.optional(queryInteger(0, MAX_ENDS_WITHIN_DAYS)),
  partnerAccountNameLike: textFilterQuery,
  type: v.optional(v.picklist(TENANT_TYPES, 'invalidValue')),
  friendly_identifier: textFilterQuery,
  name: textFilterQuery,
});
export type TenantListQuery = v.InferOutput<typeof tenantListQuerySchema>;
/** The query as the console writes it, before parsing. */
export type TenantListQueryInput = v.InferInput<typeof tenantListQuerySchema>;

/** GET tenants/export: the same filters and sort, every page, as CSV. */
export const tenantExportQuerySchema = v.omit(tenantListQuerySchema, ['limit', 'offset']);

/** GET tenants/expiring: counts of active accounts ending within 30 and 60 days. */
export const expiringTenantsSchema = v.object({ '30': v.number(), '60': v.number() });
export type ExpiringTenants = v.InferOutput<typeof expiringTenantsSchema>;

export const tenantIdParamsSchema = v.object({
  id: resourceIdSchema,
});

const localeSchema = v.picklist(PLATFORM_LOCALES, 'invalidLocale');

/** PUT tenant/{id}: name, language and service period (account administration §7). */
export const tenantUpdateSchema = v.object({
  name: accountNameSchema,
  locale: localeSchema,
  service_period: v.object({ from: dateOnlySchema, to: dateOnlySchema }),
});
export type TenantUpdate = v.InferOutput<typeof tenantUpdateSchema>;

export const friendlyIdentifierSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(FRIENDLY_IDENTIFIER_MAX_LENGTH, 'tooLong'),
  v.regex(GENERAL_IDENTIFIER_PATTERN, 'invalidValue'),
);

/**
 * POST tenants: a standard or partner account with its first administrator. System scope chooses the
 * type and, for a standard account, optionally its partner; a partner's accounts are always its own.
 * Without a friendly identifier the server derives one from the name.
 */
export const tenantCreateSchema = v.object({
  name: accountNameSchema,
  locale: localeSchema,
  type: v.picklist(CREATABLE_TENANT_TYPES, 'invalidValue'),
  partner_account_id: v.optional(v.nullable(resourceIdSchema)),
  friendly_identifier: v.optional(friendlyIdentifierSchema),
  service_period: v.object({ from: v.optional(dateOnlySchema), to: dateOnlySchema }),
  administrator: newAdministratorSchema,
});
export type TenantCreate = v.InferOutput<typeof tenantCreateSchema>;
export type TenantCreateInput = v.InferInput<typeof tenantCreateSchema>;

/** DELETE tenants?ids=a,b (data in the query, overview §7). */
export const tenantDeleteQuerySchema = v.object({ ids: idListQuerySchema });

/** POST tenant/{id}/unlink: the confirmation the user typed (account administration §5). */
export const UNLINK_CONFIRMATION_WORD = 'UNLINK';
export const tenantUnlinkSchema = v.object({
  confirmation: v.pipe(
    v.string('invalidType'),
    v.minLength(1, 'required'),
    v.maxLength(256, 'tooLong'),
    v.value(UNLINK_CONFIRMATION_WORD, 'invalidValue'),
  ),
});

const urlSchema = v.pipe(
  v.string('invalidType'),
  v.maxLength(2048, 'tooLong'),
  v.regex(NO_CONTROL_CHARACTERS_PATTERN, 'invalidValue'),
  v.url('invalidValue'),
);

/** A required line of text from another product: trimmed, bounded, no control characters. */
const externalTextSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(128, 'tooLong'),
  v.regex(NO_CONTROL_CHARACTERS_PATTERN, 'invalidValue'),
);

/**
 * PUT /account/api/v1/tenants/{id}/federation: an external identity product links one of its
 * accounts to a platform account (system scope). Unlinking is the console's POST tenant/{id}/unlink.
 */
export const tenantFederationSchema = v.object({
  provider: externalTextSchema,
  federated_account_id: externalTextSchema,
  federated_account_name: accountNameSchema,
  details_url: v.pipe(urlSchema, v.startsWith('https://', 'invalidValue')),
});
export type TenantFederation = v.InferOutput<typeof tenantFederationSchema>;

/** The identifier part of a partner account name: what follows its last hyphen (account administration §2). */
export function partnerIdentifierOf(partnerAccountName: string): string {
  const index = partnerAccountName.lastIndexOf('-');
  return index === -1 ? partnerAccountName : partnerAccountName.slice(index + 1);
}
