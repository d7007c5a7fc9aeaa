import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { BulkJob } from '../../../../contract/schemas/bulk-import.ts';
import { ServerErrorAlert } from '../../../components/server-error-alert.tsx';
import { bulkJobQueryOptions } from '../queries.ts';
import type { BulkSearch } from '../search.ts';
import { BulkCheckStep } from './bulk-check-step.tsx';
import { BulkFileStep } from './bulk-file-step.tsx';
import { BulkProgressStep } from './bulk-progress-step.tsx';
import './bulk-import.css';
import { PageTitle } from '../../../components/page-title.tsx';

/** Moves the page: a new address (job, invitations, rows filter, page) and the step in the hash. */
export type BulkNavigate = (search: BulkSearch, step: number, options?: { replace?: boolean }) => void;

interface BulkUserCreatePageProps {
  search: BulkSearch;
  /** The step asked for by the address's `#step=n`. */
  requestedStep: number;
  /** False while a link away from the page is followed: the page then moves nobody anywhere. */
  here: boolean;
  navigate: BulkNavigate;
}

/** The step a job allows: checked jobs are looked at (or replaced), started ones watched. */
function stepFor(job: BulkJob | undefined, requested: number): number {
  if (job === undefined) return 1;
  if (job.state === 'validated') return requested === 1 ? 1 : 2;
  return 3;
}

function StepList({ current }: { current: number }) {
  const { t } = useLingui();
  const steps = [t`Choose a file`, t`Check the rows`, t`Create the users`];
  return (
    <ol className="bulk-steps" aria-label={t`Steps`}>
      {steps.map((label, index) => (
        <li
          key={label}
          className={
            index + 1 === current ? 'bulk-steps__step bulk-steps__step--current' : 'bulk-steps__step'
          }
          aria-current={index + 1 === current ? 'step' : undefined}
        >
          <span className="bulk-steps__number" aria-hidden="true">
            {index + 1}
          </span>
          {label}
        </li>
      ))}
    </ol>
  );
}

/**
 * Access › Administrators › Bulk create (decision 038, decision 039 §4): step 1 the account, default roles and
 * the file; step 2 the dry run's counts and rows with their reasons; step 3 the job's progress, then
 * its summary and report. The job is in the address (`?job=`) and the step in the hash, so a reload
 * or the browser's Back returns to where one was.
 */
export function BulkUserCreatePage({ search, requestedStep, here, navigate }: BulkUserCreatePageProps) {
  const job = useQuery({ ...bulkJobQueryOptions(search.job ?? ''), enabled: search.job !== undefined });
  const data = search.job === undefined ? undefined : job.data;
  const step = stepFor(data, requestedStep);
  const heading = useRef<HTMLHeadingElement>(null);

  // A page opened at a step the job does not allow goes to the one it does.
  useEffect(() => {
    if (here && data !== undefined && step !== requestedStep) navigate(search, step, { replace: true });
  }, [here, data, step, requestedStep, search, navigate]);

  // Each step change moves the focus to the page's heading, so a screen reader starts at the top.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current !== step) heading.current?.focus();
    shownStep.current = step;
  }, [step]);

  return (
    <section className="page bulk-import" aria-labelledby="page-title">
      <PageTitle ref={heading} tabIndex={-1}>
        <Trans>Bulk create administrators</Trans>
      </PageTitle>
      <StepList current={step} />
      {search.job !== undefined && job.isPending ? (
        <p className="list-status" role="status">
          <Trans>Loading the file's check…</Trans>
        </p>
      ) : search.job !== undefined && job.isError && data === undefined ? (
        <ServerErrorAlert error={job.error} />
      ) : step === 1 ? (
        <BulkFileStep search={search} navigate={navigate} />
      ) : step === 2 && data !== undefined ? (
        <BulkCheckStep job={data} search={search} navigate={navigate} />
      ) : data !== undefined ? (
        <BulkProgressStep job={data} />
      ) : null}
    </section>
  );
}
