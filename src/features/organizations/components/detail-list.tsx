import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { DetailsRow } from '../../../components/details-row.tsx';

export interface DetailRow {
  label: ReactNode;
  /** Empty text is shown as "Not given", so an empty optional field does not look like a missing row. */
  value: ReactNode;
}

/** The fields of an organization or a contact as a description list. */
export function DetailList({ rows }: { rows: readonly DetailRow[] }) {
  return (
    <dl className="details">
      {rows.map((row, index) => (
        // Rows are fixed per page and never reorder, so their position identifies them.
        // biome-ignore lint/suspicious/noArrayIndexKey: see above
        <DetailsRow key={index} label={row.label}>
          {row.value === '' ? (
            <span className="organizations-not-given">
              <Trans>Not given</Trans>
            </span>
          ) : (
            row.value
          )}
        </DetailsRow>
      ))}
    </dl>
  );
}
