import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Organization } from '../../../../contract/schemas/organizations.ts';
import { useCountryName } from '../../../components/country-select.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SectionCard, SectionEmpty } from '../../../components/section-card.tsx';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { organizationListQuery } from '../list-search.ts';
import { organizationListQueryOptions } from '../queries.ts';

function OrganizationCard({ organization, canEdit }: { organization: Organization; canEdit: boolean }) {
  const { t } = useLingui();
  const countryName = useCountryName();
  const name = organization.name;
  const notGiven = t`Not given`;
  const address = [organization.address, organization.address2].filter(Boolean).join(', ');
  const rows = [
    { key: 'address', label: <Trans>Address</Trans>, value: address },
    { key: 'city', label: <Trans>City</Trans>, value: organization.city },
    { key: 'state', label: <Trans>State</Trans>, value: organization.state },
    { key: 'zip', label: <Trans>Zip code</Trans>, value: organization.zip_code },
    {
      key: 'country',
      label: <Trans>Country</Trans>,
      value: countryName(organization.country),
    },
    { key: 'phone', label: <Trans>Phone</Trans>, value: organization.phone },
  ];
  return (
    <SectionCard titleId={`organization-${organization.id}`} title={organization.name}>
      <dl className="details">
        {rows.map((row) => (
          <div key={row.key} className="details__row">
            <dt>{row.label}</dt>
            <dd>{row.value || <span className="account-card__not-given">{notGiven}</span>}</dd>
          </div>
        ))}
      </dl>
      {canEdit ? (
        <Link to="/ca/organizations/$id/edit" params={{ id: organization.id }}>
          <Trans>
            Edit <span className="visually-hidden">{name}</span>
          </Trans>
        </Link>
      ) : null}
    </SectionCard>
  );
}

/** The first page of the account's organizations, by name: the same query as the list's first page. */
function OrganizationCards({ accountId, canEdit }: { accountId: string; canEdit: boolean }) {
  const query = useQuery(organizationListQueryOptions(organizationListQuery({}, accountId)));
  return (
    <QueryStatus
      query={query}
      pendingText={<Trans>Loading organizations…</Trans>}
      empty={{
        when: ({ items }) => items.length === 0,
        content: (
          <SectionEmpty>
            <Trans>This account has no organizations.</Trans>
          </SectionEmpty>
        ),
      }}
    >
      {({ items, total }) => {
        const shown = items.length;
        return (
          <>
            <div className="account-cards">
              {items.map((organization) => (
                <OrganizationCard key={organization.id} organization={organization} canEdit={canEdit} />
              ))}
            </div>
            {total > shown ? (
              <p>
                <Trans>
                  Showing {shown} of {total} organizations.
                </Trans>
              </p>
            ) : null}
          </>
        );
      }}
    </QueryStatus>
  );
}

/**
 * The account's organizations as cards, with the ways into the organization screens (G-18 … G-20).
 * The account details route hands it to the details page, so the accounts feature needs nothing of
 * this one (decision 002).
 */
export function AccountOrganizations({ accountId }: { accountId: string }) {
  const flags = usePermissionFlags();
  const canView = flags.canViewOrganization || flags.canManageOrganization;
  return (
    <>
      {canView ? (
        <OrganizationCards accountId={accountId} canEdit={flags.canManageOrganization} />
      ) : (
        <SectionEmpty>
          <Trans>Your roles do not allow you to view organizations.</Trans>
        </SectionEmpty>
      )}
      {flags.canManageOrganization || flags.canViewOrganization ? (
        <div className="account-section__actions">
          {flags.canManageOrganization ? (
            <Link to="/ca/organizations/create" search={{ accountId }} className="button button--secondary">
              <Trans>Create organization</Trans>
            </Link>
          ) : null}
          {flags.canViewOrganization ? (
            <Link to="/ca/organizations" search={{ accountId }} className="button button--secondary">
              <Trans>Manage organizations</Trans>
            </Link>
          ) : null}
        </div>
      ) : null}
    </>
  );
}
