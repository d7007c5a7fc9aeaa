import { createFileRoute } from '@tanstack/react-router';
import { AccountExpiredPage } from '../features/welcome/components/account-expired-page.tsx';

export const Route = createFileRoute('/accountExpiredError')({
  component: AccountExpiredPage,
});
