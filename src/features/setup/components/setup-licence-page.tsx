import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import * as v from 'valibot';
import { licenceTextSchema } from '../../../../contract/schemas/setup.ts';
import { toValidationCode } from '../../../../contract/validation.ts';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { validationMessage } from '../../../lib/validation-messages.ts';
import { useInstallLicence } from '../mutations.ts';

/** First-time setup, step 1: the signed licence text (A-01..A-05). */
export function SetupLicencePage() {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const install = useInstallLicence();
  const [fieldError, setFieldError] = useState<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = v.safeParse(licenceTextSchema, new FormData(event.currentTarget).get('licence') ?? '');
    if (!parsed.success) {
      setFieldError(validationMessage(toValidationCode(parsed.issues[0].message), i18n));
      return;
    }
    setFieldError(undefined);
    install.run({ body: parsed.output }, { onSuccess: () => void navigate({ to: '/setup-user' }) });
  };

  return (
    <PublicLayout title={<Trans>Set up the license</Trans>} wide>
      <p>
        <Trans>
          Paste the license text you received from your vendor. It decides which applications and how many
          seats are available.
        </Trans>
      </p>
      {install.error ? <ServerErrorAlert error={install.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <TextAreaField
          label={t`License text`}
          name="licence"
          error={fieldError}
          spellCheck={false}
          autoCapitalize="none"
          required
        />
        <Button type="submit" busy={install.isPending}>
          <Trans>Continue</Trans>
        </Button>
      </form>
    </PublicLayout>
  );
}
