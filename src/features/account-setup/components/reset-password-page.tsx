import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import { NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { resetPassword } from '../mutations.ts';
import { resetFormSchema } from '../schemas.ts';
import { isExpiredLink, LinkDonePage, LinkExpiredPage } from './link-outcome.tsx';

/**
 * /reset-password/{userId}/{code}: a new password through the mailed reset link (decision 035 §1).
 * The server ends every session of the person once it is set.
 */
export function ResetPasswordPage({ userId, code }: { userId: string; code: string }) {
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
        <NewPasswordFields form={form} />
        <Button {...form.submitProps}>
          <Trans>Set new password</Trans>
        </Button>
      </Form>
    </PublicLayout>
  );
}
