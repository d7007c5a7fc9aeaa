import { createFileRoute } from '@tanstack/react-router';
import { AccountCreatePage } from '../../../features/accounts/components/account-create-page.tsx';

/** A static segment: the router matches it before `$id`, so it is never read as an account id. */
export const Route = createFileRoute('/_secure/accounts/create-account')({
  component: () => <AccountCreatePage type="standard" />,
});
