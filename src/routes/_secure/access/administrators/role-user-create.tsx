import { createFileRoute } from '@tanstack/react-router';
import { AdministratorCreatePage } from '../../../../features/users/components/administrator-create-page.tsx';
import { AdministratorsErrorPage } from '../../../../features/users/components/administrators-error-page.tsx';

/** Create administrator; `/create` and `/role-user-create` are the same page (decision 039 §3). */
export const Route = createFileRoute('/_secure/access/administrators/role-user-create')({
  errorComponent: AdministratorsErrorPage,
  component: AdministratorCreatePage,
});
