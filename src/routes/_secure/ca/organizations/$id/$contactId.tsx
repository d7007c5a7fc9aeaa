import { createFileRoute } from '@tanstack/react-router';
import { RequirePermissions } from '../../../../../components/require-permissions.tsx';
import { ORGANIZATION_READ_FLAGS } from '../../../../../features/organizations/access.ts';
import { ContactDetailPage } from '../../../../../features/organizations/components/contact-detail-page.tsx';
import { OrganizationsErrorPage } from '../../../../../features/organizations/components/organizations-error-page.tsx';
import {
  contactQueryOptions,
  organizationQueryOptions,
} from '../../../../../features/organizations/queries.ts';

export const Route = createFileRoute('/_secure/ca/organizations/$id/$contactId')({
  loader: ({ context: { screenData }, params }) =>
    Promise.all([
      screenData.load(organizationQueryOptions(params.id)),
      screenData.load(contactQueryOptions(params.id, params.contactId)),
    ]),
  errorComponent: OrganizationsErrorPage,
  component: function ContactRoute() {
    const { id, contactId } = Route.useParams();
    return (
      <RequirePermissions flags={[]} anyOf={ORGANIZATION_READ_FLAGS}>
        <ContactDetailPage organizationId={id} contactId={contactId} />
      </RequirePermissions>
    );
  },
});
