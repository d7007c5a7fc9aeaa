import * as v from 'valibot';
import {
  ACCOUNT_FEATURE_IDS,
  ALL_LICENCE_TYPES,
  LICENCE_CHANGE_OPTIONS,
  MAX_LICENCE_QUANTITY,
} from '../licences.ts';
import { APPLICATION_CODES } from '../permissions.ts';
import { dateOnlySchema, type ValidationCode } from '../validation.ts';
import { listSchema } from './common.ts';

/** Licences and features per account: the bodies of decision 022 §3. */

const licenceTypeSchema = v.picklist(
  ALL_LICENCE_TYPES.map((type) => type.id) as [string, ...string[]],
  'invalidValue' satisfies ValidationCode,
);

/** `app` in a path: an application code. */
export const licenceAppParamsSchema = v.object({
  id: v.pipe(v.string(), v.uuid('invalidIdentifier' satisfies ValidationCode)),
  app: v.picklist(APPLICATION_CODES, 'invalidValue' satisfies ValidationCode),
});

/** One licence type of an account (J-07, J-08): the spec's row and the feature's attributes. */
export const licenceRowSchema = v.object({
  id: v.string(),
  featureId: v.string(),
  licenseType: v.string(),
  /** -1: unlimited; 0 once the use reached the total, however far past it. */
  remaining: v.number(),
  /** How far the use went past the total allocated; 0 within it. */
  overUse: v.number(),
  used: v.number(),
  totalAllocated: v.number(),
  /** What the parent can still give (allocation available); -1 when its pool is unlimited. */
  licenseAllocation: v.number(),
  /** Whether the platform counts the use itself, or the application reports it. */
  metered: v.boolean(),
});
export type LicenceRow = v.InferOutput<typeof licenceRowSchema>;

/** GET account/{id}/license/{app}: a licence section (J-06) with its rows and its version for If-Match. */
export const accountLicenceSchema = v.object({
  id: v.picklist(APPLICATION_CODES),
  title: v.string(),
  canEdit: v.boolean(),
  visible: v.boolean(),
  data: v.array(licenceRowSchema),
  /** The account's allocations of this application change together: one version for If-Match. */
  version: v.number(),
  /** Reset is offered on accounts holding a document signing manager licence (J-12). */
  has_dsm_license: v.boolean(),
  /** The parent the allocations are drawn from: the partner, or the system. */
  parent: v.object({ id: v.string(), name: v.string() }),
});
export type AccountLicence = v.InferOutput<typeof accountLicenceSchema>;

/** GET account/{id}/licenses: every application section the caller may see, in catalogue order. */
export const accountLicenceListSchema = v.object({ items: v.array(accountLicenceSchema) });

/** A quantity as typed: digits without a leading zero (J-19, J-20), within a 32-bit integer. */
const quantitySchema = v.pipe(
  v.number('positiveNumber' satisfies ValidationCode),
  v.integer('positiveNumber' satisfies ValidationCode),
  v.minValue(0, 'positiveNumber' satisfies ValidationCode),
  v.maxValue(MAX_LICENCE_QUANTITY, 'cannotExceed' satisfies ValidationCode),
);

/** PUT account/{id}/license/{app} (J-32): the rows to change; the version goes in If-Match. */
export const licenceChangeSchema = v.object({
  changes: v.pipe(
    v.array(
      v.strictObject({
        feature: licenceTypeSchema,
        option: v.picklist(
          LICENCE_CHANGE_OPTIONS.filter((option) => option !== 'noChange') as ['add', 'subtract', 'reset'],
          'invalidValue' satisfies ValidationCode,
        ),
        quantity: quantitySchema,
      }),
      'invalidType' satisfies ValidationCode,
    ),
    v.minLength(1, 'required' satisfies ValidationCode),
    v.maxLength(ALL_LICENCE_TYPES.length, 'tooLong' satisfies ValidationCode),
  ),
  /**
   * The caller has seen that a reset leaves a total below what the account already uses, and wants it
   * so; without it such a reset is refused with `belowUse`.
   */
  confirm_over_use: v.optional(v.boolean('invalidType' satisfies ValidationCode), false),
});
export type LicenceChange = v.InferOutput<typeof licenceChangeSchema>;
/** A change as a caller sends it: `confirm_over_use` may be left out. */
export type LicenceChangeRequest = v.InferInput<typeof licenceChangeSchema>;

/** The allocation event a change records (J-33): one entry per changed type. */
export const licenceAllocationEventSchema = v.object({
  features: v.array(v.object({ name: v.string(), quantity: v.number(), updated_limit: v.number() })),
});

/** The answer of a change: the section as it is now, and the event it recorded. */
export const licenceChangeResultSchema = v.object({
  licence: accountLicenceSchema,
  event: licenceAllocationEventSchema,
});

/** PUT account/{id}/license/usage/{app} (J-36): the use an application reports, per type. */
export const licenceUsageReportSchema = v.object({
  usage: v.pipe(
    v.array(v.strictObject({ feature: licenceTypeSchema, used: quantitySchema })),
    v.minLength(1, 'required' satisfies ValidationCode),
  ),
});
export type LicenceUsageReport = v.InferOutput<typeof licenceUsageReportSchema>;

/** GET account/{id}/license/usage/{app}. */
export const licenceUsageSchema = v.object({
  app_code: v.picklist(APPLICATION_CODES),
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
});

/** A history row (J-42). `actor` is answered to system scope only (J-43); `date` in the asked zone. */
export const licenceHistoryItemSchema = v.object({
  id: v.string(),
  timestamp: v.string(),
  date: v.string(),
  actor: v.nullable(v.string()),
  app_code: v.picklist(APPLICATION_CODES),
  feature: v.string(),
  quantity: v.number(),
  limit: v.number(),
});
export type LicenceHistoryItem = v.InferOutput<typeof licenceHistoryItemSchema>;

export const licenceHistoryListSchema = listSchema(licenceHistoryItemSchema);

/** `timezone`: an IANA zone name the dates are given in (J-41); UTC when absent. */
export const licenceHistoryQuerySchema = v.object({
  limit: v.optional(
    v.pipe(v.string(), v.regex(/^[1-9][0-9]{0,2}$/, 'invalidNumber' satisfies ValidationCode)),
  ),
  offset: v.optional(
    v.pipe(v.string(), v.regex(/^(0|[1-9][0-9]{0,8})$/, 'invalidNumber' satisfies ValidationCode)),
  ),
  sort: v.optional(v.picklist(['timestamp:desc', 'timestamp:asc'], 'invalidSort' satisfies ValidationCode)),
  timezone: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(64, 'tooLong' satisfies ValidationCode),
      v.check((zone) => {
        try {
          new Intl.DateTimeFormat('en', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      }, 'invalidValue' satisfies ValidationCode),
    ),
  ),
});

/** GET …/history-details: every row, so only the zone. */
export const licenceHistoryDetailsQuerySchema = v.pick(licenceHistoryQuerySchema, ['timezone']);

/** A feature of an account (K-03). */
export const accountFeatureSchema = v.object({
  featureId: v.picklist(ACCOUNT_FEATURE_IDS),
  appCode: v.picklist(APPLICATION_CODES),
  enabled: v.boolean(),
  defaultFeature: v.boolean(),
  displayOrder: v.number(),
  endDate: v.nullable(v.string()),
});
export type AccountFeature = v.InferOutput<typeof accountFeatureSchema>;

/** GET features/account/{id}: every feature of the catalogue, with `version` for If-Match. */
export const accountFeatureListSchema = v.object({
  items: v.array(accountFeatureSchema),
  canEdit: v.boolean(),
  version: v.number(),
});

/** PUT features/account/{id} (K-04): the features to set. */
export const accountFeatureUpdateSchema = v.pipe(
  v.array(
    v.strictObject({
      feature_id: v.picklist(ACCOUNT_FEATURE_IDS, 'invalidValue' satisfies ValidationCode),
      enabled: v.boolean('invalidType' satisfies ValidationCode),
      // A real calendar day: `isoDate` takes 30 February, which the database then refuses.
      end_date: v.nullable(dateOnlySchema),
    }),
    'invalidType' satisfies ValidationCode,
  ),
  v.minLength(1, 'required' satisfies ValidationCode),
  v.maxLength(ACCOUNT_FEATURE_IDS.length, 'tooLong' satisfies ValidationCode),
);
export type AccountFeatureUpdate = v.InferOutput<typeof accountFeatureUpdateSchema>;

/** GET license/details: the installed platform licence and its system pools. */
export const licenceDetailsSchema = v.object({
  licence_id: v.string(),
  licensee: v.string(),
  valid_from: v.string(),
  valid_to: v.string(),
  pools: v.array(
    v.object({
      app_code: v.picklist(APPLICATION_CODES),
      feature: v.string(),
      limit: v.number(),
      allocated: v.number(),
    }),
  ),
});
