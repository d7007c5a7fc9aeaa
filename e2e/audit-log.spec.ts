import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { AUDIT_CSV_COLUMNS } from '../contract/audit-csv.ts';
import { ACCOUNTS_LIST_PATH } from '../contract/paths.ts';
import { expect, test } from './fixtures.ts';
import {
  assertOnAccountDetails,
  assertOnEditAccount,
  assertSuccessNotice,
  clickSave,
  fillEditAccount,
} from './pages/accounts.ts';
import {
  assertIntact,
  assertOnLogging,
  changeOf,
  exportLog,
  filterLog,
  LOGGING_PATH,
  loggedRows,
  openFirstEvent,
  openLoggingFromNavigation,
  verifyEvent,
} from './pages/audit-log.ts';
import { assertOnAccounts, chooseTheme } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { parseCsv } from './support/csv.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own accounts. */
const run = Date.now().toString(36);
const ACCOUNT_END = dateInDays(60);
const runCommand = promisify(execFile);

for (const theme of ['Light', 'Dark'] as const) {
  test(`an auditor finds an account's rename in the log, verifies it and exports it in the ${theme.toLowerCase()} theme`, async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const slug = `${theme.toLowerCase()}-${run}`;
    const name = `Audited ${theme} ${run}`;
    const renamed = `${name} renamed`;
    const token = await signInThroughApi(request, {
      username: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
    });
    const account = await createAccountThroughApi(request, token, {
      name,
      locale: 'en_US',
      type: 'standard',
      service_period: { to: ACCOUNT_END },
      administrator: {
        first_name: 'Audited',
        last_name: 'Administrator',
        email: `audited-${slug}@example.com`,
        user_name: `audited-${slug}`,
        password: 'Audited-Admin-2026!x',
        repeatedPassword: 'Audited-Admin-2026!x',
      },
    });

    await test.step('the administrator signs in, chooses the theme and renames the account', async () => {
      await goToSignIn(page);
      await assertOnSignIn(page);
      await fillSignInSteps(page, ADMINISTRATOR);
      await assertOnAccounts(page);
      await chooseTheme(page, theme);
      await page.goto(`${ACCOUNTS_LIST_PATH}/${account.id}/edit`);
      await assertOnEditAccount(page, name);
      await fillEditAccount(page, { name: renamed, endDate: ACCOUNT_END });
      await clickSave(page);
      await assertSuccessNotice(page, 'Account edited.');
      await assertOnAccountDetails(page, renamed);
    });

    await test.step('Reporting › Logging filtered by UPDATE and the account shows the rename', async () => {
      await openLoggingFromNavigation(page);
      await assertOnLogging(page);
      await filterLog(page, 'Action', 'Updated');
      await filterLog(page, 'Account', renamed);
      await expect.poll(async () => (await loggedRows(page)).length).toBe(1);
      const [row] = await loggedRows(page);
      expect(row?.[0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      expect(row?.slice(1, 3)).toEqual(['Updated', 'Success']);
    });

    await test.step('the event shows the name before and after and verifies intact', async () => {
      await openFirstEvent(page);
      expect(await changeOf(page, 'name')).toEqual({ before: name, after: renamed });
      await expect(page.getByRole('link', { name: /^(ada|Ada Lovelace)$/ })).toBeVisible();
      await verifyEvent(page);
      await assertIntact(page);
    });

    await test.step('the filtered log exports as CSV holding that one event', async () => {
      await page.goBack();
      await assertOnLogging(page);
      const { fileName, text } = await exportLog(page, 'CSV');
      expect(fileName).toMatch(/\.csv$/);
      const [header, ...records] = parseCsv(text);
      expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
      expect(records).toHaveLength(1);
      const record = Object.fromEntries(
        AUDIT_CSV_COLUMNS.map((column, index) => [column, records[0]?.[index]]),
      );
      expect(record).toMatchObject({
        action: 'UPDATE',
        status: 'success',
        resource_type: 'ACCOUNT',
        account_id: account.id,
      });
      expect(JSON.parse(record.details ?? '{}')).toEqual({ changes: { name: { from: name, to: renamed } } });
    });

    await test.step('the filtered log exports as JSON Lines that checks out offline, without the server', async () => {
      const { fileName, text } = await exportLog(page, 'JSON Lines');
      expect(fileName).toMatch(/\.jsonl$/);
      const file = test.info().outputPath(fileName);
      await writeFile(file, text);
      const { stdout } = await runCommand('npx', ['tsx', 'scripts/audit-verify.ts', file]);
      expect(stdout).toMatch(/^OK: 1 events, every hash intact/);
    });

    await test.step('the whole log checks out offline against the checkpoints downloaded beside it', async () => {
      await page.goto(LOGGING_PATH);
      await assertOnLogging(page);
      const whole = await exportLog(page, 'JSON Lines');
      const checkpoints = await exportLog(page, 'checkpoints');
      expect(checkpoints.fileName).toMatch(/^audit-checkpoints-.*\.json$/);
      const [file, kept] = [
        test.info().outputPath(whole.fileName),
        test.info().outputPath(checkpoints.fileName),
      ];
      await writeFile(file, whole.text);
      await writeFile(kept, checkpoints.text);
      const { stdout } = await runCommand('npx', ['tsx', 'scripts/audit-verify.ts', file, kept]);
      expect(stdout).toMatch(/^OK: \d+ events, every hash intact/);
    });
  });
}
