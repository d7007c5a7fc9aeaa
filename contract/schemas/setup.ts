import * as v from 'valibot';
import {
  emailSchema,
  passwordConfirmationSchema,
  passwordSchema,
  personNameSchema,
  userNameSchema,
  withPasswordConfirmation,
} from '../validation.ts';

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

/** POST setup/user (overview §3). */
export const setupUserRequestSchema = withPasswordConfirmation(
  v.object({
    first_name: personNameSchema,
    last_name: personNameSchema,
    email: emailSchema,
    user_name: userNameSchema,
    password: passwordSchema,
    repeatedPassword: passwordConfirmationSchema,
  }),
);
export type SetupUserRequest = v.InferOutput<typeof setupUserRequestSchema>;

/** GET setup/status: what first-time setup still needs. Public. */
export const setupStatusSchema = v.object({
  licence_installed: v.boolean(),
  administrator_exists: v.boolean(),
});
export type SetupStatus = v.InferOutput<typeof setupStatusSchema>;
