import { plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useId, useLayoutEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import type { ConsoleLocale } from '../../../../contract/locales.ts';
import { UPDATE_LICENCE_ERROR_PATH } from '../../../../contract/paths.ts';
import {
  decodeSignInState,
  loginRequestSchema,
  type SignInState,
  verifyUserRequestSchema,
} from '../../../../contract/schemas/identity.ts';
import { LanguageSelect } from '../../../components/language-select.tsx';
import { PublicLayout } from '../../../components/public-layout.tsx';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { leaveTo } from '../../../lib/external-navigation.ts';
import { useForm } from '../../../lib/form/use-form.ts';
import { platformLocaleFor, storeLanguageAndReload } from '../../../lib/i18n.ts';
import { PageLink, usePageNavigation } from '../../../lib/page-navigation.tsx';
import { routerHref } from '../../../lib/return-path.ts';
import { useSession } from '../../../lib/session.ts';
import { pathAfterSignIn } from '../guard.ts';
import { signIn, verifyUsername } from '../mutations.ts';
import { takeOverSignInPreview } from '../sign-in-preview.ts';
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

/** The username step reads only the username; the state and language are the page's, not the user's. */
const usernameSchema = v.pick(verifyUserRequestSchema, ['username']);

function UsernameStep({ state, loginHint, encodedState, onVerified }: UsernameStepProps) {
  const { t, i18n } = useLingui();
  const usernameField = useRef<HTMLInputElement>(null);
  // index.html's preview stood in until now; what was typed into it stays (sign-in-preview.ts).
  useLayoutEffect(() => takeOverSignInPreview(usernameField.current), []);
  const form = useForm(usernameSchema, {
    onSubmit: async ({ username }) => {
      const language = platformLocaleFor(i18n.locale as ConsoleLocale);
      const answer = await verifyUsername({ username, state: encodedState, language });
      onVerified(username, decodeSignInState(answer.state) ?? state);
    },
  });

  return (
    <>
      {state.error === 'username_not_found' ? (
        <Alert tone="error">
          <Trans>Login username not found.</Trans>
        </Alert>
      ) : null}
      <Form form={form} className="form" errorText={signInErrorText}>
        <TextField
          ref={usernameField}
          label={t`Username`}
          {...form.field('username')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          defaultValue={loginHint}
          required
        />
        <Button {...form.submitProps}>
          <Trans>Next</Trans>
        </Button>
      </Form>
      {state.allow_account_creation ? (
        <p className="form__aside">
          <Trans>
            Don't have an account? <PageLink to="/create-user-account">Create one</PageLink>
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
  const session = useSession();
  const navigation = usePageNavigation();
  const headingId = useId();
  const form = useForm(loginRequestSchema, {
    onSubmit: async (credentials) => {
      const next = routerHref(pathAfterSignIn(state));
      // The first screen loads while the licence is checked; an expired licence leaves it unused.
      const licence = await signIn(session, credentials, () => navigation.preload(next));
      if (licence.status === 'EXPIRED') {
        leaveTo(licence.redirect_url ?? UPDATE_LICENCE_ERROR_PATH, UPDATE_LICENCE_ERROR_PATH);
      } else {
        // Awaited, so the button stays busy until the next page is drawn.
        await navigation.go(licence.status === 'NOT_FOUND' ? '/setup-license' : next);
      }
    },
  });

  return (
    <>
      <p className="sign-in__identity" id={headingId}>
        <Trans>
          Signing in as <strong>{username}</strong>
        </Trans>
      </p>
      <Form form={form} className="form" aria-describedby={headingId} errorText={signInErrorText}>
        <input type="hidden" name="username" value={username} autoComplete="username" />
        <TextField
          label={t`Password`}
          {...form.field('password')}
          type="password"
          autoComplete="current-password"
          // The username form this replaced held the focus; the password is the one thing left to enter.
          autoFocus
          required
        />
        <Button {...form.submitProps}>
          <Trans>Sign in</Trans>
        </Button>
      </Form>
      <p className="form__aside">
        <Button variant="link" onClick={onUseAnotherAccount}>
          <Trans>Use another account</Trans>
        </Button>
      </p>
    </>
  );
}

/** The sign-in texts the spec gives for 401 and 429; anything else by the shared error rules. */
function signInErrorText(error: Error): string | null {
  if (error instanceof ApiError && error.status === 401) return t`The username or password is incorrect.`;
  if (error instanceof ApiError && error.status === 429) {
    const seconds = error.retryAfterSeconds ?? 60;
    return plural(seconds, {
      one: 'Too many failed attempts. Try again in # second.',
      other: 'Too many failed attempts. Try again in # seconds.',
    });
  }
  return null;
}
