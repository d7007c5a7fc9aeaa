import { createFileRoute, redirect } from '@tanstack/react-router';

/** Access has no page of its own; it opens on administrators (overview §2). */
export const Route = createFileRoute('/_secure/access/')({
  beforeLoad: () => {
    throw redirect({ to: '/access/administrators', replace: true });
  },
});
