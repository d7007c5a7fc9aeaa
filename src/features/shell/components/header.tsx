import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useNavigate } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import { type ConsoleLocale, isPlatformLocale } from '../../../../contract/locales.ts';
import { ACCOUNTS_LIST_PATH } from '../../../../contract/paths.ts';
import { encodeSignInState } from '../../../../contract/schemas/identity.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { Menu } from '../../../components/ui/menu.tsx';
import { fullNameOf, switchableAccountsOf } from '../../../lib/current-user.ts';
import { platformLocaleFor } from '../../../lib/i18n.ts';
import { languageChoices, platformLocales } from '../../../lib/locales.ts';
import { useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { usePublicResource } from '../../../lib/public-data.ts';
import { useSession } from '../../../lib/session.ts';
import { chooseTheme, storedTheme, THEME_PREFERENCES, type ThemePreference } from '../../../lib/theme.ts';
import { useAccountSwitcherMode, useSwitchAccount } from '../account-switcher.ts';
import { useChangeLanguage, useSignOut } from '../mutations.ts';
import { OutboxIndicator } from './outbox-indicator.tsx';
import { SignOutDialog } from './sign-out-dialog.tsx';

const THEME_LABELS = {
  system: msg`System`,
  light: msg`Light`,
  dark: msg`Dark`,
} as const;

// Only viewers who reach more than 50 accounts need the search; everyone else never loads it.
const AccountSearch = lazy(() =>
  import('./account-search.tsx').then(({ AccountSearch }) => ({ default: AccountSearch })),
);

/** The account the console works in, and the way to another one. */
function AccountSwitcher({ profile, activeAccountId }: { profile: Profile; activeAccountId: string }) {
  const { t } = useLingui();
  const mode = useAccountSwitcherMode(profile);
  const switchAccount = useSwitchAccount(profile.id);
  const active = switchableAccountsOf(profile).find((account) => account.id === activeAccountId);
  const activeName = active ? (
    <span className="header__account">
      <TruncatedText text={active.display_name} />
    </span>
  ) : null;

  if (mode.kind === 'search') {
    return (
      <div className="account-switcher">
        {activeName}
        <Suspense fallback={null}>
          <AccountSearch
            key={activeAccountId}
            userId={profile.id}
            activeAccountId={activeAccountId}
            onSelect={switchAccount}
          />
        </Suspense>
      </div>
    );
  }
  const { accounts } = mode;
  if (accounts.length < 2) return activeName;
  return (
    <Menu
      trigger={<TruncatedText text={active?.display_name ?? t`Choose account`} />}
      triggerLabel={active ? t`Account: ${active.display_name}. Switch account` : undefined}
      sections={[
        {
          id: 'accounts',
          label: t`Switch account`,
          entries: accounts.map((account) => ({
            value: account.id,
            label: account.display_name,
            checked: account.id === activeAccountId,
          })),
        },
      ]}
      onSelect={(accountId) => {
        const account = accounts.find((candidate) => candidate.id === accountId);
        if (account) switchAccount(account);
      }}
    />
  );
}

function ThemeMenu() {
  const { t, i18n } = useLingui();
  const [theme, setTheme] = useState<ThemePreference>(storedTheme);
  const themeName = i18n._(THEME_LABELS[theme]);
  return (
    <Menu
      trigger={<Trans>Theme</Trans>}
      triggerLabel={t`Theme: ${themeName}`}
      sections={[
        {
          id: 'theme',
          entries: THEME_PREFERENCES.map((option) => ({
            value: option,
            label: i18n._(THEME_LABELS[option]),
            checked: option === theme,
          })),
        },
      ]}
      onSelect={(value) => {
        const chosen = THEME_PREFERENCES.find((option) => option === value);
        if (!chosen) return;
        chooseTheme(chosen);
        setTheme(chosen);
      }}
    />
  );
}

const LANGUAGE_VALUE_PREFIX = 'language:';

function UserMenu({ profile }: { profile: Profile }) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const changeLanguage = useChangeLanguage(profile.id);
  const session = useSession();
  const signOut = useSignOut();
  const waiting = useOutboxEntries().length;
  const [askingToKeep, setAskingToKeep] = useState(false);
  const { data: locales } = usePublicResource(platformLocales);
  const currentCode = platformLocaleFor(i18n.locale as ConsoleLocale);

  const signOutWith = (keepOutbox: boolean) => {
    if (signOut.isPending) return;
    setAskingToKeep(false);
    signOut.mutate(
      { keepOutbox },
      {
        onSettled: async () => {
          await navigate({
            to: '/login',
            search: { state: encodeSignInState({ return_path: ACCOUNTS_LIST_PATH }) },
          });
          await session.end();
        },
      },
    );
  };

  const select = (value: string) => {
    if (value === 'profile') void navigate({ to: '/profile' });
    else if (value === 'sign-out') {
      // Changes still waiting: the user decides whether they stay for the next sign-in.
      if (waiting > 0) setAskingToKeep(true);
      else signOutWith(true);
    } else if (value.startsWith(LANGUAGE_VALUE_PREFIX)) {
      const code = value.slice(LANGUAGE_VALUE_PREFIX.length);
      if (isPlatformLocale(code) && code !== currentCode) changeLanguage.mutate(code);
    }
  };

  return (
    <>
      <Menu
        trigger={<TruncatedText text={fullNameOf(profile)} />}
        sections={[
          { id: 'profile', entries: [{ value: 'profile', label: t`Profile` }] },
          {
            id: 'language',
            label: t`Language`,
            entries: languageChoices(locales?.items).map((choice) => ({
              value: `${LANGUAGE_VALUE_PREFIX}${choice.code}`,
              label: choice.name,
              lang: choice.lang,
              checked: choice.code === currentCode,
            })),
          },
          { id: 'session', entries: [{ value: 'sign-out', label: t`Sign out` }] },
        ]}
        onSelect={select}
      />
      <SignOutDialog
        open={askingToKeep}
        onOpenChange={setAskingToKeep}
        waiting={waiting}
        pending={signOut.isPending}
        onSignOut={signOutWith}
      />
    </>
  );
}

interface HeaderProps {
  profile: Profile;
  activeAccountId: string;
}

export function Header({ profile, activeAccountId }: HeaderProps) {
  return (
    <header className="header">
      <span className="header__product">
        <img src={`${import.meta.env.BASE_URL}icon.svg`} alt="" width={28} height={28} />
        <Trans>Trust Console</Trans>
      </span>
      <div className="header__tools">
        <AccountSwitcher profile={profile} activeAccountId={activeAccountId} />
        <OutboxIndicator />
        <ThemeMenu />
        <UserMenu profile={profile} />
      </div>
    </header>
  );
}
