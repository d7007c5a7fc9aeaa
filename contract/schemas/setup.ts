import * as v from 'valibot';
import { newAdministratorSchema } from './users.ts';

/** The largest licence text accepted; a real one is about 1 KB. */
export const LICENCE_TEXT_MAX_LENGTH = 64 * 1024;

export const licenceTextSchema = v.pipe(
  v.string('invalidType'),
  v.trim(),
  v.nonEmpty('required'),
  v.maxLength(LICENCE_TEXT_MAX_LENGTH, 'tooLong'),
);

/** POST setup/license: `{ body }` (overview §3). */
export const setupLicenceRequestSchema = v.object({ body: licenceTextSchema });
export type SetupLicenceRequest = v.InferOutput<typeof setupLicenceRequestSchema>;

/** POST setup/user (overview §3): the first administrator of the platform. */
export const setupUserRequestSchema = newAdministratorSchema;
export type SetupUserRequest = v.InferOutput<typeof setupUserRequestSchema>;

/** GET setup/status: what first-time setup still needs. Public. */
export const setupStatusSchema = v.object({
  licence_installed: v.boolean(),
  administrator_exists: v.boolean(),
});
export type SetupStatus = v.InferOutput<typeof setupStatusSchema>;
