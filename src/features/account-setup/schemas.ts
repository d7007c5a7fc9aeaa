import * as v from 'valibot';
import {
  PASSWORD_MAX_LENGTH,
  passwordConfirmationSchema,
  passwordSchema,
  userNameSchema,
  withPasswordConfirmation,
} from '../../../contract/validation.ts';

/** The invitation's form: the user name and a first password, typed twice. */
export const invitationFormSchema = withPasswordConfirmation(
  v.object({
    login: userNameSchema,
    password: passwordSchema,
    repeatedPassword: passwordConfirmationSchema,
  }),
);

/** The verification of a new address: the user name and the current password, checked by the server. */
export const verificationFormSchema = v.object({
  login: userNameSchema,
  password: v.pipe(
    v.string('invalidType'),
    v.nonEmpty('required'),
    v.maxLength(PASSWORD_MAX_LENGTH, 'wrongPassword'),
  ),
});

/** The reset's form: the new password, typed twice. */
export const resetFormSchema = withPasswordConfirmation(
  v.object({
    password: passwordSchema,
    repeatedPassword: passwordConfirmationSchema,
  }),
);
