import { createFileRoute } from '@tanstack/react-router';
import { AccountExpiredPage } from '../features/welcome/components/account-expired-page.tsx';
import { loadAreaCatalog } from '../lib/i18n.ts';

export const Route = createFileRoute('/accountExpiredError')({
  loader: () => loadAreaCatalog('public-pages'),
  component: AccountExpiredPage,
});
