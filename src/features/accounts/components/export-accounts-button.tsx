import { Trans } from '@lingui/react/macro';
import { useState } from 'react';
import { apiPaths } from '../../../../contract/paths.ts';
import type { TenantListQueryInput } from '../../../../contract/schemas/tenants.ts';
import { notifyError } from '../../../components/notify.ts';
import { NeedsConnection } from '../../../components/offline-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { formatDate, today } from '../../../lib/dates.ts';
import { downloadFromApi } from '../../../lib/download.ts';

interface ExportAccountsButtonProps {
  /** The list's sort and filters: the file holds exactly what the table shows, on every page. */
  query: Omit<TenantListQueryInput, 'limit' | 'offset'>;
}

/** Downloads the filtered, sorted accounts as CSV (GET tenants/export). */
export function ExportAccountsButton({ query }: ExportAccountsButtonProps) {
  const [exporting, setExporting] = useState(false);
  const exportAccounts = async () => {
    if (exporting) return;
    setExporting(true);
    try {
      await downloadFromApi(apiPaths.tenants.export, {
        query,
        accept: 'text/csv',
        fallbackFileName: `accounts-${formatDate(today())}.csv`,
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
        <Button
          variant="secondary"
          busy={exporting}
          onClick={() => void exportAccounts()}
          {...gate.controlProps}
        >
          {exporting ? <Trans>Exporting…</Trans> : <Trans>Export CSV</Trans>}
        </Button>
      )}
    </NeedsConnection>
  );
}
