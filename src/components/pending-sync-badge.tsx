import { useLingui } from '@lingui/react/macro';
import type { OutboxEntryView } from '../../contract/outbox.ts';
import './offline.css';

/**
 * Shown on an object that has queued changes not yet on the server: it follows the outbox entries
 * for the object's path (the service worker's, so it survives a reload), not a flag of the page.
 * Nothing when there are none.
 */
export function PendingSyncBadge({ entries }: { entries: readonly OutboxEntryView[] }) {
  const { t } = useLingui();
  if (entries.length === 0) return null;
  const needsUser = entries.find((entry) => entry.state === 'conflict' || entry.state === 'failed');
  const deleting = entries.some((entry) => entry.method === 'DELETE');
  let label: string;
  if (needsUser?.state === 'conflict') label = t`Sync conflict`;
  else if (needsUser) label = t`Sync failed`;
  else if (deleting) label = t`Deletion pending sync`;
  else label = t`Pending sync`;
  const summaries = entries.map((entry) => entry.summary).join('; ');
  return (
    <span className={`pending-sync${needsUser ? ` pending-sync--${needsUser.state}` : ''}`} title={summaries}>
      {label}
    </span>
  );
}
