import { Outlet } from '@tanstack/react-router';
import { PageNavigationProvider } from '../../../lib/page-navigation.tsx';
import { useRouterPageNavigation } from '../../../lib/router-page-navigation.ts';
import { ConsoleFrame } from './console-frame.tsx';

export function RootLayout() {
  return (
    <PageNavigationProvider value={useRouterPageNavigation()}>
      <ConsoleFrame>
        <Outlet />
      </ConsoleFrame>
    </PageNavigationProvider>
  );
}
