import { Trans } from '@lingui/react/macro';

/**
 * The side rail of the account details page. Licence changes are not recorded by the platform yet,
 * so the rail says exactly that rather than showing a history or a download that would be empty.
 */
export function LicenceHistoryRail({ accountName }: { accountName: string }) {
  return (
    <aside className="licence-history" aria-labelledby="licence-history-title">
      <h2 id="licence-history-title" className="licence-history__title">
        <Trans>{accountName} license history</Trans>
      </h2>
      <p className="licence-history__empty">
        <Trans>No licence changes recorded for this account yet.</Trans>
      </p>
    </aside>
  );
}
