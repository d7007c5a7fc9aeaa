import { useLingui } from '@lingui/react/macro';
import { Outlet } from '@tanstack/react-router';
import { ToastRegion } from '../../../components/ui/toast.tsx';

export function RootLayout() {
  const { t } = useLingui();
  return (
    <>
      <Outlet />
      <ToastRegion dismissLabel={t`Dismiss notification`} />
    </>
  );
}
