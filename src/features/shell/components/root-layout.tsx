import { useLingui } from '@lingui/react/macro';
import { Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';

// The toast machinery is the heaviest part of the shell and no first screen needs it: it loads after.
const ToastRegion = lazy(() =>
  import('../../../components/ui/toast.tsx').then(({ ToastRegion }) => ({ default: ToastRegion })),
);

export function RootLayout() {
  const { t } = useLingui();
  return (
    <>
      <Outlet />
      <Suspense fallback={null}>
        <ToastRegion dismissLabel={t`Dismiss notification`} />
      </Suspense>
    </>
  );
}
