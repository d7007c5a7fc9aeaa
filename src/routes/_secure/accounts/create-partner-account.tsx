import { createFileRoute } from '@tanstack/react-router';
import { AccountCreatePage } from '../../../features/accounts/components/account-create-page.tsx';

export const Route = createFileRoute('/_secure/accounts/create-partner-account')({
  component: () => <AccountCreatePage type="partner" />,
});
