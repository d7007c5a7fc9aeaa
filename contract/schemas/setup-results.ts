import * as v from 'valibot';

/** 201 of POST setup/license: the licence now in force. */
export const setupLicenceResultSchema = v.object({
  status: v.picklist(['VALID']),
  licensee: v.string(),
  valid_to: v.pipe(v.string(), v.isoDate()),
});
export type SetupLicenceResult = v.InferOutput<typeof setupLicenceResultSchema>;

/** 201 of a create: the new object's id. */
export const createdSchema = v.object({ id: v.string() });
export type Created = v.InferOutput<typeof createdSchema>;
