import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import { UNLIMITED } from '../../../../contract/licences.ts';
import type { AccountLicence, LicenceHistoryItem } from '../../../../contract/schemas/licences.ts';
import { useProfile } from '../../../lib/current-user.ts';
import { formatUserDate } from '../../../lib/dates.ts';
import { Temporal } from '../../../lib/temporal.ts';
import { allocationSeries, licenceAmount, licenceTypeLabel } from '../model.ts';

const WIDTH = 320;
const HEIGHT = 120;
const PAD = 4;
/** Told apart by the line's dash as well as its colour, so neither colour sight nor the theme decides. */
const DASHES = ['', '6 3', '2 3'];

interface LicenceChartProps {
  licence: AccountLicence;
  /** Every history row of the account, oldest first. */
  history: readonly LicenceHistoryItem[];
  /** The end of the time axis: now. */
  now: number;
}

/**
 * The allocation of each licence type of an application over time, as steps from its recorded
 * changes to now, and its use now as a dot at the end (the history records totals, not use). Drawn
 * as a small SVG hidden from assistive technology; the same figures are in the table below it.
 * Unlimited totals have no height, so their types are only in the table.
 */
export function LicenceChart({ licence, history, now }: LicenceChartProps) {
  const { i18n } = useLingui();
  const profile = useProfile();
  const captionId = useId();
  const series = allocationSeries(history, licence.id);
  if (series.length === 0) return null;

  const finite = series.filter((line) => line.steps.every((step) => step.total !== UNLIMITED));
  const usedOf = (feature: string) => licence.data.find((row) => row.featureId === feature)?.used ?? 0;
  const start = Math.min(...series.map((line) => line.steps[0]?.at ?? now));
  const top = Math.max(
    1,
    ...finite.flatMap((line) => [...line.steps.map((step) => step.total), usedOf(line.feature)]),
  );
  const x = (at: number) => PAD + ((at - start) / Math.max(1, now - start)) * (WIDTH - 2 * PAD);
  const y = (value: number) => HEIGHT - PAD - (value / top) * (HEIGHT - 2 * PAD);
  // Steps, not slopes: a total holds until the next change, then jumps.
  const path = (steps: readonly { at: number; total: number }[]) =>
    `${steps
      .map((step, index) =>
        index === 0 ? `M${x(step.at)},${y(step.total)}` : `H${x(step.at)}V${y(step.total)}`,
      )
      .join('')}H${x(now)}`;
  const day = (at: number) =>
    formatUserDate(
      Temporal.Instant.fromEpochMilliseconds(at).toZonedDateTimeISO(Temporal.Now.timeZoneId()).toPlainDate(),
      profile.date_format,
      i18n.locale,
    );

  return (
    <figure className="licence-chart" aria-labelledby={captionId}>
      <figcaption id={captionId} className="licence-chart__caption">
        <Trans>Allocation over time</Trans>
      </figcaption>
      {finite.length > 0 ? (
        <>
          <svg
            className="licence-chart__plot"
            viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
            aria-hidden="true"
            focusable="false"
          >
            <line
              className="licence-chart__axis"
              x1={PAD}
              y1={HEIGHT - PAD}
              x2={WIDTH - PAD}
              y2={HEIGHT - PAD}
            />
            {finite.map((line) => {
              const index = series.indexOf(line);
              return (
                <g key={line.feature} className={`licence-chart__series licence-chart__series--${index % 3}`}>
                  <path d={path(line.steps)} fill="none" strokeDasharray={DASHES[index % 3]} />
                  <circle cx={x(now)} cy={y(usedOf(line.feature))} r={3} />
                </g>
              );
            })}
          </svg>
          <ul className="licence-chart__legend" aria-hidden="true">
            {finite.map((line) => (
              <li key={line.feature} className={`licence-chart__series--${series.indexOf(line) % 3}`}>
                <svg width="24" height="8" aria-hidden="true" focusable="false">
                  <line x1="0" y1="4" x2="24" y2="4" strokeDasharray={DASHES[series.indexOf(line) % 3]} />
                </svg>
                {licenceTypeLabel(line.feature, i18n)}
              </li>
            ))}
            <li>
              <Trans>Dot: used now</Trans>
            </li>
          </ul>
        </>
      ) : null}
      <details className="licence-chart__data">
        <summary>
          <Trans>Chart data as a table</Trans>
        </summary>
        <table className="account-table">
          <thead>
            <tr>
              <th scope="col">
                <Trans>Date</Trans>
              </th>
              <th scope="col">
                <Trans>Licence type</Trans>
              </th>
              <th scope="col">
                <Trans>Total allocated</Trans>
              </th>
            </tr>
          </thead>
          <tbody>
            {series.flatMap((line) =>
              line.steps.map((step, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: two changes of one type may share a time
                <tr key={`${line.feature}-${index}`}>
                  <td>{day(step.at)}</td>
                  <th scope="row">{licenceTypeLabel(line.feature, i18n)}</th>
                  <td>{licenceAmount(step.total, i18n)}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
