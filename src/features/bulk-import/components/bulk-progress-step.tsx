import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import { BULK_JOB_ACTIVE_STATES, type BulkJob } from '../../../../contract/schemas/bulk-import.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Progress } from '../../../components/ui/progress.tsx';
import { downloadFromApi } from '../../../lib/download.ts';
import { useCancelBulkJob } from '../mutations.ts';

function ReportButton({ job }: { job: BulkJob }) {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadFromApi(apiPaths.users.bulkReport(job.id), {
        accept: 'text/csv',
        fallbackFileName: 'bulk-users-report.csv',
      });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <NeedsConnection>
        {(gate) => (
          <Button onClick={download} busy={busy} {...gate.controlProps}>
            <Trans>Download report</Trans>
          </Button>
        )}
      </NeedsConnection>
      {error ? <ServerErrorAlert error={error} /> : null}
    </>
  );
}

/**
 * Step 3: the job's progress while it runs (the bar, and the counts in a polite live region), Cancel,
 * then the summary with the report and the way back to the administrators.
 */
export function BulkProgressStep({ job }: { job: BulkJob }) {
  const { t } = useLingui();
  const cancel = useCancelBulkJob();
  const active = BULK_JOB_ACTIVE_STATES.includes(job.state);
  const { valid, processed, created, failed, cancelled } = job;
  const reached = Math.min(processed + cancelled, valid);

  return (
    <div className="bulk-progress">
      <Progress
        label={<Trans>Creating users</Trans>}
        value={reached}
        max={valid}
        valueText={t`${reached} of ${valid} rows`}
      />
      <p className="bulk-progress__counts" role="status" aria-live="polite">
        {job.state === 'finished' ? (
          <Trans>
            Finished: {created} created, {failed} failed.
          </Trans>
        ) : job.state === 'cancelled' ? (
          <Trans>
            Cancelled: {created} created, {failed} failed, {cancelled} not created.
          </Trans>
        ) : job.state === 'cancelling' ? (
          <Trans>
            Stopping: {created} created, {failed} failed so far.
          </Trans>
        ) : (
          <Trans>
            {processed} of {valid} processed: {created} created, {failed} failed.
          </Trans>
        )}
      </p>
      {cancel.isError ? <ServerErrorAlert error={cancel.error} /> : null}
      <div className="form__actions">
        {active ? (
          <NeedsConnection>
            {(gate) => (
              <Button
                variant="secondary"
                busy={cancel.isPending}
                disabled={job.state === 'cancelling'}
                onClick={() => cancel.mutate(job.id)}
                {...gate.controlProps}
              >
                <Trans>Cancel</Trans>
              </Button>
            )}
          </NeedsConnection>
        ) : (
          <>
            <ReportButton job={job} />
            <Link to="/access/administrators" className="button button--secondary">
              <Trans>Go to administrators</Trans>
            </Link>
          </>
        )}
      </div>
      {!active && failed + job.invalid > 0 ? (
        <p className="field__hint">
          <Trans>The report lists every row with its outcome and the reasons a row was not created.</Trans>
        </p>
      ) : null}
    </div>
  );
}
