import * as v from 'valibot';
import { isSelectableCountry } from '../countries.ts';
import { ORGANIZATION_SORT_COLUMNS } from '../sort-columns.ts';
import {
  ADDRESS_LINE_MAX_LENGTH,
  emailSchema,
  NO_CONTROL_CHARACTERS_PATTERN,
  optionalPhoneSchema,
  optionalTextLineSchema,
  personNameSchema,
  requiredTextLineSchema,
  ZIP_CODE_MAX_LENGTH,
} from '../validation.ts';
import { listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries, sortQuery, textFilterQuery } from './query.ts';

/** An organization of an account (account administration §3), with its row version as ETag. */
export const organizationSchema = v.object({
  id: v.string(),
  account_id: v.string(),
  name: v.string(),
  address: v.string(),
  address2: v.string(),
  city: v.string(),
  state: v.string(),
  zip_code: v.string(),
  country: v.string(),
  phone: v.string(),
  contacts_count: v.number(),
  version: v.number(),
});
export type Organization = v.InferOutput<typeof organizationSchema>;
export const organizationListSchema = listSchema(organizationSchema);
export type OrganizationList = v.InferOutput<typeof organizationListSchema>;

export const countryCodeSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.nonEmpty('required'),
  v.check(isSelectableCountry, 'invalidCountry'),
);

const zipCodeSchema = v.optional(
  v.pipe(
    v.string('invalidType'),
    v.trim(),
    v.maxLength(ZIP_CODE_MAX_LENGTH, 'tooLong'),
    v.regex(/^[A-Za-z0-9 -]*$/, 'invalidValue'),
  ),
  '',
);

/**
 * The organization form (decision 012): name, first address line, city and country are required;
 * the second address line, state, zip code and phone are optional.
 */
export const organizationFieldsSchema = v.object({
  name: requiredTextLineSchema,
  address: requiredTextLineSchema,
  address2: optionalTextLineSchema,
  city: requiredTextLineSchema,
  state: optionalTextLineSchema,
  zip_code: zipCodeSchema,
  country: countryCodeSchema,
  phone: optionalPhoneSchema,
});
export type OrganizationFields = v.InferOutput<typeof organizationFieldsSchema>;
export type OrganizationFieldsInput = v.InferInput<typeof organizationFieldsSchema>;

/** POST organizations: the fields and the account the organization belongs to. */
export const organizationCreateSchema = v.object({
  ...organizationFieldsSchema.entries,
  account_id: resourceIdSchema,
});
export type OrganizationCreate = v.InferOutput<typeof organizationCreateSchema>;

/** PUT organizations/{id} */
export const organizationUpdateSchema = organizationFieldsSchema;

/** GET organizations?accountId=: an account's organizations (the caller's primary account by default). */
export const organizationListQuerySchema = v.object({
  ...pagingQueryEntries,
  sort: sortQuery(ORGANIZATION_SORT_COLUMNS),
  accountId: v.optional(resourceIdSchema),
  name: textFilterQuery,
});
export type OrganizationListQueryInput = v.InferInput<typeof organizationListQuerySchema>;

export const organizationParamsSchema = v.object({ id: resourceIdSchema });

/** Technical and administrative contacts of an organization (decision 012). */
export const CONTACT_TYPES = ['technical', 'administrative'] as const;
export type ContactType = (typeof CONTACT_TYPES)[number];

export const contactSchema = v.object({
  id: v.string(),
  organization_id: v.string(),
  first_name: v.string(),
  last_name: v.string(),
  email: v.string(),
  phone: v.string(),
  title: v.string(),
  type: v.picklist(CONTACT_TYPES),
  version: v.number(),
});
export type Contact = v.InferOutput<typeof contactSchema>;
export const contactListSchema = listSchema(contactSchema);

/** POST organizations/{id}/contacts and PUT organizations/{id}/contacts/{contactId}. */
export const contactFieldsSchema = v.object({
  first_name: personNameSchema,
  last_name: personNameSchema,
  email: emailSchema,
  phone: optionalPhoneSchema,
  title: v.optional(
    v.pipe(
      v.string('invalidType'),
      v.trim(),
      v.maxLength(ADDRESS_LINE_MAX_LENGTH, 'tooLong'),
      v.regex(NO_CONTROL_CHARACTERS_PATTERN, 'invalidValue'),
    ),
    '',
  ),
  type: v.picklist(CONTACT_TYPES, 'invalidValue'),
});
export type ContactFields = v.InferOutput<typeof contactFieldsSchema>;
export type ContactFieldsInput = v.InferInput<typeof contactFieldsSchema>;

export const contactListQuerySchema = v.object({ ...pagingQueryEntries });

export const contactParamsSchema = v.object({ id: resourceIdSchema, contactId: resourceIdSchema });
