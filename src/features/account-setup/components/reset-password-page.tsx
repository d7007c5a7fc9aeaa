import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { resetPassword } from '../mutations.ts';
import { resetFormSchema } from '../schemas.ts';
import { isExpiredLink, LinkDonePage, LinkExpiredPage } from './link-outcome.tsx';

/**
 * /reset-password/{userId}/{code}: a new password through the mailed reset link (decision 018 §4.1).
 * The server ends every session of the person once it is set.
 */
export function ResetPasswordPage({ userId, code }: { userId: string; code: string }) {
  const { t } = useLingui();
  const [outcome, setOutcome] = useState<'form' | 'done' | 'expired'>('form');
  const form = useForm(resetFormSchema, {
    onSubmit: async ({ password, repeatedPassword }) => {
      try {
        await resetPassword(userId, { reset_code: code, password, repeatedPassword });
        setOutcome('done');
      } catch (error) {
        if (isExpiredLink(error)) setOutcome('expired');
        else throw error;
      }
    },
  });
  if (outcome === 'expired') return <LinkExpiredPage />;
  if (outcome === 'done') {
    return (
      <LinkDonePage title={<Trans>Password changed</Trans>}>
        <Trans>
          Your new password is set and you were signed out everywhere. Sign in with the new password.
        </Trans>
      </LinkDonePage>
    );
  }
  return (
    <PublicLayout title={<Trans>Choose a new password</Trans>}>
      <Form form={form} className="form">
        <TextField
          label={t`New password`}
          {...form.field('password')}
          type="password"
          autoComplete="new-password"
          description={t`At least 12 characters, with upper-case and lower-case letters, a digit and a symbol.`}
          required
        />
        <TextField
          label={t`Repeat password`}
          {...form.field('repeatedPassword')}
          type="password"
          autoComplete="new-password"
          required
        />
        <Button {...form.submitProps}>
          <Trans>Set new password</Trans>
        </Button>
      </Form>
    </PublicLayout>
  );
}
