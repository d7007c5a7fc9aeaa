import { Trans } from '@lingui/react/macro';
import { type ReactNode, useState } from 'react';
import type { QueryValue } from '../../lib/api-client.ts';
import { formatDate, today } from '../../lib/dates.ts';
import { downloadFromApi } from '../../lib/download.ts';
import { notifyError } from '../notify.ts';
import { NeedsConnection } from '../offline-notice.tsx';
import { Button } from '../ui/button.tsx';

/** The files a list exports, as the export calls' `format` names them. */
const EXPORT_FORMATS = {
  csv: { accept: 'text/csv', extension: 'csv' },
  jsonl: { accept: 'application/jsonl', extension: 'jsonl' },
  json: { accept: 'application/json', extension: 'json' },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;

interface ExportButtonProps {
  /** The list's export call, e.g. GET tenants/export. */
  path: string;
  /** The file asked for; a call that makes several formats names it in `query` too. */
  format?: ExportFormat;
  /** The list's sort and filters: the file holds exactly what the table shows, on every page. */
  query: Record<string, QueryValue>;
  /** The file's name before the date, used when the server names none: `accounts` → `accounts-2026-11-21.csv`. */
  fileName: string;
  /** The button's words when they are not "Export" and the format (a file that is not a list). */
  children?: ReactNode;
}

function FormatLabel({ format }: { format: ExportFormat }) {
  switch (format) {
    case 'csv':
      return <Trans>Export CSV</Trans>;
    case 'jsonl':
      return <Trans>Export JSON Lines</Trans>;
    case 'json':
      return <Trans>Export JSON</Trans>;
  }
}

/** Downloads a list, filtered and sorted as it is shown, as CSV or JSON Lines. */
export function ExportButton({ path, format = 'csv', query, fileName, children }: ExportButtonProps) {
  const [exporting, setExporting] = useState(false);
  const { accept, extension } = EXPORT_FORMATS[format];
  const exportList = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      await downloadFromApi(path, {
        query,
        accept,
        fallbackFileName: `${fileName}-${formatDate(today())}.${extension}`,
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
          {exporting ? <Trans>Exporting…</Trans> : (children ?? <FormatLabel format={format} />)}
        </Button>
      )}
    </NeedsConnection>
  );
}
