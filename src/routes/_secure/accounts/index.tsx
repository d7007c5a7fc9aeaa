import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../components/require-permissions.tsx';
import { AccountsPage } from '../../../features/accounts/components/accounts-page.tsx';

export const Route = createFileRoute('/_secure/accounts/')({
  component: () => (
    <RequirePermissions flags={['canViewAccount']}>
      <AccountsPage />
    </RequirePermissions>
  ),
});
