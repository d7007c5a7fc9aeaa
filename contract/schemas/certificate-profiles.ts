import * as v from 'valibot';
import { profilePolicySchema } from '../certificate-policy.ts';
import { PLATFORM_LOCALES } from '../locales.ts';
import { PROFILE_SORT_COLUMNS } from '../sort-columns.ts';
import { requiredTextLineSchema } from '../validation.ts';
import { listSchema, PROFILE_LIST_LIMIT, resourceIdSchema } from './common.ts';
import { listCursorQuery, queryInteger, sortQuery, textFilterQuery } from './query.ts';

/**
 * Certificate profiles (templates of cert_type end_entity) and the enrollment reference data
 * (decision 019, "Profiles and reference data").
 */

export const CERTIFICATE_TYPES = ['end_entity'] as const;
export type CertificateType = (typeof CERTIFICATE_TYPES)[number];

/** Longest profile name, as the table's check holds it. */
export const PROFILE_NAME_MAX_LENGTH = 100;
export const PROFILE_DESCRIPTION_MAX_LENGTH = 1000;

const profileNameSchema = v.pipe(requiredTextLineSchema, v.maxLength(PROFILE_NAME_MAX_LENGTH, 'tooLong'));
const profileDescriptionSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.maxLength(PROFILE_DESCRIPTION_MAX_LENGTH, 'tooLong'),
  v.regex(/^(?:\P{Cc}|[\t\n\r])*$/u, 'invalidValue'),
);

/** One certificate profile of one account; `version` is its ETag. */
export const certificateProfileSchema = v.object({
  id: v.string(),
  account_id: v.string(),
  account_name: v.string(),
  name: v.string(),
  description: v.string(),
  cert_type: v.picklist(CERTIFICATE_TYPES),
  policy: profilePolicySchema,
  created_at: v.string(),
  updated_at: v.string(),
  version: v.number(),
});
export type CertificateProfile = v.InferOutput<typeof certificateProfileSchema>;

export const certificateProfileListSchema = listSchema(certificateProfileSchema);
export type CertificateProfileList = v.InferOutput<typeof certificateProfileListSchema>;

/**
 * GET profile: paging (up to the profile lists' limit, overview §9), sort, and filters by name (a
 * part of it, without case) and account; an account out of reach is answered 404.
 */
export const certificateProfileListQuerySchema = v.object({
  limit: v.optional(queryInteger(1, PROFILE_LIST_LIMIT)),
  offset: v.optional(queryInteger(0, 999_999_999)),
  after: listCursorQuery,
  sort: sortQuery(PROFILE_SORT_COLUMNS),
  name: textFilterQuery,
  account_id: v.optional(resourceIdSchema),
});
export type CertificateProfileListQuery = v.InferOutput<typeof certificateProfileListQuerySchema>;

export const certificateProfileIdParamsSchema = v.object({ id: resourceIdSchema });
export const accountIdParamsSchema = v.object({ id: resourceIdSchema });

/** PUT profile/{id}: the profile's definition, replaced whole; its account never changes. */
export const certificateProfileUpdateSchema = v.object({
  name: profileNameSchema,
  description: v.optional(profileDescriptionSchema, ''),
  policy: profilePolicySchema,
});
export type CertificateProfileUpdate = v.InferOutput<typeof certificateProfileUpdateSchema>;
export type CertificateProfileUpdateInput = v.InferInput<typeof certificateProfileUpdateSchema>;

/** POST profile: a new profile of `account_id`. */
export const certificateProfileCreateSchema = v.object({
  account_id: resourceIdSchema,
  ...certificateProfileUpdateSchema.entries,
});
export type CertificateProfileCreate = v.InferOutput<typeof certificateProfileCreateSchema>;
export type CertificateProfileCreateInput = v.InferInput<typeof certificateProfileCreateSchema>;

/** GET template and account/{id}/template: profiles offered as templates, optionally of one account. */
export const certificateTemplateQuerySchema = v.object({
  limit: v.optional(queryInteger(1, PROFILE_LIST_LIMIT)),
  offset: v.optional(queryInteger(0, 999_999_999)),
  after: listCursorQuery,
  account_id: v.optional(resourceIdSchema),
});
export type CertificateTemplateQuery = v.InferOutput<typeof certificateTemplateQuerySchema>;

/** A template (overview §3: cert_type end_entity): a profile as enrollment offers it. */
export const certificateTemplateSchema = v.object({
  id: v.string(),
  name: v.string(),
  description: v.string(),
  cert_type: v.picklist(CERTIFICATE_TYPES),
  account_id: v.string(),
  account_name: v.string(),
  policy: profilePolicySchema,
});
export type CertificateTemplate = v.InferOutput<typeof certificateTemplateSchema>;
export const certificateTemplateListSchema = listSchema(certificateTemplateSchema);
export type CertificateTemplateList = v.InferOutput<typeof certificateTemplateListSchema>;

/**
 * Nationalities (overview §7 reference data): the countries the platform deals with (every ISO 3166
 * code but the excluded ones, as for organizations), named in the language asked for.
 */
export const nationalityQuerySchema = v.object({
  locale: v.optional(v.picklist(PLATFORM_LOCALES, 'invalidLocale')),
});
export const nationalitySchema = v.object({ code: v.string(), name: v.string() });
export const nationalityListSchema = listSchema(nationalitySchema);
export type NationalityList = v.InferOutput<typeof nationalityListSchema>;

/** Enrollment methods (overview §3, §9): through the desktop trust agent or the desktop client. */
export const ENROLLMENT_METHODS = ['DTA', 'DDC'] as const;
export type EnrollmentMethod = (typeof ENROLLMENT_METHODS)[number];

export const enrollmentMethodSchema = v.object({
  code: v.picklist(ENROLLMENT_METHODS),
  name: v.string(),
});
export type EnrollmentMethodEntry = v.InferOutput<typeof enrollmentMethodSchema>;
export const enrollmentMethodListSchema = listSchema(enrollmentMethodSchema);
export type EnrollmentMethodList = v.InferOutput<typeof enrollmentMethodListSchema>;

/**
 * The product's software keystore location (overview §9: `{product}_SOFTWARE`); the product is
 * Device Trust Manager. A certificate request's keystore_type is the upper-cased location.
 */
export const SOFTWARE_KEYSTORE_LOCATION = 'DTM_SOFTWARE';
/** Where a key is kept: on a hardware token, or in the product's software keystore. */
export const KEYSTORE_LOCATIONS = ['hardware_token', SOFTWARE_KEYSTORE_LOCATION] as const;
export type KeystoreLocation = (typeof KEYSTORE_LOCATIONS)[number];
/** Keystore categories (overview §3), mapped from the sources OSKS, {product}_SOFTWARE and HWTK. */
export const KEYSTORE_CATEGORIES = ['Platform', 'HWToken', 'SWToken'] as const;
export type KeystoreCategory = (typeof KEYSTORE_CATEGORIES)[number];
export const KEYSTORE_SOURCES = ['OSKS', SOFTWARE_KEYSTORE_LOCATION, 'HWTK'] as const;

export const keystoreTypeSchema = v.object({
  /** ETOKEN, YUBIKEY, MACOS, WINOS, EPASS, PFX, FF-NSS, CSK, WIN-ENH, SAFESIGN, ATHEIDP. */
  code: v.string(),
  /** The readable name (Windows keystore, Keychain Access, Firefox keystore …). */
  name: v.string(),
  category: v.picklist(KEYSTORE_CATEGORIES),
  source: v.picklist(KEYSTORE_SOURCES),
  /** The keystore location an enrollment names for it; null for the platform's own keystores. */
  location: v.nullable(v.picklist(KEYSTORE_LOCATIONS)),
});
export type KeystoreType = v.InferOutput<typeof keystoreTypeSchema>;
export const keystoreTypeListSchema = listSchema(keystoreTypeSchema);
export type KeystoreTypeList = v.InferOutput<typeof keystoreTypeListSchema>;
