import { useLayoutEffect } from 'react';
import { ACCOUNTS_LIST_PATH, CONSOLE_BASE_PATH, LOGIN_PATH } from '../contract/paths.ts';
import { encodeSignInState } from '../contract/schemas/identity.ts';
import { removeStartStandIns } from './features/session/sign-in-preview.ts';
import { SIGN_IN_START_ATTRIBUTE } from './features/session/sign-in-preview-script.ts';
import { ConsoleFrame } from './features/shell/components/console-frame.tsx';
import { type PageNavigation, PageNavigationProvider } from './lib/page-navigation.tsx';
import { SignInScreen } from './routes/-sign-in.tsx';

/*
 * A visit that starts on the sign-in page draws it without the router, whose code and route tree are
 * a fifth of the page's weight; the router loads on the first move to another page
 * (docs/decisions/030-sign-in-without-the-router.md). index.html's script decides which visits do.
 */

export function startsOnSignIn(): boolean {
  return document.documentElement.hasAttribute(SIGN_IN_START_ATTRIBUTE);
}

/**
 * Puts the sign-in page's address in the address bar, as the router's redirects would have (the
 * base and the bare sign-in address lead on to the accounts list, a secure page back to itself), and
 * answers the page's state. A sign-in address with a state keeps it.
 */
export function enterSignInPage(): string {
  const { pathname, search, hash } = window.location;
  const page = pathname.slice(CONSOLE_BASE_PATH.length + 1).split('/')[0];
  const loginPage = LOGIN_PATH.slice(CONSOLE_BASE_PATH.length + 1);
  const given = page === loginPage ? new URLSearchParams(search).get('state') : null;
  if (given) return given;
  const returnPath = page === '' || page === loginPage ? ACCOUNTS_LIST_PATH : `${pathname}${search}${hash}`;
  const state = encodeSignInState({ return_path: returnPath });
  window.history.replaceState(null, '', `${LOGIN_PATH}?${new URLSearchParams({ state })}`);
  return state;
}

interface SignInStartProps {
  encodedState: string;
  /** main.tsx's: the first move loads the router and hands the page to it. */
  navigation: PageNavigation;
}

/** The sign-in page in the frame the router's root would give it. */
export function SignInStart({ encodedState, navigation }: SignInStartProps) {
  useLayoutEffect(removeStartStandIns, []);
  return (
    <PageNavigationProvider value={navigation}>
      <ConsoleFrame>
        <SignInScreen encodedState={encodedState} />
      </ConsoleFrame>
    </PageNavigationProvider>
  );
}
