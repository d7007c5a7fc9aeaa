import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import type { QueryValue } from '../../lib/api-client.ts';
import { formatDate, today } from '../../lib/dates.ts';
import { downloadFromApi } from '../../lib/download.ts';
import { notifyError } from '../notify.ts';
import { NeedsConnection } from '../offline-notice.tsx';
import { Button } from '../ui/button.tsx';

interface ExportCsvButtonProps {
  /** The list's export call, e.g. GET tenants/export. */
  path: string;
  /** The list's sort and filters: the file holds exactly what the table shows, on every page. */
  query: Record<string, QueryValue>;
  /** The file's name before the date, used when the server names none: `accounts` → `accounts-2026-11-21.csv`. */
  fileName: string;
}

/** Downloads a list, filtered and sorted as it is shown, as CSV. */
export function ExportCsvButton({ path, query, fileName }: ExportCsvButtonProps) {
  const [exporting, setExporting] = useState(false);
  const exportList = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      await downloadFromApi(path, {
        query,
        accept: 'text/csv',
        fallbackFileName: `${fileName}-${formatDate(today())}.csv`,
      });
    } catch (error) {
      notifyError(error);
    } finally {
      setExporting(false);
    }
  };
  // The file is made by the server from every page of the list: nothing to export offline.
  return (
    <NeedsConnection>
      {(gate) => (
        <Button variant="secondary" busy={exporting} onClick={() => void exportList()} {...gate.controlProps}>
          {exporting ? <Trans>Exporting…</Trans> : <Trans>Export CSV</Trans>}
        </Button>
      )}
    </NeedsConnection>
  );
}
