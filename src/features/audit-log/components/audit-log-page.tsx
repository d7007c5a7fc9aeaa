import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { AUDIT_RESOURCE_TYPES, AUDIT_STATUSES } from '../../../../contract/audit.ts';
import { apiPaths } from '../../../../contract/paths.ts';
import type { AuditEvent } from '../../../../contract/schemas/audit-log.ts';
import { ALL_ITEMS_LIMIT, PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import type { AuditLogSortColumn, SortOrder } from '../../../../contract/sort-columns.ts';
import { AccountFilterField } from '../../../components/account-filter-field.tsx';
import { CachedDataNotice } from '../../../components/cached-data-notice.tsx';
import { DebouncedTextField } from '../../../components/list/debounced-text-field.tsx';
import { ExportButton } from '../../../components/list/export-button.tsx';
import { ListEmpty } from '../../../components/list/list-empty.tsx';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { SortableHeader } from '../../../components/list/sortable-header.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { useListAddress } from '../../../components/list/use-list-address.ts';
import { TruncatedText } from '../../../components/truncated-text.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { SelectField } from '../../../components/ui/field.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useProfile } from '../../../lib/current-user.ts';
import { AUDIT_LOG_COLUMNS, type AuditLogColumn, useAuditLogColumns } from '../columns.ts';
import {
  AUDIT_FILTER_ACTIONS,
  type AuditLogSearch,
  auditLogFilterQuery,
  auditLogListQuery,
  auditLogSortOf,
} from '../list-search.ts';
import { auditLogListQueryOptions, auditLogUsersQueryOptions } from '../queries.ts';
import {
  AUDIT_ACTION_LABELS,
  AUDIT_RESOURCE_TYPE_LABELS,
  AUDIT_STATUS_LABELS,
  AuditStatusBadge,
  auditTime,
} from './audit-log-labels.tsx';
import './audit-log.css';
import { ListCount } from '../../../components/list/list-count.tsx';
import { PageTitle } from '../../../components/page-title.tsx';

const FILTERS = ['from', 'to', 'action', 'status', 'resource_type', 'user', 'account'] as const;
const NO_FILTERS: Partial<AuditLogSearch> = {
  ...Object.fromEntries(FILTERS.map((filter) => [filter, undefined])),
  page: undefined,
};

/**
 * Reporting › Logging: the audit events the viewer reaches, newest first, filtered by days, action,
 * status, resource type, user and account, 20 a page; the columns the user chose; the filtered log
 * as CSV or JSON Lines. Read from the stored cache while offline.
 */
export function AuditLogPage({ search }: { search: AuditLogSearch }) {
  const { t, i18n } = useLingui();
  const viewer = useProfile();
  const otherAccounts = viewer.access_scope !== 'account';
  const [columns, showColumn] = useAuditLogColumns(viewer.id);
  const list = useQuery(auditLogListQueryOptions(auditLogListQuery(search)));
  const { page, changeFilter, changeSort, changePage } = useListAddress<AuditLogSearch, AuditLogSortColumn>(
    search,
    list.isPlaceholderData ? undefined : list.data?.total,
  );
  const filtered = FILTERS.some((filter) => search[filter] !== undefined);
  const any = { value: '', label: t`All` };
  const rangeError = t`The first day must not be after the last.`;
  const exportQuery = auditLogFilterQuery(search);

  return (
    <section className="page" aria-labelledby="page-title">
      <div className="list-heading">
        <PageTitle>
          <Trans>Logging</Trans>
        </PageTitle>
        <div className="list-heading__actions">
          <ExportButton
            path={apiPaths.auditLog.export}
            query={{ format: 'csv', ...exportQuery }}
            fileName="audit-log"
          />
          <ExportButton
            path={apiPaths.auditLog.export}
            format="jsonl"
            query={{ format: 'jsonl', ...exportQuery }}
            fileName="audit-log"
          />
          {/* The signed heads an auditor keeps apart from the platform, to check exports against. */}
          <ExportButton
            path={apiPaths.auditLog.checkpoints}
            format="json"
            query={{ limit: ALL_ITEMS_LIMIT }}
            fileName="audit-checkpoints"
          >
            <Trans>Download checkpoints</Trans>
          </ExportButton>
        </div>
      </div>
      <CachedDataNotice updatedAt={list.dataUpdatedAt} />
      {/* biome-ignore lint/a11y/useSemanticElements: a form with the search role, as the other lists */}
      <form
        className="list-filters"
        role="search"
        aria-label={t`Filter audit events`}
        onSubmit={(event) => event.preventDefault()}
      >
        <DebouncedTextField
          label={t`From`}
          type="date"
          value={search.from ?? ''}
          validate={(from) =>
            from !== '' && search.to !== undefined && from > search.to ? rangeError : undefined
          }
          onCommit={(from) => changeFilter({ from: from === '' ? undefined : from })}
        />
        <DebouncedTextField
          label={t`To`}
          type="date"
          value={search.to ?? ''}
          validate={(to) =>
            to !== '' && search.from !== undefined && search.from > to ? rangeError : undefined
          }
          onCommit={(to) => changeFilter({ to: to === '' ? undefined : to })}
        />
        <SelectField
          label={t`Action`}
          value={search.action ?? ''}
          options={[
            any,
            ...AUDIT_FILTER_ACTIONS.map((action) => ({
              value: action,
              label: i18n._(AUDIT_ACTION_LABELS[action]),
            })),
          ]}
          onChange={(event) =>
            changeFilter({ action: AUDIT_FILTER_ACTIONS.find((action) => action === event.target.value) })
          }
        />
        <SelectField
          label={t`Status`}
          value={search.status ?? ''}
          options={[
            any,
            ...AUDIT_STATUSES.map((status) => ({
              value: status,
              label: i18n._(AUDIT_STATUS_LABELS[status]),
            })),
          ]}
          onChange={(event) =>
            changeFilter({ status: AUDIT_STATUSES.find((status) => status === event.target.value) })
          }
        />
        <SelectField
          label={t`Resource type`}
          value={search.resource_type ?? ''}
          options={[
            any,
            ...AUDIT_RESOURCE_TYPES.map((type) => ({
              value: type,
              label: i18n._(AUDIT_RESOURCE_TYPE_LABELS[type]),
            })),
          ]}
          onChange={(event) =>
            changeFilter({ resource_type: AUDIT_RESOURCE_TYPES.find((type) => type === event.target.value) })
          }
        />
        <UserFilterField
          accountId={search.account}
          value={search.user}
          onChange={(user) => changeFilter({ user })}
        />
        {otherAccounts ? (
          <AccountFilterField
            value={search.account}
            onChange={(account) => changeFilter({ account, user: undefined })}
            includeInactive
          />
        ) : null}
      </form>
      <ColumnChooser columns={columns} onShowColumn={showColumn} />
      <p role="status" className="audit-log__count">
        {list.data ? (
          <ListCount list={list.data}>
            <Plural value={list.data.total} _0="No events" one="# event" other="# events" />
          </ListCount>
        ) : null}
      </p>
      <QueryStatus
        query={list}
        pendingText={<Trans>Loading audit events…</Trans>}
        empty={{
          when: ({ total }) => total === 0,
          content: (
            <ListEmpty
              filtered={filtered}
              noMatch={<Trans>No audit events match these filters.</Trans>}
              none={<Trans>There are no audit events you can see.</Trans>}
              onResetFilters={() => changeFilter(NO_FILTERS)}
            />
          ),
        }}
      >
        {({ items, total, total_is_lower_bound }) => (
          <>
            <AuditLogTable
              rows={items}
              columns={columns}
              sort={auditLogSortOf(search)}
              onSortChange={changeSort}
              busy={list.isPlaceholderData}
            />
            <Pagination
              count={total}
              countIsLowerBound={total_is_lower_bound}
              pageSize={PAGE_SIZE}
              page={page}
              onPageChange={changePage}
            />
          </>
        )}
      </QueryStatus>
    </section>
  );
}

/** The acting user: the users of the chosen account, or of every account the viewer reaches. */
function UserFilterField({
  accountId,
  value,
  onChange,
}: {
  accountId: string | undefined;
  value: string | undefined;
  onChange: (userId: string | undefined) => void;
}) {
  const { t } = useLingui();
  const users = useQuery(auditLogUsersQueryOptions(accountId));
  // A user named by the address (from an event's page) stays chosen while the users load or when the
  // viewer may not list users.
  const chosen =
    value && !users.data?.items.some((user) => user.id === value) ? [{ value, label: t`Chosen user` }] : [];
  return (
    <SelectField
      label={t`User`}
      value={value ?? ''}
      options={[
        { value: '', label: t`All` },
        ...chosen,
        ...(users.data?.items.map((user) => ({
          value: user.id,
          label: `${user.first_name} ${user.last_name} (${user.user_name})`,
        })) ?? []),
      ]}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}

function ColumnChooser({
  columns,
  onShowColumn,
}: {
  columns: readonly AuditLogColumn[];
  onShowColumn: (column: AuditLogColumn, shown: boolean) => void;
}) {
  const labels = useColumnLabels();
  return (
    <details className="audit-log__columns">
      <summary>
        <Trans>Columns</Trans>
      </summary>
      <fieldset>
        <legend className="visually-hidden">
          <Trans>Columns to show</Trans>
        </legend>
        {AUDIT_LOG_COLUMNS.map((column) => (
          <Checkbox
            key={column}
            checked={columns.includes(column)}
            onCheckedChange={(shown) => onShowColumn(column, shown)}
          >
            {labels[column]}
          </Checkbox>
        ))}
      </fieldset>
    </details>
  );
}

function useColumnLabels(): Record<AuditLogColumn, ReactNode> {
  return {
    action: <Trans>Action</Trans>,
    status: <Trans>Status</Trans>,
    resource: <Trans>Resource</Trans>,
    user: <Trans>User</Trans>,
    account: <Trans>Account</Trans>,
    address: <Trans>Client address</Trans>,
  };
}

interface TableProps {
  rows: readonly AuditEvent[];
  columns: readonly AuditLogColumn[];
  sort: SortOrder<AuditLogSortColumn>;
  onSortChange: (sort: SortOrder<AuditLogSortColumn>) => void;
  busy: boolean;
}

function AuditLogTable({ rows, columns, sort, onSortChange, busy }: TableProps) {
  const { t, i18n } = useLingui();
  const labels = useColumnLabels();
  const cells: Record<AuditLogColumn, (row: AuditEvent) => ReactNode> = {
    action: (row) => i18n._(AUDIT_ACTION_LABELS[row.action]),
    status: (row) => <AuditStatusBadge status={row.status} />,
    resource: (row) => (
      <>
        {i18n._(AUDIT_RESOURCE_TYPE_LABELS[row.resource_type])}
        {row.resource_id ? (
          <span className="audit-log__secondary">
            <TruncatedText text={row.resource_id} />
          </span>
        ) : null}
      </>
    ),
    user: (row) => <TruncatedText text={row.actor_name ?? t`Nobody signed in`} />,
    account: (row) => <TruncatedText text={row.account_name ?? row.account_id ?? t`None`} />,
    address: (row) => row.ip_address ?? t`Unknown`,
  };
  const shown = AUDIT_LOG_COLUMNS.filter((column) => columns.includes(column));
  return (
    <TableFrame label={t`Audit events table`}>
      <table className="list-table audit-log-table" aria-busy={busy || undefined}>
        <caption className="visually-hidden">
          <Trans>Audit events</Trans>
        </caption>
        <thead>
          <tr>
            <SortableHeader column="timestamp" sort={sort} onSortChange={onSortChange}>
              <Trans>Time</Trans>
            </SortableHeader>
            {shown.map((column) => (
              <th key={column} scope="col">
                {labels[column]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">
                <Link to="/reporting/logging/$id" params={{ id: row.id }}>
                  <time dateTime={row.occurred_at}>{auditTime(row.occurred_at)}</time>
                </Link>
              </th>
              {shown.map((column) => (
                <td key={column}>{cells[column](row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </TableFrame>
  );
}
