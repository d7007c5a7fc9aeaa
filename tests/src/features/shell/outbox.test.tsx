// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OUTBOX_CHANNEL, type OutboxEntryView, type OutboxEvent } from '../../../../contract/outbox.ts';
import { OutboxIndicator } from '../../../../src/features/shell/components/outbox-indicator.tsx';
import { OutboxPanel } from '../../../../src/features/shell/components/outbox-panel.tsx';
import { Outbox, OutboxProvider, useOutboxEntries } from '../../../../src/lib/offline/outbox-client.ts';
import { stubServiceWorker } from '../../lib/offline/offline-support.ts';
import { activateEnglish } from '../../support.tsx';

const OWNER = 'owner-of-ada';

function entry(overrides: Partial<OutboxEntryView>): OutboxEntryView {
  return {
    id: 'entry-1',
    sequence: 1,
    accountId: 'a1',
    method: 'PUT',
    url: '/account/ui-api/v1/organizations/o1',
    body: { name: 'Acme Trust AG', city: 'Berlin' },
    summary: 'Edit organization Acme Trust GmbH',
    createdAt: '2026-11-20T09:30:00Z',
    attempts: 0,
    state: 'pending',
    error: null,
    current: null,
    ...overrides,
  };
}

const CONFLICT = entry({
  id: 'conflict-1',
  state: 'conflict',
  body: { name: 'Acme Trust AG', city: 'Berlin', address: { line: 'Hauptstraße 1' } },
  error: { status: 412, message: 'The organization was changed by someone else.' },
  current: {
    value: { name: 'Acme Holding', city: 'Berlin', address: { line: 'Hauptstraße 2' }, version: 4 },
    etag: '"4"',
  },
});
const FAILED = entry({
  id: 'failed-1',
  sequence: 2,
  state: 'failed',
  summary: 'Edit account Example Corp',
  body: { name: 'Example', seats: 5, active: true, service_period: { to: '2027-01-01' } },
  error: { status: 400, message: 'seats: must not exceed the licence' },
});

const posted: unknown[] = [];
let disconnect: () => void = () => undefined;
/** The page's outbox, as the secure layout gives it to its screens. */
let outbox = new Outbox();
const withOutbox = {
  wrapper: ({ children }: { children: ReactNode }) => (
    <OutboxProvider value={outbox}>{children}</OutboxProvider>
  ),
};

let restoreWorker: () => void = () => undefined;

/** The service worker's broadcast, from another channel object as another context would send it. */
async function broadcast(event: OutboxEvent) {
  const channel = new BroadcastChannel(OUTBOX_CHANNEL);
  channel.postMessage(event);
  channel.close();
  // Delivery is asynchronous.
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
}

beforeEach(() => {
  activateEnglish();
  posted.length = 0;
  restoreWorker = stubServiceWorker(posted);
  outbox = new Outbox();
});
afterEach(() => {
  disconnect();
  restoreWorker();
  vi.unstubAllGlobals();
});

function Entries() {
  const entries = useOutboxEntries();
  return (
    <ul>
      {entries.map((item) => (
        <li key={item.id}>{item.summary}</li>
      ))}
    </ul>
  );
}

describe('outbox client', () => {
  it('asks the worker for the user’s entries and renders what it broadcasts, for this user only', async () => {
    const synced = vi.fn();
    disconnect = outbox.connect({
      owner: OWNER,
      userId: 'ada',
      postSession: () => undefined,
      onSynced: synced,
    });
    expect(posted).toContainEqual({ type: 'list', userId: 'ada' });
    render(<Entries />, withOutbox);

    await broadcast({ type: 'outbox', owner: OWNER, entries: [FAILED, CONFLICT] });
    await broadcast({ type: 'outbox', owner: 'someone-else', entries: [entry({ summary: 'Not Ada’s' })] });
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Edit organization Acme Trust GmbH',
      'Edit account Example Corp',
    ]);

    await broadcast({ type: 'synced', owner: 'someone-else', id: 'x', url: '/x', status: 204 });
    await broadcast({ type: 'synced', owner: OWNER, id: 'conflict-1', url: CONFLICT.url, status: 204 });
    expect(synced).toHaveBeenCalledTimes(1);
    expect(synced).toHaveBeenCalledWith(CONFLICT.url);
  });

  it('reads again what a change discarded here or in another tab showed, and not what a sent one did twice', async () => {
    const synced = vi.fn();
    const discarded = vi.fn();
    disconnect = outbox.connect({
      owner: OWNER,
      userId: 'ada',
      postSession: () => undefined,
      onSynced: synced,
      onDiscarded: discarded,
    });
    const sent = entry({ id: 'sent-1', sequence: 3, url: '/account/ui-api/v1/organizations/o2' });
    await broadcast({ type: 'outbox', owner: OWNER, entries: [CONFLICT, FAILED, sent] });

    await broadcast({ type: 'synced', owner: OWNER, id: sent.id, url: sent.url, status: 204 });
    await broadcast({ type: 'outbox', owner: OWNER, entries: [CONFLICT, FAILED] });
    expect(synced).toHaveBeenCalledWith(sent.url);
    expect(discarded).not.toHaveBeenCalled();

    await broadcast({ type: 'outbox', owner: OWNER, entries: [FAILED] });
    expect(discarded).toHaveBeenCalledTimes(1);
    expect(discarded).toHaveBeenCalledWith(CONFLICT.url);
  });

  it('asks for a sync when the connection or the user comes back', () => {
    disconnect = outbox.connect({ owner: OWNER, userId: 'ada', postSession: () => undefined });
    posted.length = 0;
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('focus'));
    expect(posted).toEqual([{ type: 'sync-now' }, { type: 'sync-now' }]);
  });
});

describe('outbox indicator', () => {
  it('shows the count with a name for screen readers, and nothing when the outbox is empty', async () => {
    disconnect = outbox.connect({ owner: OWNER, userId: 'ada', postSession: () => undefined });
    render(
      <I18nProvider i18n={i18n}>
        <OutboxIndicator />
      </I18nProvider>,
      withOutbox,
    );
    expect(screen.queryByRole('button')).toBeNull();
    await broadcast({ type: 'outbox', owner: OWNER, entries: [entry({})] });
    await broadcast({ type: 'outbox', owner: OWNER, entries: [entry({}), FAILED] });
    const button = screen.getByRole('button', { name: /Outbox: 2 changes waiting/ });
    expect(button.getAttribute('aria-label')).toContain('Some need your attention');
    // The live region says what changed.
    expect(document.querySelector('[aria-live="polite"]')?.textContent).toContain(
      'Saved to send later: Edit account Example Corp.',
    );
    await broadcast({ type: 'outbox', owner: OWNER, entries: [] });
    expect(screen.queryByRole('button')).toBeNull();
  });
});

function renderPanel(entries: readonly OutboxEntryView[]) {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  return render(
    <I18nProvider i18n={i18n}>
      <OutboxPanel open onOpenChange={() => undefined} entries={entries} announcement="" />
    </I18nProvider>,
    withOutbox,
  );
}

describe('outbox panel', () => {
  it('applies only the conflict a click was drawn for, keeping it in place until it settles', async () => {
    const user = userEvent.setup();
    const second = { ...CONFLICT, id: 'conflict-2', sequence: 2, summary: 'Edit organization Beta' };
    const { rerender } = renderPanel([CONFLICT, second]);
    const firstApply = (await screen.findAllByRole('button', { name: 'Apply on current version' }))[0];
    if (!firstApply) throw new Error('no Apply button');
    await user.click(firstApply);
    // The worker takes the first one back to the server; the list is drawn again meanwhile.
    rerender(
      <I18nProvider i18n={i18n}>
        <OutboxPanel
          open
          onOpenChange={() => undefined}
          entries={[{ ...CONFLICT, state: 'pending' }, second]}
          announcement=""
        />
      </I18nProvider>,
    );
    // A second click a human makes at the same place lands on the same, now inactive, button.
    const again = screen.getAllByRole('button', { name: 'Apply on current version' })[0];
    if (!again) throw new Error('no Apply button');
    expect(again.getAttribute('aria-disabled')).toBe('true');
    await user.click(again);
    expect(posted).toEqual([{ type: 'reapply', id: 'conflict-1' }]);
    expect(screen.getByText('Applying on the current version…')).toBeTruthy();

    // Sent: it leaves, and the other conflict is the first again, ready to act on.
    rerender(
      <I18nProvider i18n={i18n}>
        <OutboxPanel open onOpenChange={() => undefined} entries={[second]} announcement="" />
      </I18nProvider>,
    );
    const remaining = screen.getAllByRole('button', { name: 'Apply on current version' });
    expect(remaining).toHaveLength(1);
    expect(remaining[0]?.getAttribute('aria-disabled')).toBeNull();
  });

  it('compares a conflicting change with the server’s current version, field by field', async () => {
    renderPanel([CONFLICT]);
    const table = await screen.findByRole('table', { name: /Your change beside the current version/ });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows).toEqual([
      ['Acme Trust AG', 'Acme Holding'],
      ['Berlin', 'Berlin'],
      ['Hauptstraße 1', 'Hauptstraße 2'],
    ]);
    const headers = within(table)
      .getAllByRole('rowheader')
      .map((header) => header.textContent);
    expect(headers).toEqual(['name (differs)', 'city', 'address.line (differs)']);
  });

  it('posts sync, reapply and discard, and asks before discarding', async () => {
    const user = userEvent.setup();
    const { unmount } = renderPanel([CONFLICT]);
    await user.click(await screen.findByRole('button', { name: 'Sync now' }));
    await user.click(screen.getByRole('button', { name: 'Apply on current version' }));
    expect(posted).toEqual([{ type: 'sync-now' }, { type: 'reapply', id: 'conflict-1' }]);
    unmount();

    posted.length = 0;
    renderPanel([CONFLICT]);
    await user.click(await screen.findByRole('button', { name: 'Discard' }));
    expect(posted).toEqual([]);
    const confirm = screen.getByRole('group', { name: /Discard this change/ });
    await user.click(within(confirm).getByRole('button', { name: 'Discard' }));
    expect(posted).toEqual([{ type: 'discard', id: 'conflict-1' }]);
  });

  it('lets a waiting change be called back, but not one already on its way to the server', async () => {
    const user = userEvent.setup();
    renderPanel([entry({ id: 'waiting-1' }), entry({ id: 'sending-1', sequence: 2, state: 'sending' })]);
    const [waiting, sending] = await screen.findAllByRole('listitem');
    if (!waiting || !sending) throw new Error('Both changes should be listed.');
    expect(within(sending).queryByRole('button')).toBeNull();
    expect(within(waiting).queryByRole('button', { name: 'Edit and retry' })).toBeNull();
    await user.click(within(waiting).getByRole('button', { name: 'Discard' }));
    const confirm = within(waiting).getByRole('group', { name: /Discard this change/ });
    await user.click(within(confirm).getByRole('button', { name: 'Discard' }));
    expect(posted).toEqual([{ type: 'discard', id: 'waiting-1' }]);
  });

  it('edits a failed change and retries it with each field’s own type', async () => {
    const user = userEvent.setup();
    renderPanel([FAILED]);
    expect(await screen.findByText(/seats: must not exceed the licence/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit and retry' }));
    const form = screen.getByRole('form', { name: 'Edit the change' });
    const seats = within(form).getByRole('textbox', { name: 'seats' });
    await user.clear(seats);
    await user.type(seats, 'five');
    await user.click(within(form).getByRole('button', { name: 'Retry' }));
    expect(within(form).getByText('Enter a number.')).toBeTruthy();
    expect(seats.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(seats);
    expect(posted).toEqual([]);

    await user.clear(seats);
    await user.type(seats, '3');
    await user.click(within(form).getByRole('checkbox', { name: 'active' }));
    // Nested objects are shown, not edited.
    expect(within(form).getByText(/2027-01-01/)).toBeTruthy();
    await user.click(within(form).getByRole('button', { name: 'Retry' }));
    expect(posted).toEqual([
      {
        type: 'retry',
        id: 'failed-1',
        body: { name: 'Example', seats: 3, active: false, service_period: { to: '2027-01-01' } },
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('form', { name: 'Edit the change' })).toBeNull());
  });
});
