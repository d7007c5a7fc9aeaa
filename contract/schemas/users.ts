import * as v from 'valibot';
import {
  emailSchema,
  passwordConfirmationSchema,
  passwordSchema,
  personNameSchema,
  userNameSchema,
  withPasswordConfirmation,
} from '../validation.ts';

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
