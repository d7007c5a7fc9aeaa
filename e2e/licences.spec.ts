import { expect, test } from './fixtures.ts';
import { assertOnAccountDetails, goToAccountDetails } from './pages/accounts.ts';
import {
  assertHistoryEntries,
  assertLicenceFigures,
  assertLicenceOptions,
  assertQuantityError,
  chooseLicenceChange,
  downloadHistory,
  historyRail,
  licenceCard,
  openLicenceEdit,
  updateLicences,
} from './pages/licences.ts';
import { assertOnAccounts, chooseTheme } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { parseCsv } from './support/csv.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own accounts. */
const run = Date.now().toString(36);

const accounts = { partner: '', customer: '', signing: '' };
const PARTNER_NAME = `Licence Partner ${run}`;
const CUSTOMER_NAME = `Licence Customer ${run}`;
const SIGNING_NAME = `Signing House ${run}`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  const token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  const create = async (name: string, key: string, type: 'standard' | 'partner', partnerId?: string) =>
    createAccountThroughApi(request, token, {
      name,
      locale: 'en_US',
      type,
      ...(partnerId ? { partner_account_id: partnerId } : {}),
      service_period: { to: dateInDays(365) },
      administrator: {
        first_name: 'Licence',
        last_name: 'Keeper',
        email: `${key}.${run}@example.com`,
        user_name: `${key}-${run}`,
        password: 'Licence-Admin-2026!x',
        repeatedPassword: 'Licence-Admin-2026!x',
      },
    });
  accounts.partner = (await create(PARTNER_NAME, 'licence-partner', 'partner')).id;
  accounts.customer = (await create(CUSTOMER_NAME, 'licence-customer', 'standard', accounts.partner)).id;
  accounts.signing = (await create(SIGNING_NAME, 'licence-signing', 'standard')).id;
});

test('a system administrator allocates licences down from a partner, subtracts, resets a document signing account and reads the history', async ({
  page,
}) => {
  test.setTimeout(150_000);

  await test.step('the system administrator signs in', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
  });

  await test.step('the partner gets 100 certificates from the platform', async () => {
    await goToAccountDetails(page, accounts.partner);
    await assertOnAccountDetails(page, PARTNER_NAME);
    await assertLicenceFigures(page, 'Private CA', 'Certificates', { remaining: '0', total: '0', used: '0' });
    const dialog = await openLicenceEdit(page, 'Private CA');
    // Nothing to subtract yet, and no reset without a document signing licence.
    await assertLicenceOptions(dialog, 'Certificates', ['No change', 'Add']);
    await expect(dialog.getByRole('button', { name: 'Update' })).toBeDisabled();
    await chooseLicenceChange(dialog, 'Certificates', 'Add', '100');
    await updateLicences(page, dialog);
    await assertLicenceFigures(page, 'Private CA', 'Certificates', {
      remaining: '100',
      total: '100',
      used: '0',
    });
  });

  await test.step('the customer draws from the partner’s pool, never beyond it, and gives some back', async () => {
    await goToAccountDetails(page, accounts.customer);
    await assertOnAccountDetails(page, CUSTOMER_NAME);
    let dialog = await openLicenceEdit(page, 'Private CA');
    await chooseLicenceChange(dialog, 'Certificates', 'Add', '101');
    await assertQuantityError(dialog, 'Certificates', 'The quantity cannot exceed 100.');
    await chooseLicenceChange(dialog, 'Certificates', 'Add', '07');
    await assertQuantityError(dialog, 'Certificates', 'Enter a positive whole number.');
    await chooseLicenceChange(dialog, 'Certificates', 'Add', '60');
    await updateLicences(page, dialog);
    await assertLicenceFigures(page, 'Private CA', 'Certificates', {
      remaining: '60',
      total: '60',
      used: '0',
    });

    dialog = await openLicenceEdit(page, 'Private CA');
    await assertLicenceOptions(dialog, 'Certificates', ['No change', 'Add', 'Subtract']);
    await chooseLicenceChange(dialog, 'Certificates', 'Subtract', '61');
    await assertQuantityError(dialog, 'Certificates', 'The quantity cannot exceed 60.');
    await chooseLicenceChange(dialog, 'Certificates', 'Subtract', '10');
    await updateLicences(page, dialog);
    await assertLicenceFigures(page, 'Private CA', 'Certificates', {
      remaining: '50',
      total: '50',
      used: '0',
    });
  });

  await test.step('the rail shows the changes by day with who made them, and the chart its figures', async () => {
    await assertHistoryEntries(page, CUSTOMER_NAME, [
      new RegExp(`^Private CA: Certificates -10, new total 50\\s*by ${ADMINISTRATOR.username}$`),
      new RegExp(`^Private CA: Certificates \\+60, new total 60\\s*by ${ADMINISTRATOR.username}$`),
    ]);
    await expect(historyRail(page, CUSTOMER_NAME).getByRole('heading', { level: 3 })).toHaveCount(1);
    const chart = licenceCard(page, 'Private CA').getByRole('figure', { name: 'Allocation over time' });
    await chart.getByText('Chart data as a table').click();
    await expect(chart.getByRole('row')).toHaveText([
      /^DateLicence typeTotal allocated$/,
      /Certificates60$/,
      /Certificates50$/,
    ]);
  });

  await test.step('the history downloads as CSV with every change', async () => {
    const { fileName, text } = await downloadHistory(page, CUSTOMER_NAME);
    expect(fileName).toMatch(new RegExp(`^${CUSTOMER_NAME}_\\d\\d-[A-Z][a-z]{2}-\\d{4}\\.csv$`));
    const [header, ...rows] = parseCsv(text.replace(/^\uFEFF/, ''));
    expect(header).toEqual(['Manager', 'Date', 'Licence type', 'Change', 'New total', 'User']);
    expect(rows.map((row) => [row[0], row[2], row[3], row[4], row[5]])).toEqual([
      ['Private CA', 'Certificates', '+60', '60', ADMINISTRATOR.username],
      ['Private CA', 'Certificates', '-10', '50', ADMINISTRATOR.username],
    ]);
  });

  await test.step('the partner’s pool shows what its account holds', async () => {
    await goToAccountDetails(page, accounts.partner);
    await assertOnAccountDetails(page, PARTNER_NAME);
    await assertLicenceFigures(page, 'Private CA', 'Certificates', {
      remaining: '50',
      total: '100',
      used: '50',
    });
  });

  await test.step('a document signing account resets all but its hardware key-pair units', async () => {
    await goToAccountDetails(page, accounts.signing);
    await assertOnAccountDetails(page, SIGNING_NAME);
    let dialog = await openLicenceEdit(page, 'Document Signing Manager');
    await expect(dialog.getByRole('button', { name: 'Reset all' })).toHaveCount(0);
    await chooseLicenceChange(dialog, 'Document signatures', 'Add', '20');
    await chooseLicenceChange(dialog, 'Hardware key-pair units', 'Add', '5');
    await updateLicences(page, dialog);
    await assertLicenceFigures(page, 'Document Signing Manager', 'Document signatures', {
      remaining: '20',
      total: '20',
      used: '0',
    });

    dialog = await openLicenceEdit(page, 'Document Signing Manager');
    await assertLicenceOptions(dialog, 'Document signatures', ['No change', 'Add', 'Subtract', 'Reset to']);
    await assertLicenceOptions(dialog, 'Hardware key-pair units', ['No change', 'Add', 'Subtract']);
    await dialog.getByRole('button', { name: 'Reset all' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Quantity of Document signatures' })).toHaveValue('0');
    await updateLicences(page, dialog);
    await assertLicenceFigures(page, 'Document Signing Manager', 'Document signatures', {
      remaining: '0',
      total: '0',
      used: '0',
    });
    await assertLicenceFigures(page, 'Document Signing Manager', 'Hardware key-pair units', {
      remaining: '5',
      total: '5',
      used: '0',
    });
    await expect(historyRail(page, SIGNING_NAME).getByRole('listitem').first()).toHaveText(
      /^Document Signing Manager: Document signatures -20, new total 0/,
    );
  });

  await test.step('the licences and their history read in both themes', async () => {
    for (const theme of ['Dark', 'Light'] as const) {
      await chooseTheme(page, theme);
      await assertOnAccountDetails(page, SIGNING_NAME);
      await openLicenceEdit(page, 'Document Signing Manager');
      await page.keyboard.press('Escape');
    }
  });
});
