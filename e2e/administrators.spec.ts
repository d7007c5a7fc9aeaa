import { expect, test } from './fixtures.ts';
import { exportCsv } from './pages/accounts.ts';
import {
  administratorRow,
  assertAdministratorsListed,
  assertOnAdministratorDetails,
  clickBack,
  filterByStatus,
  listedNames,
  openAdministrator,
  openAdministratorsFromNavigation,
  search,
  sortBy,
} from './pages/administrators.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { createAccountThroughApi, dateInDays, signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { parseCsv } from './support/csv.ts';

/** Names unique to this run, so a scenario repeated on the same server finds only its own people. */
const run = Date.now().toString(36);

/** The first administrators of two accounts made through the API; their last names sort Alpha, Beta. */
const PEOPLE = [
  { account: `Lighthouse Alpha ${run}`, first: 'Marie', last: `Alpha ${run}`, userName: `alpha-${run}` },
  { account: `Lighthouse Beta ${run}`, first: 'Marie', last: `Beta ${run}`, userName: `beta-${run}` },
] as const;
const fullName = (person: (typeof PEOPLE)[number]) => `${person.first} ${person.last}`;

test.beforeAll(async ({ request }) => {
  const token = await signInThroughApi(request, {
    username: ADMINISTRATOR.username,
    password: ADMINISTRATOR.password,
  });
  for (const person of PEOPLE) {
    await createAccountThroughApi(request, token, {
      name: person.account,
      locale: 'en_US',
      type: 'standard',
      service_period: { to: dateInDays(60) },
      administrator: {
        first_name: person.first,
        last_name: person.last,
        email: `${person.userName}@example.com`,
        user_name: person.userName,
        password: 'Lighthouse-Admin-2026!x',
        repeatedPassword: 'Lighthouse-Admin-2026!x',
      },
    });
  }
});

test('the system administrator finds, filters, sorts and exports administrators, opens one and goes back', async ({
  page,
}) => {
  test.setTimeout(90_000);

  await test.step('the system administrator signs in and opens Access › Administrators', async () => {
    await goToSignIn(page);
    await assertOnSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await openAdministratorsFromNavigation(page);
    await assertAdministratorsListed(page);
  });

  await test.step('a search finds the two administrators made through the API, with their accounts', async () => {
    await search(page, run);
    await expect(page.getByText('2 administrators')).toBeVisible();
    await expect(page).toHaveURL((url) => url.searchParams.get('q') === run);
    for (const person of PEOPLE) {
      await expect(administratorRow(page, fullName(person))).toContainText(person.account);
    }
    await assertAdministratorsListed(page);
  });

  await test.step('a status filter and a sort are kept in the address', async () => {
    await filterByStatus(page, 'Disabled');
    await expect(page.getByText('No administrators match these filters.')).toBeVisible();
    await assertAdministratorsListed(page);
    await filterByStatus(page, 'Active');
    await expect(page.getByText('2 administrators')).toBeVisible();
    await sortBy(page, 'Name');
    await expect(page).toHaveURL((url) => url.searchParams.get('sort') === 'name:desc');
    await expect.poll(() => listedNames(page)).toEqual([fullName(PEOPLE[1]), fullName(PEOPLE[0])]);
    await assertAdministratorsListed(page);
  });

  await test.step('the export holds what the list shows, in its order', async () => {
    const { fileName, text } = await exportCsv(page);
    expect(fileName).toMatch(/\.csv$/);
    const [header = [], ...records] = parseCsv(text);
    const userName = header.indexOf('user_name');
    expect(userName).toBeGreaterThanOrEqual(0);
    expect(records.map((record) => record[userName])).toEqual([PEOPLE[1].userName, PEOPLE[0].userName]);
  });

  await test.step('one administrator’s details open, and Back returns to the filtered list', async () => {
    await openAdministrator(page, fullName(PEOPLE[0]));
    await assertOnAdministratorDetails(page, fullName(PEOPLE[0]));
    await expect(page.getByText(PEOPLE[0].userName).first()).toBeVisible();
    await clickBack(page);
    await assertAdministratorsListed(page);
    await expect(page).toHaveURL(
      (url) => url.searchParams.get('status') === 'active' && url.searchParams.get('sort') === 'name:desc',
    );
    await expect.poll(() => listedNames(page)).toEqual([fullName(PEOPLE[1]), fullName(PEOPLE[0])]);
  });
});
