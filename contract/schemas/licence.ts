import * as v from 'valibot';
import { APPLICATION_CODES } from '../permissions.ts';

export const LICENCE_STATUSES = ['VALID', 'EXPIRED', 'NOT_FOUND'] as const;
export type LicenceStatus = (typeof LICENCE_STATUSES)[number];

/** GET license/status: the licence check (overview §3, §4). */
export const licenceCheckSchema = v.object({
  status: v.picklist(LICENCE_STATUSES),
  redirect_url: v.nullable(v.string()),
});
export type LicenceCheck = v.InferOutput<typeof licenceCheckSchema>;

/**
 * What a licence grants, the signed payload of the licence text. `seats` maps an application code to
 * its seat limit; -1 means unlimited.
 */
export const licencePayloadSchema = v.object({
  licence_id: v.pipe(v.string(), v.nonEmpty()),
  licensee: v.pipe(v.string(), v.nonEmpty(), v.maxLength(256)),
  valid_from: v.pipe(v.string(), v.isoDate()),
  valid_to: v.pipe(v.string(), v.isoDate()),
  seats: v.record(v.picklist(APPLICATION_CODES), v.pipe(v.number(), v.integer(), v.minValue(-1))),
  /**
   * The system pool per application and licence type (decision 022 §1); a type not named here has
   * its application's `seats`. Absent from licences issued before licence types existed.
   */
  limits: v.optional(
    v.record(
      v.picklist(APPLICATION_CODES),
      v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(-1), v.maxValue(2_147_483_647))),
    ),
  ),
  issued_at: v.pipe(v.string(), v.isoTimestamp()),
});
export type LicencePayload = v.InferOutput<typeof licencePayloadSchema>;
