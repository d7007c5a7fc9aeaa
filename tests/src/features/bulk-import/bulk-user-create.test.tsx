// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { BulkJob, BulkRow } from '../../../../contract/schemas/bulk-import.ts';
import { ACCOUNT_ID, customerFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import { API, usersApi } from '../users/users-support.ts';

const JOB_ID = 'job-1';
const PAGE = '/account/access/administrators/bulk-user-create';

function jobFixture(overrides: Partial<BulkJob> = {}): BulkJob {
  return {
    id: JOB_ID,
    state: 'validated',
    file_name: 'people.csv',
    account_id: ACCOUNT_ID,
    role_ids: ['role-1'],
    send_invitations: true,
    total: 3,
    valid: 2,
    invalid: 1,
    processed: 0,
    created: 0,
    failed: 0,
    cancelled: 0,
    created_at: '2026-03-10T12:00:00Z',
    started_at: null,
    finished_at: null,
    ...overrides,
  };
}

const ROWS: BulkRow[] = [
  {
    row: 1,
    line: 2,
    cells: { first_name: 'Ada', last_name: 'One', email: 'ada@example.com', user_name: 'ada' },
    status: 'valid',
    errors: [],
    user_id: null,
  },
  {
    row: 2,
    line: 3,
    cells: { first_name: 'Ada', last_name: 'Two', email: 'nope', user_name: 'ADA' },
    status: 'invalid',
    errors: [
      { column: 'email', code: 'invalidEmail' },
      { column: 'user_name', code: 'duplicateInFile', first_row: 1 },
    ],
    user_id: null,
  },
];

function bulkApi(job: () => BulkJob, extra: NonNullable<Parameters<typeof usersApi>[0]>['extra'] = {}) {
  return usersApi({
    extra: {
      [`GET ${API}/tenant/${ACCOUNT_ID}`]: () => json(customerFixture({ id: ACCOUNT_ID })),
      [`GET ${API}/user/bulk/${JOB_ID}`]: () => json(job()),
      [`GET ${API}/user/bulk/${JOB_ID}/rows`]: ({ url }) => {
        const items =
          url.searchParams.get('status') === 'invalid'
            ? ROWS.filter((row) => row.status === 'invalid')
            : ROWS;
        return json({ items, total: items.length });
      },
      ...extra,
    },
  });
}

/** Chooses a file and a default role, then asks the server to check the file. */
async function chooseFileAndCheck() {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('No file input.');
  await userEvent.upload(input, new File(['first_name\r\n'], 'people.csv', { type: 'text/csv' }));
  await userEvent.click(await screen.findByRole('checkbox', { name: 'Account administrator' }));
  await userEvent.click(screen.getByRole('button', { name: 'Check the file' }));
}

describe('bulk create administrators', () => {
  it('checks the chosen file and shows a refusal of the whole file under it', async () => {
    const api = bulkApi(() => jobFixture(), {
      [`POST ${API}/user/bulk/validate`]: () =>
        json({ error: { status: 400, message: 'file: not UTF-8', field: 'file', code: 'notUtf8' } }, 400),
    });
    const { router } = renderApp(PAGE);
    expect(await screen.findByRole('heading', { name: 'Bulk create administrators' })).toBeTruthy();
    await screen.findByText('Example Corp');
    await userEvent.click(screen.getByRole('button', { name: 'Check the file' }));
    expect(await screen.findByText('Choose a CSV file.')).toBeTruthy();

    await chooseFileAndCheck();
    expect(
      await screen.findByText('The file is not UTF-8 text. Save it as "CSV UTF-8" and choose it again.'),
    ).toBeTruthy();
    const sent = api.calls.find(
      (call) => call.method === 'POST' && call.path === `${API}/user/bulk/validate`,
    );
    expect(sent?.headers.get('Content-Type')).toBe('text/csv');
    expect(router.state.location.search).toEqual({});
  });

  it('names the row and the column of a cell that refuses the whole file', async () => {
    bulkApi(() => jobFixture(), {
      [`POST ${API}/user/bulk/validate`]: () =>
        json(
          {
            error: {
              status: 400,
              message: 'file.row.2.last_name: holds a control character',
              field: 'file.row.2.last_name',
              code: 'controlCharacter',
            },
          },
          400,
        ),
    });
    renderApp(PAGE);
    await screen.findByText('Example Corp');
    await chooseFileAndCheck();
    expect(
      await screen.findByText(
        'A cell holds a control character (such as NUL) that no name or address may hold. Remove it and choose the file again. Row 2, column last_name.',
      ),
    ).toBeTruthy();
  });

  it('shows the dry run with every reason by column, filters the invalid rows and starts the job', async () => {
    let job = jobFixture();
    const api = bulkApi(() => job, {
      [`POST ${API}/user/bulk`]: () => {
        job = jobFixture({ state: 'queued' });
        return json(job, 202);
      },
    });
    const { router } = renderApp(`${PAGE}?job=${JOB_ID}#step=2`);
    expect(await screen.findByText('people.csv: 3 rows, 2 valid, 1 invalid.')).toBeTruthy();
    const table = await screen.findByRole('table');
    const bad = within(table).getAllByRole('row')[2];
    expect(bad?.textContent).toContain('email: Invalid email.');
    expect(bad?.textContent).toContain(
      'user_name: This user name is already used by an earlier row of the file. (row 1)',
    );

    await userEvent.click(screen.getByRole('radio', { name: 'Invalid rows' }));
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(2));
    expect(router.state.location.search).toMatchObject({ job: JOB_ID, rows: 'invalid' });

    await userEvent.click(screen.getByRole('button', { name: 'Create 2 users' }));
    await waitFor(() => expect(router.state.location.hash).toBe('step=3'));
    const start = api.calls.find((call) => call.method === 'POST' && call.path === `${API}/user/bulk`);
    expect(start?.body).toEqual({ job_id: JOB_ID, send_invitations: true });
    expect(await screen.findByRole('progressbar', { name: 'Creating users' })).toBeTruthy();
  });

  it('goes to the step the job allows when the address asks for another', async () => {
    bulkApi(() => jobFixture());
    const { router } = renderApp(`${PAGE}?job=${JOB_ID}#step=3`);
    expect(await screen.findByText('people.csv: 3 rows, 2 valid, 1 invalid.')).toBeTruthy();
    await waitFor(() => expect(router.state.location.hash).toBe('step=2'));
  });

  it('cancels a running job and offers the report once it has ended', async () => {
    let job = jobFixture({ state: 'running', processed: 1, created: 1 });
    const api = bulkApi(() => job, {
      [`DELETE ${API}/user/bulk/${JOB_ID}`]: () => {
        job = jobFixture({ state: 'cancelled', processed: 1, created: 1, cancelled: 1 });
        return new Response(null, { status: 204 });
      },
    });
    renderApp(`${PAGE}?job=${JOB_ID}#step=3`);
    expect(await screen.findByText('1 of 2 processed: 1 created, 0 failed.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('Cancelled: 1 created, 0 failed, 1 not created.')).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(true);
    expect(screen.getByRole('button', { name: 'Download report' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to administrators' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel' })).toBeNull();
  });

  it('says so when the job cannot be read', async () => {
    bulkApi(() => jobFixture(), {
      [`GET ${API}/user/bulk/${JOB_ID}`]: () => apiError(404, 'Bulk job not found.'),
    });
    renderApp(`${PAGE}?job=${JOB_ID}#step=2`);
    expect((await screen.findByRole('alert')).textContent).toContain('The item was not found.');
  });
});
