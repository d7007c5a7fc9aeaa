import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { idSearch } from '../../../../components/list/list-search.ts';
import { RequirePermissions } from '../../../../components/require-permissions.tsx';
import { ENROLLMENT_MANAGE_FLAGS } from '../../../../features/enrollments/access.ts';
import { EnrollmentCreatePage } from '../../../../features/enrollments/components/enrollment-create-page.tsx';

/** The account and the person the form starts with, from the account's or the person's page. */
const prefillSchema = v.object({ account: idSearch, user: idSearch });

export const Route = createFileRoute('/_secure/ca/enrollments/create')({
  validateSearch: prefillSchema,
  component: function EnrollmentCreateRoute() {
    return (
      <RequirePermissions flags={ENROLLMENT_MANAGE_FLAGS}>
        <EnrollmentCreatePage prefill={Route.useSearch()} />
      </RequirePermissions>
    );
  },
});
