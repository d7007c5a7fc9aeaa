import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import { ACCOUNTS_LIST_PATH } from '../../../../contract/paths.ts';
import { encodeSignInState } from '../../../../contract/schemas/identity.ts';
import { setupUserRequestSchema } from '../../../../contract/schemas/setup.ts';
import { fieldIssues, type ValidationCode } from '../../../../contract/validation.ts';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { validationMessage } from '../../../lib/validation-messages.ts';
import { useCreateAdministrator } from '../mutations.ts';

type SetupUserField = keyof v.InferInput<typeof setupUserRequestSchema>;

function formValues(form: HTMLFormElement): Record<SetupUserField, string> {
  const data = new FormData(form);
  const text = (name: SetupUserField) => String(data.get(name) ?? '');
  return {
    first_name: text('first_name'),
    last_name: text('last_name'),
    email: text('email'),
    user_name: text('user_name'),
    password: text('password'),
    repeatedPassword: text('repeatedPassword'),
  };
}

/** First-time setup, step 2: the first system administrator (A-06..A-20, A-26). */
export function SetupUserPage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const create = useCreateAdministrator();
  const [errors, setErrors] = useState<Partial<Record<string, ValidationCode>>>({});

  const errorOf = (field: SetupUserField) => {
    const code = errors[field];
    return code ? validationMessage(code, i18n) : undefined;
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const parsed = v.safeParse(setupUserRequestSchema, formValues(form));
    if (!parsed.success) {
      const issues = fieldIssues(parsed.issues);
      setErrors(issues);
      // Move to the first field to fix, so keyboard and screen-reader users hear what is wrong.
      const first = Object.keys(issues)[0];
      if (first) form.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    create.run(parsed.output, {
      onSuccess: () =>
        void navigate({
          to: '/login',
          search: { state: encodeSignInState({ return_path: ACCOUNTS_LIST_PATH }) },
        }),
    });
  };

  return (
    <PublicLayout title={<Trans>Create the first administrator</Trans>} wide>
      <p>
        <Trans>This person administers the whole platform and can invite everyone else.</Trans>
      </p>
      {create.error ? <ServerErrorAlert error={create.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <div className="form__grid">
          <TextField
            label={t`First name`}
            name="first_name"
            autoComplete="given-name"
            error={errorOf('first_name')}
            required
          />
          <TextField
            label={t`Last name`}
            name="last_name"
            autoComplete="family-name"
            error={errorOf('last_name')}
            required
          />
        </div>
        <TextField
          label={t`Email`}
          name="email"
          type="email"
          autoComplete="email"
          error={errorOf('email')}
          required
        />
        <TextField
          label={t`Username`}
          name="user_name"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={errorOf('user_name')}
          required
        />
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          autoComplete="new-password"
          description={t`At least 12 characters, with upper-case and lower-case letters, a digit and a symbol.`}
          error={errorOf('password')}
          required
        />
        <TextField
          label={t`Repeat password`}
          name="repeatedPassword"
          type="password"
          autoComplete="new-password"
          error={errorOf('repeatedPassword')}
          required
        />
        <Button type="submit" busy={create.isPending}>
          <Trans>Create administrator</Trans>
        </Button>
      </form>
    </PublicLayout>
  );
}
