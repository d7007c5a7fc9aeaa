import { useLingui } from '@lingui/react/macro';
import type { FormState } from '../lib/form/use-form.ts';
import { TextField } from './ui/field.tsx';

interface NewPasswordFieldsProps {
  form: Pick<FormState, 'field'>;
  /** The first field's label where "New password" does not fit (first-run setup says "Password"). */
  passwordLabel?: string;
  repeatLabel?: string;
}

/**
 * A new password and its repetition, named `password` and `repeatedPassword` as every contract schema
 * with the spec's confirmation rule names them (overview §5), with the password rule stated under the
 * first and autocomplete telling password managers to offer a new one.
 */
export function NewPasswordFields({ form, passwordLabel, repeatLabel }: NewPasswordFieldsProps) {
  const { t } = useLingui();
  return (
    <>
      <TextField
        label={passwordLabel ?? t`New password`}
        {...form.field('password')}
        type="password"
        autoComplete="new-password"
        description={t`At least 12 characters, with upper-case and lower-case letters, a digit and a symbol.`}
        required
      />
      <TextField
        label={repeatLabel ?? t`Repeat password`}
        {...form.field('repeatedPassword')}
        type="password"
        autoComplete="new-password"
        required
      />
    </>
  );
}
