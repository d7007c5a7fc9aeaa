import { BULK_REPORT_CSV_COLUMNS, BULK_USER_CSV_COLUMNS } from '../contract/user-csv.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import {
  checkFile,
  chooseAccount,
  chooseFile,
  downloadReport,
  openBulkCreate,
  rowsTable,
  showInvalidRows,
  startCreating,
  tickDefaultRole,
  waitUntilFinished,
} from './pages/bulk-import.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { parseCsv } from './support/csv.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own people. */
const run = Date.now().toString(36);
const ACCOUNT = `Harbour Bulk ${run}`;
const USERS = 50;
/** Rows (1-based) made bad on purpose: a bad e-mail, a repeated user name, a formula. */
const BAD_ROWS = { 7: 'invalid e-mail', 23: 'repeated user name', 41: 'formula' } as const;

function bulkFile(): string {
  const lines = [BULK_USER_CSV_COLUMNS.join(',')];
  for (let row = 1; row <= USERS; row += 1) {
    const userName = row === 23 ? `bulk-${run}-1` : `bulk-${run}-${row}`;
    const email = row === 7 ? 'not-an-address' : `bulk-${run}-${row}@example.com`;
    const first = row === 41 ? '=HYPERLINK("https://example.com")' : 'Grace';
    const quoted = first.includes('"') ? `"${first.replaceAll('"', '""')}"` : first;
    lines.push([quoted, `Bulk ${row}`, email, userName, '', '', ''].join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

test.beforeAll(async ({ request }) => {
  const token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  await createAccountThroughApi(request, token, {
    name: ACCOUNT,
    locale: 'en_US',
    type: 'standard',
    service_period: { to: dateInDays(60) },
    administrator: {
      first_name: 'Harbour',
      last_name: `Admin ${run}`,
      email: `harbour-${run}@example.com`,
      user_name: `harbour-${run}`,
      password: 'Harbour-Admin-2026!x',
      repeatedPassword: 'Harbour-Admin-2026!x',
    },
  });
});

test('the system administrator creates 47 of 50 users from a CSV file with three bad rows and reads the report', async ({
  page,
  mailbox,
}) => {
  test.setTimeout(120_000);

  await test.step('the system administrator signs in and opens Bulk create', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await openBulkCreate(page);
  });

  await test.step('chooses the account, a default role and the file, and has it checked', async () => {
    await chooseAccount(page, ACCOUNT);
    await tickDefaultRole(page, 'Account administrator');
    await chooseFile(page, `people-${run}.csv`, bulkFile());
    await checkFile(page);
    await expect(page.getByText(`people-${run}.csv: 50 rows, 47 valid, 3 invalid.`)).toBeVisible();
    await expect(rowsTable(page)).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('the invalid rows show each reason by column', async () => {
    await showInvalidRows(page);
    const rows = rowsTable(page).getByRole('row');
    await expect(rows).toHaveCount(4);
    await expect(rows.nth(1)).toContainText('email: Invalid email.');
    await expect(rows.nth(2)).toContainText(
      'user_name: This user name is already used by an earlier row of the file. (row 1)',
    );
    await expect(rows.nth(3)).toContainText('first_name: This cell starts like a spreadsheet formula');
    await assertAccessible(page);
  });

  await test.step('a reload keeps the check, and the valid rows are created', async () => {
    await page.reload();
    await expect(page.getByText(`people-${run}.csv: 50 rows, 47 valid, 3 invalid.`)).toBeVisible();
    await startCreating(page, 47);
    await expect(page.getByRole('progressbar', { name: 'Creating users' })).toBeVisible();
    expect(await waitUntilFinished(page)).toBe('Finished: 47 created, 0 failed.');
  });

  await test.step('the report names every row with its outcome', async () => {
    const { fileName, text } = await downloadReport(page);
    expect(fileName).toMatch(/^bulk-users-report-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...records] = parseCsv(text);
    expect(header).toEqual([...BULK_REPORT_CSV_COLUMNS]);
    expect(records).toHaveLength(USERS);
    const outcomes = Object.fromEntries(records.map((record) => [Number(record[0]), record[6]]));
    for (let row = 1; row <= USERS; row += 1) {
      expect(outcomes[row], `row ${row}`).toBe(row in BAD_ROWS ? 'invalid' : 'created');
    }
    const reasons = Object.fromEntries(records.map((record) => [Number(record[0]), record[7]]));
    expect(reasons[7]).toBe('email: The e-mail address is not valid. [invalidEmail]');
    expect(reasons[23]).toBe('user_name: Row 1 of the file already has this user name. [duplicateInFile]');
    expect(reasons[41]).toContain('[formulaCell]');
    expect(records.filter((record) => record[8] !== '')).toHaveLength(47);
  });

  await test.step('each created user is invited, in the mail the server sent', async () => {
    const mail = await mailbox.waitForMail(`bulk-${run}-50@example.com`, (message) =>
      (message.text ?? '').includes('/verify/'),
    );
    expect(mail.text).toContain(`bulk-${run}-50`);
  });

  await test.step('the new users are in the administrators list, pending their invitation', async () => {
    await page.getByRole('link', { name: 'Go to administrators' }).click();
    await expect(page).toHaveURL((url) => url.pathname.endsWith('/access/administrators'));
    await page.getByRole('searchbox', { name: /Search/ }).fill(`bulk-${run}`);
    await expect(page.getByText('47 administrators')).toBeVisible();
  });
});
