import { createFileRoute, redirect } from '@tanstack/react-router';

/** The base path leads to the accounts list (overview §2). */
export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: '/accounts', replace: true });
  },
});
