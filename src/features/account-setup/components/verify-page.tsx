import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useRef, useState } from 'react';
import { NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { type FormState, useForm } from '../../../lib/form/use-form.ts';
import { linkHolder, verifyAccount } from '../mutations.ts';
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
  const holder = useLinkHolder(userId, code, () => setOutcome({ kind: 'expired' }));
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
  if (holder === undefined) {
    return (
      <PublicLayout
        title={isNew ? <Trans>Set up your account</Trans> : <Trans>Verify your email address</Trans>}
      >
        <p role="status">
          <Trans>Opening your link…</Trans>
        </p>
      </PublicLayout>
    );
  }
  return isNew ? (
    <InvitationForm userId={userId} code={code} userName={holder} onOutcome={setOutcome} />
  ) : (
    <VerificationForm userId={userId} code={code} userName={holder} onOutcome={setOutcome} />
  );
}

/**
 * Whose the link is: its user name once the server named it; null when the server could not be asked
 * (the form then asks for the name, and the server checks it on sending); undefined while asking. A
 * link the server no longer honours calls `onExpired`.
 */
function useLinkHolder(userId: string, code: string, onExpired: () => void): string | null | undefined {
  const [userName, setUserName] = useState<string | null | undefined>(undefined);
  const expired = useRef(onExpired);
  expired.current = onExpired;
  useEffect(() => {
    let current = true;
    linkHolder(userId, code).then(
      (holder) => {
        if (current) setUserName(holder.user_name);
      },
      (error: unknown) => {
        if (!current) return;
        if (isExpiredLink(error)) expired.current();
        else setUserName(null);
      },
    );
    return () => {
      current = false;
    };
  }, [userId, code]);
  return userName;
}

interface FormProps {
  userId: string;
  code: string;
  /** The link's user name, shown and sent as it is; null when it is not known and must be typed. */
  userName: string | null;
  onOutcome: (outcome: Outcome) => void;
}

/** The user name: the link's, read-only, so a password manager stores it with the password. */
function UserNameField({ form, userName }: { form: FormState; userName: string | null }) {
  const { t } = useLingui();
  return (
    <TextField
      label={t`Username`}
      {...form.field('login')}
      defaultValue={userName ?? undefined}
      readOnly={userName !== null}
      autoComplete="username"
      autoCapitalize="none"
      spellCheck={false}
      required
    />
  );
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
  const form = useForm(invitationFormSchema, {
    onSubmit: ({ login, password }) => submit(props, login, password),
  });
  return (
    <PublicLayout title={<Trans>Set up your account</Trans>}>
      <p>
        {props.userName === null ? (
          <Trans>Enter the username from the invitation and choose your password.</Trans>
        ) : (
          <Trans>Choose the password you will sign in with.</Trans>
        )}
      </p>
      <Form form={form} className="form">
        <UserNameField form={form} userName={props.userName} />
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
        {props.userName === null ? (
          <Trans>Confirm it is you with your username and current password.</Trans>
        ) : (
          <Trans>Confirm it is you with your current password.</Trans>
        )}
      </p>
      <Form form={form} className="form">
        <UserNameField form={form} userName={props.userName} />
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
