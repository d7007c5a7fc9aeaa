// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, renderApp } from '../../support.tsx';
import { API, findAccountsTable, queriesOf, signedIn } from './accounts-list-support.ts';

const EXPORT_PATH = `${API}/tenants/export`;

interface SavedFile {
  name: string;
  href: string;
}

/** jsdom has no downloads: the link the console clicks is recorded instead of followed. */
function captureDownloads() {
  const saved: SavedFile[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, href: this.href });
  });
  const revoked: string[] = [];
  // jsdom has no object URLs; they exist for the length of a test.
  Object.assign(URL, {
    createObjectURL: vi.fn(() => 'blob:accounts-export'),
    revokeObjectURL: vi.fn((url: string) => revoked.push(url)),
  });
  return { saved, revoked };
}

function csv(body: string, headers: Record<string, string> = {}) {
  return new Response(body, { headers: { 'Content-Type': 'text/csv; charset=utf-8', ...headers } });
}

describe('accounts export', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    Reflect.deleteProperty(URL, 'createObjectURL');
    Reflect.deleteProperty(URL, 'revokeObjectURL');
  });

  it('downloads every page of the list as filtered and sorted, with the bearer token', async () => {
    const downloads = captureDownloads();
    const { requests, calls } = signedIn({
      extra: {
        [`GET ${EXPORT_PATH}`]: () =>
          csv('name\nContoso\n', { 'Content-Disposition': 'attachment; filename="accounts-2026-11-21.csv"' }),
      },
    });
    renderApp('/account/accounts');
    const table = await findAccountsTable();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Status'), 'Inactive');
    await user.click(within(table).getByRole('button', { name: 'End date' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() =>
      expect(downloads.saved).toEqual([{ name: 'accounts-2026-11-21.csv', href: 'blob:accounts-export' }]),
    );
    const [query] = queriesOf(requests, EXPORT_PATH);
    expect(Object.fromEntries(query?.entries() ?? [])).toEqual({ sort: 'end_date:asc', active: 'false' });
    const exportCall = calls.find((call) => call.path === EXPORT_PATH);
    expect(exportCall?.headers.get('Authorization')).toBe('Bearer token-1');
    expect(exportCall?.headers.get('Accept')).toBe('text/csv');
    await waitFor(() => expect(downloads.revoked).toEqual(['blob:accounts-export']));
  });

  it('names the file after today when the server names none', async () => {
    const downloads = captureDownloads();
    signedIn({ extra: { [`GET ${EXPORT_PATH}`]: () => csv('name\n') } });
    renderApp('/account/accounts');
    await findAccountsTable();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads.saved[0]?.name).toMatch(/^accounts-\d{4}-\d{2}-\d{2}\.csv$/));
  });

  it('is busy while the file downloads', async () => {
    captureDownloads();
    let finish: (response: Response) => void = () => undefined;
    signedIn({
      extra: { [`GET ${EXPORT_PATH}`]: () => new Promise<Response>((resolve) => (finish = resolve)) },
    });
    renderApp('/account/accounts');
    await findAccountsTable();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    const busy = await screen.findByRole('button', { name: 'Exporting…' });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    finish(csv('name\n'));
    expect(await screen.findByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('reports a failure as an error notification and saves nothing', async () => {
    const downloads = captureDownloads();
    signedIn({ extra: { [`GET ${EXPORT_PATH}`]: () => apiError(500, 'Export failed.') } });
    renderApp('/account/accounts');
    await findAccountsTable();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText('Something went wrong on the server. Try again later.')).toBeTruthy();
    expect(downloads.saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Export CSV' }).hasAttribute('aria-busy')).toBe(false);
  });
});
