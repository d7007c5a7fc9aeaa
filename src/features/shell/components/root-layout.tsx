import { useLingui } from '@lingui/react/macro';
import { Outlet } from '@tanstack/react-router';
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { isUpdateWaiting, subscribeToUpdate } from '../../../lib/service-worker.ts';

// The toast machinery is the heaviest part of the shell and no first screen needs it: it loads after.
const ToastRegion = lazy(() =>
  import('../../../components/ui/toast.tsx').then(({ ToastRegion }) => ({ default: ToastRegion })),
);

// Loaded only once a new build waits.
const UpdateBanner = lazy(() =>
  import('../../../components/update-banner.tsx').then(({ UpdateBanner }) => ({ default: UpdateBanner })),
);

export function RootLayout() {
  const { t } = useLingui();
  const updateWaiting = useSyncExternalStore(subscribeToUpdate, isUpdateWaiting, () => false);
  return (
    <>
      {updateWaiting ? (
        <Suspense fallback={null}>
          <UpdateBanner />
        </Suspense>
      ) : null}
      <Outlet />
      <Suspense fallback={null}>
        <ToastRegion dismissLabel={t`Dismiss notification`} />
      </Suspense>
    </>
  );
}
