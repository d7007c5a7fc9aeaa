import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { BulkJob, BulkRow } from '../../../../contract/schemas/bulk-import.ts';
import { PAGE_SIZE } from '../../../../contract/schemas/common.ts';
import { QueryStatus } from '../../../components/list/query-status.tsx';
import { TableFrame } from '../../../components/list/table-frame.tsx';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { useStartBulkJob } from '../mutations.ts';
import { bulkRowsQueryOptions } from '../queries.ts';
import { rowReasonText } from '../reasons.ts';
import type { BulkSearch } from '../search.ts';
import type { BulkNavigate } from './bulk-user-create-page.tsx';

function RowStatus({ row }: { row: BulkRow }) {
  const { i18n } = useLingui();
  if (row.status === 'valid') {
    return (
      <span className="bulk-row__status bulk-row__status--valid">
        <Trans>Valid</Trans>
      </span>
    );
  }
  return (
    <>
      <span className="bulk-row__status bulk-row__status--invalid">
        <Trans>Invalid</Trans>
      </span>
      <ul className="bulk-row__reasons">
        {row.errors.map((error) => (
          <li key={`${error.column}-${error.code}`}>{rowReasonText(error, i18n)}</li>
        ))}
      </ul>
    </>
  );
}

function RowsTable({ rows }: { rows: readonly BulkRow[] }) {
  const { t } = useLingui();
  return (
    <TableFrame label={t`Rows of the file`}>
      <table className="list-table bulk-rows">
        <thead>
          <tr>
            <th scope="col">
              <Trans>Row</Trans>
            </th>
            <th scope="col">
              <Trans>Username</Trans>
            </th>
            <th scope="col">
              <Trans>Email</Trans>
            </th>
            <th scope="col">
              <Trans>Name</Trans>
            </th>
            <th scope="col">
              <Trans>Check</Trans>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const line = row.line;
            return (
              <tr key={row.row}>
                <th scope="row">
                  {row.row}
                  <span className="bulk-rows__secondary">
                    <Trans>line {line}</Trans>
                  </span>
                </th>
                <td className="bulk-rows__text">{row.cells.user_name ?? ''}</td>
                <td className="bulk-rows__text">{row.cells.email ?? ''}</td>
                <td className="bulk-rows__text">
                  {row.cells.first_name ?? ''} {row.cells.last_name ?? ''}
                </td>
                <td>
                  <RowStatus row={row} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableFrame>
  );
}

/**
 * Step 2: what the dry run found. The counts, the rows (all or the invalid ones) with each reason by
 * column, and "Create n users", which skips the invalid rows and says so.
 */
export function BulkCheckStep({
  job,
  search,
  navigate,
}: {
  job: BulkJob;
  search: BulkSearch;
  navigate: BulkNavigate;
}) {
  const { t } = useLingui();
  const status = search.rows === 'invalid' ? 'invalid' : undefined;
  const page = search.page ?? 1;
  const rows = useQuery(bulkRowsQueryOptions(job.id, status, page));
  const start = useStartBulkJob();
  const { total, valid, invalid } = job;
  const fileName = job.file_name;

  const startJob = async () => {
    try {
      await start.mutateAsync({ jobId: job.id, sendInvitations: search.invitations !== 'off' });
      navigate({ ...search, rows: undefined, page: undefined }, 3);
    } catch {
      // Shown below.
    }
  };

  return (
    <div className="bulk-check">
      <p className="bulk-check__counts" role="status">
        {fileName ? (
          <Trans>
            {fileName}: {total} rows, {valid} valid, {invalid} invalid.
          </Trans>
        ) : (
          <Trans>
            {total} rows, {valid} valid, {invalid} invalid.
          </Trans>
        )}
      </p>
      <fieldset className="bulk-check__filter">
        <legend className="field__label">
          <Trans>Show</Trans>
        </legend>
        <label className="bulk-file__checkbox">
          <input
            type="radio"
            name="rows"
            checked={status === undefined}
            onChange={() => navigate({ ...search, rows: undefined, page: undefined }, 2, { replace: true })}
          />
          <Trans>All rows</Trans>
        </label>
        <label className="bulk-file__checkbox">
          <input
            type="radio"
            name="rows"
            checked={status === 'invalid'}
            onChange={() => navigate({ ...search, rows: 'invalid', page: undefined }, 2, { replace: true })}
          />
          <Trans>Invalid rows</Trans>
        </label>
      </fieldset>
      <QueryStatus
        query={rows}
        pendingText={<Trans>Loading rows…</Trans>}
        empty={{ when: (data) => data.total === 0, content: <Trans>No row is invalid.</Trans> }}
      >
        {(data) => (
          <>
            <RowsTable rows={data.items} />
            <Pagination
              count={data.total}
              countIsLowerBound={data.total_is_lower_bound}
              pageSize={PAGE_SIZE}
              page={page}
              onPageChange={(next) => navigate({ ...search, page: next }, 2)}
            />
          </>
        )}
      </QueryStatus>
      {invalid > 0 ? (
        <p>
          <Trans>
            Invalid rows are skipped. Correct them in the file and check it again to create them too.
          </Trans>
        </p>
      ) : null}
      {start.isError ? <ServerErrorAlert error={start.error} /> : null}
      <div className="form__actions">
        <NeedsConnection>
          {(gate) => (
            <Button onClick={startJob} busy={start.isPending} disabled={valid === 0} {...gate.controlProps}>
              <Plural value={valid} one="Create # user" other="Create # users" />
            </Button>
          )}
        </NeedsConnection>
        <Button
          variant="secondary"
          onClick={() =>
            navigate({ invitations: search.invitations, job: undefined, rows: undefined, page: undefined }, 1)
          }
        >
          <Trans>Choose another file</Trans>
        </Button>
      </div>
      {valid === 0 ? (
        <p className="field__hint">{t`No row is valid, so there is nothing to create.`}</p>
      ) : null}
    </div>
  );
}
