import { Trans, useLingui } from '@lingui/react/macro';
import { useSuspenseQuery } from '@tanstack/react-query';
import { Outlet, useLocation } from '@tanstack/react-router';
import { useEffect, useMemo, useRef } from 'react';
import { permissionFlagsFrom } from '../../../../contract/permissions.ts';
import {
  permissionsQueryOptions,
  switchableAccountsOf,
  useActiveAccountId,
  useProfile,
} from '../../../lib/current-user.ts';
import { DocumentTitlePlace } from '../../../lib/document-title.ts';
import { useFeatureFlags } from '../../../lib/feature-flags.ts';
import { PermissionFlagsProvider } from '../../../lib/permissions.tsx';
import { navigationItems } from '../navigation.ts';
import { AccountExpiryBanner } from './account-expiry-banner.tsx';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { Header } from './header.tsx';
import { MainNavigation } from './main-navigation.tsx';

/**
 * After an in-app navigation, focus moves to the main region so keyboard and screen-reader users
 * start at the new page instead of the link they used.
 */
function useFocusMainOnNavigation() {
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    mainRef.current?.focus();
  }, [pathname]);
  return mainRef;
}

/** Header, navigation, breadcrumbs and the permission flags of every secure page (C-01). */
export function AppShell() {
  const profile = useProfile();
  const activeAccountId = useActiveAccountId();
  const { data: permissionNames } = useSuspenseQuery(
    permissionsQueryOptions(profile.access_scope, activeAccountId),
  );
  const flags = useMemo(() => permissionFlagsFrom(permissionNames), [permissionNames]);
  const featureFlags = useFeatureFlags();
  const items = navigationItems({
    flags,
    scope: profile.access_scope,
    profile,
    rolesFeatureEnabled: featureFlags.roles,
  });
  const mainRef = useFocusMainOnNavigation();
  const { t } = useLingui();

  const accountName = switchableAccountsOf(profile).find(
    (account) => account.id === activeAccountId,
  )?.display_name;
  return (
    <DocumentTitlePlace value={accountName ?? null}>
      <PermissionFlagsProvider flags={flags}>
        {/* A button, not a #fragment link: the URL hash holds the form step on multi-step pages. */}
        <button type="button" className="skip-link" onClick={() => mainRef.current?.focus()}>
          <Trans>Skip to content</Trans>
        </button>
        <Header profile={profile} activeAccountId={activeAccountId} />
        <div className="shell">
          <aside className="shell__sidebar" aria-label={t`Sections`}>
            <MainNavigation items={items} />
          </aside>
          <main id="main-content" className="shell__main" tabIndex={-1} ref={mainRef}>
            <AccountExpiryBanner profile={profile} />
            <Breadcrumbs />
            <Outlet />
          </main>
        </div>
      </PermissionFlagsProvider>
    </DocumentTitlePlace>
  );
}
