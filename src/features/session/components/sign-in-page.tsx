import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useId, useState } from 'react';
import * as v from 'valibot';
import type { ConsoleLocale } from '../../../../contract/locales.ts';
import { UPDATE_LICENCE_ERROR_PATH } from '../../../../contract/paths.ts';
import { decodeSignInState, type SignInState } from '../../../../contract/schemas/identity.ts';
import { toValidationCode, userNameSchema } from '../../../../contract/validation.ts';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorNotificationTexts } from '../../../lib/error-messages.ts';
import { leaveTo } from '../../../lib/external-navigation.ts';
import { platformLocaleFor, storeLanguageAndReload } from '../../../lib/i18n.ts';
import { routerHref, safeReturnPath } from '../../../lib/return-path.ts';
import { validationMessage } from '../../../lib/validation-messages.ts';
import { useSignIn, useVerifyUsername } from '../mutations.ts';
import { SignInFooter } from './sign-in-footer.tsx';

interface SignInPageProps {
  /** The `state` query value as it came in (B-07). */
  encodedState: string;
}

/** Username first, then password, on one route (overview §2, §4). */
export function SignInPage({ encodedState }: SignInPageProps) {
  const state = decodeSignInState(encodedState) ?? {};
  const [passwordStep, setPasswordStep] = useState<{ username: string; state: SignInState } | null>(null);
  const [loginHint, setLoginHint] = useState(state.login_hint ?? '');
  const { t } = useLingui();
  const friendlyName = state.friendly_name;

  return (
    <PublicLayout
      title={<Trans>Sign in</Trans>}
      subtitle={friendlyName ? t`You are signing in to ${friendlyName}.` : undefined}
      footer={<SignInFooter />}
    >
      {passwordStep ? (
        <PasswordStep
          username={passwordStep.username}
          state={passwordStep.state}
          onUseAnotherAccount={() => {
            setLoginHint('');
            setPasswordStep(null);
          }}
        />
      ) : (
        <UsernameStep
          state={state}
          loginHint={loginHint}
          encodedState={encodedState}
          onVerified={(username, next) => setPasswordStep({ username, state: next })}
        />
      )}
    </PublicLayout>
  );
}

interface UsernameStepProps {
  state: SignInState;
  loginHint: string;
  encodedState: string;
  onVerified: (username: string, next: SignInState) => void;
}

function UsernameStep({ state, loginHint, encodedState, onVerified }: UsernameStepProps) {
  const { t, i18n } = useLingui();
  const verify = useVerifyUsername();
  const [fieldError, setFieldError] = useState<string>();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = v.safeParse(userNameSchema, new FormData(event.currentTarget).get('username') ?? '');
    if (!parsed.success) {
      setFieldError(validationMessage(toValidationCode(parsed.issues[0].message), i18n));
      return;
    }
    setFieldError(undefined);
    const username = parsed.output;
    verify.run(
      { username, state: encodedState, language: platformLocaleFor(i18n.locale as ConsoleLocale) },
      { onSuccess: (answer) => onVerified(username, decodeSignInState(answer.state) ?? state) },
    );
  };

  return (
    <>
      {state.error === 'username_not_found' ? (
        <Alert tone="error">
          <Trans>Login username not found.</Trans>
        </Alert>
      ) : null}
      {verify.error ? <RequestErrorAlert error={verify.error} /> : null}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={t`Username`}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={loginHint}
          error={fieldError}
          required
        />
        <Button type="submit" busy={verify.isPending}>
          <Trans>Next</Trans>
        </Button>
      </form>
      {state.allow_account_creation ? (
        <p className="form__aside">
          <Trans>
            Don't have an account? <Link to="/create-user-account">Create one</Link>
          </Trans>
        </p>
      ) : null}
      <LanguageSelect onChoose={storeLanguageAndReload} />
    </>
  );
}

interface PasswordStepProps {
  username: string;
  state: SignInState;
  onUseAnotherAccount: () => void;
}

function PasswordStep({ username, state, onUseAnotherAccount }: PasswordStepProps) {
  const { t } = useLingui();
  const signIn = useSignIn();
  const navigate = useNavigate();
  const headingId = useId();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    signIn.run(
      { username, password },
      {
        onSuccess: (licence) => {
          if (licence.status === 'EXPIRED') {
            leaveTo(licence.redirect_url ?? UPDATE_LICENCE_ERROR_PATH, UPDATE_LICENCE_ERROR_PATH);
          } else if (licence.status === 'NOT_FOUND') {
            void navigate({ to: '/setup-license' });
          } else {
            void navigate({ href: routerHref(safeReturnPath(state.return_path)) });
          }
        },
      },
    );
  };

  return (
    <>
      {signIn.error ? <RequestErrorAlert error={signIn.error} /> : null}
      <p className="sign-in__identity" id={headingId}>
        <Trans>
          Signing in as <strong>{username}</strong>
        </Trans>
      </p>
      <form className="form" onSubmit={submit} aria-describedby={headingId}>
        <input type="hidden" name="username" value={username} autoComplete="username" />
        <TextField
          label={t`Password`}
          name="password"
          type="password"
          autoComplete="current-password"
          // The username form this replaced held the focus; the password is the one thing left to enter.
          autoFocus
          required
        />
        <Button type="submit" busy={signIn.isPending}>
          <Trans>Sign in</Trans>
        </Button>
      </form>
      <p className="form__aside">
        <Button variant="link" onClick={onUseAnotherAccount}>
          <Trans>Use another account</Trans>
        </Button>
      </p>
    </>
  );
}

/** The sign-in texts the spec gives for 401 and 429; anything else by the shared error rules. */
function RequestErrorAlert({ error }: { error: Error }) {
  const { t, i18n } = useLingui();
  let text: string;
  if (error instanceof ApiError && error.status === 401) {
    text = t`The username or password is incorrect.`;
  } else if (error instanceof ApiError && error.status === 429) {
    const seconds = error.retryAfterSeconds ?? 60;
    text = plural(seconds, {
      one: 'Too many failed attempts. Try again in # second.',
      other: 'Too many failed attempts. Try again in # seconds.',
    });
  } else {
    text = errorNotificationTexts(error, i18n)[0] ?? t`Something went wrong. Try again.`;
  }
  return <Alert tone="error">{text}</Alert>;
}
