import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONSOLE_BASE_PATH } from '../contract/paths.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { assertOnAdministratorDetails } from './pages/administrators.ts';
import { setChecked } from './pages/controls.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { ADMINISTRATOR, ADMINISTRATOR_DISPLAY_NAME } from './support/administrator.ts';

/** The PKCS#12 file's password: typed twice in the browser, never sent. */
const FILE_PASSWORD = `correct horse ${Date.now().toString(36)}`;

test('an administrator generates a client certificate in the browser, downloads it, disables, enables and revokes it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const scratch = mkdtempSync(path.join(tmpdir(), 'client-auth-e2e-'));
  const table = page.getByRole('region', { name: 'Client certificates table' }).getByRole('table');
  // Newest first: the first row below the header is the certificate this story made.
  const newest = table.getByRole('row').nth(1);
  const toggle = newest.getByRole('switch', { name: `Enabled: ${ADMINISTRATOR.username}` });

  try {
    await test.step('the administrator opens their client certificates from their details', async () => {
      await goToSignIn(page);
      await assertOnSignIn(page);
      await fillSignInSteps(page, ADMINISTRATOR);
      await assertOnAccounts(page);
      await page.goto(`${CONSOLE_BASE_PATH}/profile/details`);
      await assertOnAdministratorDetails(page, ADMINISTRATOR_DISPLAY_NAME);
      const section = page.getByRole('region', { name: 'Client certificates' });
      await section.getByRole('link', { name: 'Manage client certificates' }).click();
      await expect(
        page.getByRole('heading', { name: `Client certificates of ${ADMINISTRATOR.username}`, level: 1 }),
      ).toBeVisible();
      await assertAccessible(page);
    });

    await test.step('generating makes the key in the browser and offers a PKCS#12 file that opens with the password', async () => {
      await page.getByRole('button', { name: 'Generate certificate' }).click();
      const dialog = page.getByRole('dialog', { name: 'Generate certificate' });
      await expect(dialog.getByLabel('Key type')).toHaveValue('RSA-2048');
      await dialog.getByLabel('File password', { exact: true }).fill(FILE_PASSWORD);
      await dialog.getByLabel('Repeat file password').fill(FILE_PASSWORD);
      await assertAccessible(page);
      await dialog.getByRole('button', { name: 'Generate' }).click();

      const ready = page.getByRole('alertdialog', { name: 'Download your certificate' });
      await expect(ready).toBeVisible({ timeout: 30_000 });
      await assertAccessible(page);
      const downloading = page.waitForEvent('download');
      await ready.getByRole('link', { name: /^Download .*\.p12$/ }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe(`${ADMINISTRATOR.username}.p12`);
      const file = path.join(scratch, 'client.p12');
      await download.saveAs(file);
      const info = spawnSync(
        'openssl',
        ['pkcs12', '-info', '-nokeys', '-in', file, '-passin', `pass:${FILE_PASSWORD}`],
        {
          encoding: 'utf8',
        },
      );
      expect(info.status, info.stderr).toBe(0);
      expect(`${info.stdout}${info.stderr}`).toContain('PBES2, PBKDF2, AES-256-CBC');
      expect(info.stdout).toContain(`CN = ${ADMINISTRATOR.username}`);
      const key = spawnSync(
        'openssl',
        ['pkcs12', '-in', file, '-nocerts', '-nodes', '-passin', `pass:${FILE_PASSWORD}`],
        {
          encoding: 'utf8',
        },
      );
      expect(key.stdout).toContain('BEGIN PRIVATE KEY');
      await ready.getByRole('button', { name: 'Done' }).click();
      await expect(ready).toBeHidden();
    });

    await test.step('it is listed as issued and enabled', async () => {
      await expect(newest.getByRole('rowheader', { name: ADMINISTRATOR.username })).toBeVisible();
      await expect(newest.getByText('Generated')).toBeVisible();
      await expect(newest.getByText('Issued', { exact: true })).toHaveClass(/certificate-status--issued/);
      await expect(toggle).toBeChecked();
      await assertAccessible(page);
    });

    await test.step('it is disabled and enabled again with its switch', async () => {
      await setChecked(toggle, false);
      await expect(page.getByText(`Certificate ${ADMINISTRATOR.username} disabled.`)).toBeVisible();
      await page.reload();
      await expect(toggle).not.toBeChecked();
      await setChecked(toggle, true);
      await expect(page.getByText(`Certificate ${ADMINISTRATOR.username} enabled.`)).toBeVisible();
      await page.reload();
      await expect(toggle).toBeChecked();
    });

    await test.step('revoked on its certificate page, its status in the list turns red', async () => {
      await newest.getByRole('link', { name: ADMINISTRATOR.username }).click();
      await expect(page.getByRole('heading', { name: ADMINISTRATOR.username, level: 1 })).toBeVisible();
      await page.getByRole('button', { name: 'Revoke', exact: true }).click();
      const dialog = page.getByRole('alertdialog', { name: `Revoke ${ADMINISTRATOR.username}?` });
      await dialog.getByLabel('Reason').selectOption('keyCompromise');
      await setChecked(dialog.getByRole('checkbox', { name: /I understand/ }), true);
      await dialog.getByRole('button', { name: 'Revoke certificate' }).click();
      await expect(dialog).toBeHidden();
      await page.goBack();
      await expect(
        page.getByRole('heading', { name: `Client certificates of ${ADMINISTRATOR.username}`, level: 1 }),
      ).toBeVisible();
      await expect(newest.getByText('Revoked', { exact: true })).toHaveClass(/certificate-status--revoked/);
      await assertAccessible(page);
    });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});
