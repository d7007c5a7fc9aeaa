import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useMemo } from 'react';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { Organization } from '../../../../contract/schemas/organizations.ts';
import { Button } from '../../../components/ui/button.tsx';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import { organizationListQueryOptions } from '../../organizations/queries.ts';
import { intlLocaleOf } from './account-details-model.ts';
import { SectionCard, SectionEmpty } from './account-details-sections.tsx';

function useCountryName(): (code: string) => string {
  const { i18n } = useLingui();
  return useMemo(() => {
    const names = new Intl.DisplayNames([intlLocaleOf(i18n.locale)], { type: 'region', fallback: 'code' });
    return (code: string) => {
      try {
        return names.of(code) ?? code;
      } catch {
        // A code Intl does not accept (not two letters) is still worth showing as stored.
        return code;
      }
    };
  }, [i18n.locale]);
}

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
      value: organization.country ? countryName(organization.country) : '',
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

function OrganizationCards({ accountId, canEdit }: { accountId: string; canEdit: boolean }) {
  const query = useQuery(
    organizationListQueryOptions({ accountId, limit: String(PAGE_SIZE), sort: 'name:asc' }),
  );
  if (query.isPending) {
    return (
      <p role="status">
        <Trans>Loading organizations…</Trans>
      </p>
    );
  }
  if (query.isError) {
    return (
      <div className="account-section__error" role="alert">
        <p>
          <Trans>The organizations of this account could not be loaded.</Trans>
        </p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          <Trans>Try again</Trans>
        </Button>
      </div>
    );
  }
  const { items, total } = query.data;
  const shown = items.length;
  if (items.length === 0) {
    return (
      <SectionEmpty>
        <Trans>This account has no organizations.</Trans>
      </SectionEmpty>
    );
  }
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
}

/** The account's organizations as cards, with the ways into the organization screens (G-18 … G-20). */
export function OrganizationsSection({ accountId }: { accountId: string }) {
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
