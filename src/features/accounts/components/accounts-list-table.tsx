import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { OutboxEntryView } from '../../../../contract/outbox.ts';
import { apiPaths } from '../../../../contract/paths.ts';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import {
  type FederationStatus,
  partnerIdentifierOf,
  type TenantSummary,
  type TenantType,
} from '../../../../contract/schemas/tenants.ts';
import type { SortOrder, TenantSortColumn } from '../../../../contract/sort-columns.ts';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { PendingSyncBadge } from '../../../components/pending-sync-badge.tsx';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { formatUserDate, parseCalendarDate } from '../../../lib/dates.ts';
import { isFollowableUrl } from '../../../lib/external-navigation.ts';
import { entriesFor, useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { usePermissionFlags } from '../../../lib/permissions.tsx';
import type { AccountListColumns } from '../list-state.ts';
import { canChangeAccountStatus, canEditAccount, linksToDetails } from '../rules.ts';
import { AccountStatusAction } from './account-status-action.tsx';

const TYPE_LABELS: Readonly<Record<TenantType, MessageDescriptor>> = {
  standard: msg`Standard`,
  partner: msg`Partner`,
  system: msg`System`,
};

const FEDERATION_LABELS: Readonly<Record<FederationStatus, MessageDescriptor>> = {
  linked: msg`Linked`,
  unlinked: msg`Not linked`,
};

interface AccountsListTableProps {
  rows: readonly TenantSummary[];
  profile: Profile;
  columns: AccountListColumns;
  sort: SortOrder<TenantSortColumn>;
  onSortChange: (sort: SortOrder<TenantSortColumn>) => void;
  /** The rows are the previous page's while the next one loads. */
  busy: boolean;
}

export function AccountsListTable({
  rows,
  profile,
  columns,
  sort,
  onSortChange,
  busy,
}: AccountsListTableProps) {
  const { t } = useLingui();
  const permissions = usePermissionFlags();
  const queued = useOutboxEntries();
  const sortable = (column: TenantSortColumn, label: ReactNode) => (
    <SortableHeader column={column} sort={sort} onSortChange={onSortChange}>
      {label}
    </SortableHeader>
  );
  return (
    <TableFrame label={t`Accounts table`}>
      <table className="list-table accounts-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>Accounts</Trans>
        </caption>
        <thead>
          <tr>
            {sortable('name', <Trans>Name</Trans>)}
            {sortable('status', <Trans>Status</Trans>)}
            {sortable('friendly_identifier', <Trans>Friendly identifier</Trans>)}
            {sortable('start_date', <Trans>Start date</Trans>)}
            {sortable('end_date', <Trans>End date</Trans>)}
            {columns.partner ? sortable('type', <Trans>Type</Trans>) : null}
            {columns.partner ? sortable('partner_account_name', <Trans>Partner account</Trans>) : null}
            {columns.federation ? (
              <th scope="col">
                <Trans>Federation status</Trans>
              </th>
            ) : null}
            {columns.federation ? (
              <th scope="col">
                <Trans>Federated account ID</Trans>
              </th>
            ) : null}
            {permissions.canManageAccount ? (
              <th scope="col" className="list-table__action">
                <span className="visually-hidden">
                  <Trans>Actions</Trans>
                </span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <AccountRow
              key={row.id}
              row={row}
              profile={profile}
              columns={columns}
              pending={entriesFor(queued, apiPaths.tenants.byId(row.id))}
            />
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}

/** A dash for an empty cell, read out as a word. */
function NoValue({ label }: { label: string }) {
  return (
    <>
      <span aria-hidden="true">—</span>
      <span className="visually-hidden">{label}</span>
    </>
  );
}

function AccountRow({
  row,
  profile,
  columns,
  pending,
}: {
  row: TenantSummary;
  profile: Profile;
  columns: AccountListColumns;
  /** Queued changes of this account not on the server yet. */
  pending: readonly OutboxEntryView[];
}) {
  const { t, i18n } = useLingui();
  const permissions = usePermissionFlags();
  const date = (value: string | null, none: string) => {
    const parsed = parseCalendarDate(value);
    return parsed ? formatUserDate(parsed, profile.date_format, i18n.locale) : <NoValue label={none} />;
  };
  return (
    <tr>
      <th scope="row" className="accounts-table__name">
        {linksToDetails(profile, row) ? (
          <Link to="/accounts/$id" params={{ id: row.id }}>
            <TruncatedText text={row.name} />
          </Link>
        ) : (
          <TruncatedText text={row.name} />
        )}
        <PendingSyncBadge entries={pending} />
      </th>
      <td>
        <span
          className={`accounts-table__status accounts-table__status--${row.active ? 'active' : 'inactive'}`}
        >
          {row.active ? <Trans>Active</Trans> : <Trans>Inactive</Trans>}
        </span>
      </td>
      <td>
        <TruncatedText text={row.friendly_identifier} />
      </td>
      <td>{date(row.service_period.from, t`No start date`)}</td>
      <td>{date(row.service_period.to, t`No end date`)}</td>
      {columns.partner ? <td>{i18n._(TYPE_LABELS[row.type])}</td> : null}
      {columns.partner ? (
        <td>
          <PartnerAccount name={row.partner_account_name} />
        </td>
      ) : null}
      {columns.federation ? (
        <td>
          {row.federation_status ? (
            i18n._(FEDERATION_LABELS[row.federation_status])
          ) : (
            <NoValue label={t`No federation`} />
          )}
        </td>
      ) : null}
      {columns.federation ? (
        <td>
          {row.federated_account_id !== null ? (
            <TruncatedText text={row.federated_account_id} />
          ) : (
            <NoValue label={t`No federated account`} />
          )}
        </td>
      ) : null}
      {permissions.canManageAccount ? (
        <td className="list-table__action">
          {canEditAccount(profile, permissions, row) ? <EditAccountLink row={row} /> : null}
          {canChangeAccountStatus(profile, permissions, row) ? <AccountStatusAction account={row} /> : null}
        </td>
      ) : null}
    </tr>
  );
}

/** The partner's name and, below it, its identifier: what follows the last hyphen (F-15, F-16). */
function PartnerAccount({ name }: { name: string | null }) {
  if (!name) return <Trans>system</Trans>;
  const identifier = partnerIdentifierOf(name);
  return (
    <>
      <TruncatedText text={name} />
      {identifier !== name ? (
        <span className="accounts-table__secondary">
          <Trans>
            Identifier: <TruncatedText text={identifier} />
          </Trans>
        </span>
      ) : null}
    </>
  );
}

/**
 * Edit account (F-21 … F-24). A linked account is edited in the identity product it is linked to, in
 * a new tab that cannot reach back into the console; an address that is not http(s) is never followed.
 */
function EditAccountLink({ row }: { row: TenantSummary }) {
  const external =
    row.federation_status === 'linked' &&
    row.federated_account_details_url !== null &&
    isFollowableUrl(row.federated_account_details_url)
      ? row.federated_account_details_url
      : null;
  // Every row has this link: the account's name, read out after the visible words, tells them apart.
  const label = (
    <>
      <Trans>Edit account</Trans>
      <span className="visually-hidden"> {row.name}</span>
    </>
  );
  if (external) {
    return (
      <a href={external} target="_blank" rel="noopener noreferrer">
        {label}
        <span className="visually-hidden">
          {' '}
          <Trans>(opens in a new tab)</Trans>
        </span>
        <span aria-hidden="true"> ↗</span>
      </a>
    );
  }
  return (
    <Link to="/accounts/$id/edit" params={{ id: row.id }}>
      {label}
    </Link>
  );
}
