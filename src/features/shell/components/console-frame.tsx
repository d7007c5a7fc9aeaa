import { useLingui } from '@lingui/react/macro';
import { lazy, type ReactNode, Suspense } from 'react';
import { useUpdateWaiting } from '../../../lib/offline/support.ts';

// The toast machinery is the heaviest part of the shell and no first screen needs it: it loads after.
const ToastRegion = lazy(() =>
  import('../../../components/ui/toast.tsx').then(({ ToastRegion }) => ({ default: ToastRegion })),
);

// Loaded only once a new build waits.
const UpdateBanner = lazy(() =>
  import('../../../components/update-banner.tsx').then(({ UpdateBanner }) => ({ default: UpdateBanner })),
);

/**
 * What surrounds every page, with the router (`RootLayout`) or before it (main.tsx's sign-in start):
 * the banner of a waiting build and the notifications.
 */
export function ConsoleFrame({ children }: { children: ReactNode }) {
  const { t } = useLingui();
  const updateWaiting = useUpdateWaiting();
  return (
    <>
      {updateWaiting ? (
        <Suspense fallback={null}>
          <UpdateBanner />
        </Suspense>
      ) : null}
      {children}
      <Suspense fallback={null}>
        <ToastRegion regionLabel={t`Notifications (Alt+T)`} dismissLabel={t`Dismiss notification`} />
      </Suspense>
    </>
  );
}
