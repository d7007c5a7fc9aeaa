import type { Locator, Page } from '@playwright/test';
import { assertAccessible, expect } from '../fixtures.ts';

// The header's outbox button, its panel (waiting changes, conflicts) and the sign-out choice.

/** The header's button, named "Outbox: N change(s) waiting"; absent while nothing waits. */
export function outboxButton(page: Page): Locator {
  return page.getByRole('button', { name: /^Outbox: \d+ changes? waiting/ });
}

/**
 * Emptying the outbox after the connection returns takes the session's renewal (tabs take turns
 * through a lock), the storage key and every change sent one after another: seconds on a busy machine.
 * A change that meets a conflict on the way is known only at the same point.
 */
const OUTBOX_DRAIN_TIMEOUT_MS = 20_000;

/** The header says `count` changes wait (and shows no outbox button at all for none). */
export async function assertOutboxCount(page: Page, count: number): Promise<void> {
  if (count === 0) {
    await expect(outboxButton(page)).toHaveCount(0, { timeout: OUTBOX_DRAIN_TIMEOUT_MS });
    return;
  }
  const label = count === 1 ? 'Outbox: 1 change waiting' : `Outbox: ${count} changes waiting`;
  await expect(outboxButton(page)).toHaveAccessibleName(
    new RegExp(`^${label}(\\. Some need your attention\\.)?$`),
  );
}

/** The header says a change waits for the user (a conflict or a failure), once the replay has met it. */
export async function assertOutboxNeedsAttention(page: Page): Promise<void> {
  await expect(outboxButton(page)).toHaveAccessibleName(/Some need your attention\.$/, {
    timeout: OUTBOX_DRAIN_TIMEOUT_MS,
  });
}

export function outboxPanel(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Outbox' });
}

export async function openOutbox(page: Page): Promise<void> {
  await outboxButton(page).click();
  await expect(outboxPanel(page)).toBeVisible();
  await assertAccessible(page);
}

export async function closeOutbox(page: Page): Promise<void> {
  await outboxPanel(page).getByRole('button', { name: 'Close', exact: true }).click();
  await expect(outboxPanel(page)).toHaveCount(0);
}

/** How the outbox names an edit of the organization called `name` when it was edited. */
export function organizationEditSummary(name: string): string {
  return `Edit organization ${name}`;
}

/** The panel's card of the change summarised as `summary` ("Edit organization Acme"). */
export function outboxEntry(page: Page, summary: string): Locator {
  return outboxPanel(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: summary, exact: true }) });
}

/** The entry is listed under "Waiting to be sent". */
export async function assertEntryWaiting(page: Page, summary: string): Promise<void> {
  const group = outboxPanel(page).getByRole('region', { name: 'Waiting to be sent' });
  await expect(
    group.getByRole('listitem').filter({ has: page.getByRole('heading', { name: summary, exact: true }) }),
  ).toBeVisible();
}

/**
 * The conflict view of the entry: listed under Conflicts, with the queued value of `field` beside the
 * server's current one, the row marked as differing.
 */
export async function assertConflict(
  page: Page,
  summary: string,
  compared: { field: string; yours: string; server: string },
): Promise<void> {
  const conflicts = outboxPanel(page).getByRole('region', { name: 'Conflicts' });
  const entry = conflicts
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: summary, exact: true }) });
  await expect(entry).toBeVisible();
  const table = entry.getByRole('table', { name: 'Your change beside the current version on the server' });
  await expect(table.getByRole('columnheader')).toHaveText(['Field', 'Your change', 'On the server now']);
  const row = table
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: `${compared.field} (differs)`, exact: true }) });
  await expect(row.getByRole('cell')).toHaveText([compared.yours, compared.server]);
  await assertAccessible(page);
}

/** Discard, then the confirmation's own Discard. */
export async function discardEntry(page: Page, summary: string): Promise<void> {
  const entry = outboxEntry(page, summary);
  await entry.getByRole('button', { name: 'Discard', exact: true }).click();
  const confirmation = entry.getByRole('group', {
    name: 'Discard this change? It will not reach the server.',
  });
  await expect(confirmation).toBeVisible();
  await confirmation.getByRole('button', { name: 'Discard', exact: true }).click();
  await expect(entry).toHaveCount(0);
}

export async function applyOnCurrentVersion(page: Page, summary: string): Promise<void> {
  await outboxEntry(page, summary).getByRole('button', { name: 'Apply on current version' }).click();
}

// Sign-out with changes waiting

function signOutDialog(page: Page): Locator {
  return page.getByRole('alertdialog', { name: 'Sign out with changes waiting?' });
}

export async function assertSignOutAsksAboutWaiting(page: Page, count: number): Promise<void> {
  const dialog = signOutDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(
    count === 1
      ? '1 change you made is not on the server yet.'
      : `${count} changes you made are not on the server yet.`,
  );
  await assertAccessible(page);
}

export async function clickKeepAndSignOut(page: Page): Promise<void> {
  await signOutDialog(page).getByRole('button', { name: 'Keep and sign out' }).click();
}

export async function clickDiscardAndSignOut(page: Page): Promise<void> {
  await signOutDialog(page).getByRole('button', { name: 'Discard and sign out' }).click();
}
