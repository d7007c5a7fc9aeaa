import { Trans, useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { useForm } from '../../../lib/form/use-form.ts';
import { verifyAccount } from '../mutations.ts';
import { invitationFormSchema, verificationFormSchema } from '../schemas.ts';
import { isExpiredLink, LinkDonePage, LinkExpiredPage } from './link-outcome.tsx';

interface VerifyPageProps {
  userId: string;
  code: string;
  /** An invitation (`?new=1`): the person chooses a first password; else proves the current one. */
  isNew: boolean;
}

type Outcome = { kind: 'form' } | { kind: 'done'; userName: string } | { kind: 'expired' };

/**
 * /verify/{userId}/{code}: the page of an invitation or of a changed e-mail address (decision 035
 * §1, decision 037 §3). An invitation sets the first password; a verification checks the current one.
 */
export function VerifyPage({ userId, code, isNew }: VerifyPageProps) {
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'form' });
  if (outcome.kind === 'expired') return <LinkExpiredPage />;
  if (outcome.kind === 'done') {
    return isNew ? (
      <LinkDonePage title={<Trans>Your account is ready</Trans>} userName={outcome.userName}>
        <Trans>Your password is set. Sign in with your username and the new password.</Trans>
      </LinkDonePage>
    ) : (
      <LinkDonePage title={<Trans>Email address verified</Trans>} userName={outcome.userName}>
        <Trans>Your email address is verified. You can sign in as before.</Trans>
      </LinkDonePage>
    );
  }
  return isNew ? (
    <InvitationForm userId={userId} code={code} onOutcome={setOutcome} />
  ) : (
    <VerificationForm userId={userId} code={code} onOutcome={setOutcome} />
  );
}

interface FormProps {
  userId: string;
  code: string;
  onOutcome: (outcome: Outcome) => void;
}

/** Sends the request; a dead link becomes the page's outcome instead of a form error. */
async function submit(props: FormProps, login: string, password: string) {
  try {
    await verifyAccount(props.userId, { verification_code: props.code, login, password });
    props.onOutcome({ kind: 'done', userName: login });
  } catch (error) {
    if (isExpiredLink(error)) props.onOutcome({ kind: 'expired' });
    else throw error;
  }
}

function InvitationForm(props: FormProps) {
  const { t } = useLingui();
  const form = useForm(invitationFormSchema, {
    onSubmit: ({ login, password }) => submit(props, login, password),
  });
  return (
    <PublicLayout title={<Trans>Set up your account</Trans>}>
      <p>
        <Trans>Enter the username from the invitation and choose your password.</Trans>
      </p>
      <Form form={form} className="form">
        <TextField
          label={t`Username`}
          {...form.field('login')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <NewPasswordFields form={form} />
        <Button {...form.submitProps}>
          <Trans>Set password</Trans>
        </Button>
      </Form>
    </PublicLayout>
  );
}

function VerificationForm(props: FormProps) {
  const { t } = useLingui();
  const form = useForm(verificationFormSchema, {
    onSubmit: ({ login, password }) => submit(props, login, password),
  });
  return (
    <PublicLayout title={<Trans>Verify your email address</Trans>}>
      <p>
        <Trans>Confirm it is you with your username and current password.</Trans>
      </p>
      <Form form={form} className="form">
        <TextField
          label={t`Username`}
          {...form.field('login')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <TextField
          label={t`Current password`}
          {...form.field('password')}
          type="password"
          autoComplete="current-password"
          required
        />
        <Button {...form.submitProps}>
          <Trans>Verify email address</Trans>
        </Button>
      </Form>
    </PublicLayout>
  );
}
