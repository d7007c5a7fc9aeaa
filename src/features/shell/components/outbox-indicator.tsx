import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { OutboxEntryView } from '../../../../contract/outbox.ts';
import { useOutboxEntries } from '../../../lib/offline/outbox-client.ts';
import { OUTBOX_STATE_LABELS } from '../outbox-model.ts';
import './outbox.css';

// The panel (its forms, comparisons and the dialog) loads when first opened.
const OutboxPanel = lazy(() =>
  import('./outbox-panel.tsx').then(({ OutboxPanel }) => ({ default: OutboxPanel })),
);

/**
 * What changed in the outbox since the last broadcast, in words, for the live region: a change
 * queued, one that left the outbox, one whose state changed. Every tab hears it, since every tab
 * gets the broadcast.
 */
function useOutboxAnnouncement(entries: readonly OutboxEntryView[]): string {
  const { t, i18n } = useLingui();
  const previous = useRef<ReadonlyMap<string, OutboxEntryView> | null>(null);
  const [announcement, setAnnouncement] = useState('');
  useEffect(() => {
    const before = previous.current;
    const now = new Map(entries.map((entry) => [entry.id, entry]));
    previous.current = now;
    // The first list after the page opened is the state of things, not news.
    if (!before) return;
    const messages: string[] = [];
    for (const entry of entries) {
      const old = before.get(entry.id);
      const summary = entry.summary;
      if (!old) messages.push(t`Saved to send later: ${summary}.`);
      else if (old.state !== entry.state) {
        const state = i18n._(OUTBOX_STATE_LABELS[entry.state]);
        messages.push(t`${summary}: ${state}.`);
      }
    }
    for (const [id, old] of before) {
      const summary = old.summary;
      if (!now.has(id)) messages.push(t`No longer waiting: ${summary}.`);
    }
    if (messages.length > 0) setAnnouncement(messages.join(' '));
  }, [entries, t, i18n]);
  return announcement;
}

/** The header's outbox button: how many changes wait, hidden when none; opens the outbox panel. */
export function OutboxIndicator() {
  const { t } = useLingui();
  const entries = useOutboxEntries();
  const [open, setOpen] = useState(false);
  const announcement = useOutboxAnnouncement(entries);
  const count = entries.length;
  const needsUser = entries.some((entry) => entry.state === 'conflict' || entry.state === 'failed');
  const label = plural(count, { one: 'Outbox: # change waiting', other: 'Outbox: # changes waiting' });
  return (
    <>
      {/* Outside the panel, so it is heard while the panel is closed; the panel has its own. */}
      <div aria-live="polite" aria-atomic="true" className="visually-hidden">
        {open ? '' : announcement}
      </div>
      {count > 0 ? (
        <button
          type="button"
          className={`menu__trigger outbox-indicator${needsUser ? ' outbox-indicator--attention' : ''}`}
          aria-label={needsUser ? `${label}. ${t`Some need your attention.`}` : label}
          aria-haspopup="dialog"
          onClick={() => setOpen(true)}
        >
          <span aria-hidden="true">⇅</span>
          <span className="outbox-indicator__count" aria-hidden="true">
            {count}
          </span>
        </button>
      ) : null}
      {open ? (
        <Suspense fallback={null}>
          <OutboxPanel open={open} onOpenChange={setOpen} entries={entries} announcement={announcement} />
        </Suspense>
      ) : null}
    </>
  );
}
