import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiPaths, CONSOLE_BASE_PATH } from '../contract/paths.ts';
import type { EnrollmentCreated } from '../contract/schemas/enrollments.ts';
import type { Profile } from '../contract/schemas/profile.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { assertOnSignIn, fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import { signInThroughApi } from './support/accounts-api.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { createCsr, createProfileThroughApi } from './support/certificates-api.ts';
import { linkIn } from './support/mailbox.ts';

/** The password of the PKCS#12 file the enrollee's browser writes. */
const P12_PASSWORD = 'enrollee-file-2468';

/** Names unique to this run, so a story repeated on the same server finds only its own enrollments. */
const RUN = Date.now().toString(36);
const DEVICE = `Lab laptop ${RUN}`;
const OTHER_DEVICE = `Spare laptop ${RUN}`;
const TECHNICIAN = `tech-${RUN}@example.com`;
const PROFILE_NAME = `Field laptops ${RUN}`;

/** The enrollment's id and code in a link of the form `…/enrollment/{id}/{code}`. */
function idAndCode(link: string): { id: string; code: string } {
  const [id = '', code = ''] = new URL(link).pathname.split('/').slice(-2);
  return { id, code };
}

/** The public GET the enrollee's page makes with the link's code: its status. */
async function publicStatus(request: APIRequestContext, link: string): Promise<number> {
  const { id, code } = idAndCode(link);
  return (await request.get(apiPaths.enrollments.byCode(id, code))).status();
}

async function shownLink(page: Page): Promise<string> {
  const field = page.getByLabel('Enrollment link', { exact: true });
  await expect(field).toBeVisible();
  return field.inputValue();
}

test('a system administrator enrolls a device, resends its link, cancels another enrollment and enrolls a person from their page', async ({
  page,
  request,
  mailbox,
}) => {
  let accountName = '';
  let otherId = '';
  let profileId = '';
  let viewer: Profile | undefined;

  await test.step('the account has a certificate profile and a second enrollment, through the API', async () => {
    const token = await signInThroughApi(request, {
      username: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
    });
    const headers = { Authorization: `Bearer ${token}` };
    viewer = (await (await request.get(apiPaths.profile, { headers })).json()) as Profile;
    const profile = await createProfileThroughApi(request, token, viewer.primary_account_id, PROFILE_NAME);
    accountName = profile.account_name;
    profileId = profile.id;
    const response = await request.post(apiPaths.enrollments.create, {
      headers,
      data: {
        account_id: viewer.primary_account_id,
        profile_id: profile.id,
        seat: { kind: 'device', name: OTHER_DEVICE, email: TECHNICIAN },
      },
    });
    expect(response.status(), await response.text()).toBe(201);
    otherId = ((await response.json()) as EnrollmentCreated).enrollment.id;
  });

  await goToSignIn(page);
  await assertOnSignIn(page);
  await fillSignInSteps(page, ADMINISTRATOR);
  await assertOnAccounts(page);

  let firstLink = '';
  await test.step('New enrollment of a device shows the link once, and the mailbox receives it', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Enrollments' }).click();
    await expect(page.getByRole('heading', { name: 'Enrollments', level: 1 })).toBeVisible();
    await page.getByRole('link', { name: 'New enrollment' }).click();
    await expect(page.getByRole('heading', { name: 'New enrollment', level: 1 })).toBeVisible();
    await page.getByLabel('Account', { exact: true }).selectOption({ label: accountName });
    await page.getByLabel('Enroll', { exact: true }).selectOption('device');
    await page.getByLabel('Device name').fill(DEVICE);
    await page.getByLabel("Technician's e-mail").fill(TECHNICIAN);
    await page.getByLabel('Certificate profile').selectOption({ label: PROFILE_NAME });
    await assertAccessible(page);
    await page.getByRole('button', { name: 'Enroll and send the link' }).click();
    await expect(
      page.getByRole('heading', { name: `Enrollment for ${DEVICE} created`, level: 1 }),
    ).toBeVisible();
    firstLink = await shownLink(page);
    await expect(page.getByText(`It was also mailed to ${TECHNICIAN}`)).toBeVisible();
    await assertAccessible(page);
    const { id } = idAndCode(firstLink);
    const mail = await mailbox.waitForMail(TECHNICIAN, (message) => (message.text ?? '').includes(id));
    expect(linkIn(mail).href).toBe(firstLink);
    expect(await publicStatus(request, firstLink)).toBe(200);
    await page.getByRole('button', { name: 'Go to the enrollment' }).click();
  });

  await test.step('Resend makes a new link and the first one stops opening', async () => {
    await expect(page.getByRole('heading', { name: `Enrollment for ${DEVICE}`, level: 1 })).toBeVisible();
    await expect(page.getByLabel('Enrollment link', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Resend the link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Resend the enrollment link?' });
    await dialog.getByRole('button', { name: 'Resend', exact: true }).click();
    const secondLink = await shownLink(page);
    expect(secondLink).not.toBe(firstLink);
    await assertAccessible(page);
    const mail = await mailbox.waitForMail(TECHNICIAN, (message) =>
      (message.text ?? '').includes(secondLink),
    );
    expect(linkIn(mail).href).toBe(secondLink);
    expect(await publicStatus(request, firstLink)).toBe(404);
    expect(await publicStatus(request, secondLink)).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
  });

  await test.step('the other enrollment is cancelled from its page', async () => {
    await page.goto(`${CONSOLE_BASE_PATH}/ca/enrollments?q=${encodeURIComponent(OTHER_DEVICE)}`);
    const row = page
      .getByRole('table', { name: 'Enrollments' })
      .getByRole('row')
      .filter({ hasText: OTHER_DEVICE });
    await expect(row).toHaveCount(1);
    await row.getByRole('link', { name: OTHER_DEVICE }).click();
    await expect(page).toHaveURL(new RegExp(`/ca/enrollments/${otherId}$`));
    await page.getByRole('button', { name: 'Cancel the enrollment' }).click();
    const dialog = page.getByRole('alertdialog', { name: `Cancel the enrollment for ${OTHER_DEVICE}?` });
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await dialog.getByRole('button', { name: 'Cancel the enrollment' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.locator('.list-heading').getByText('Cancelled', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Cancel the enrollment' })).toHaveCount(0);
  });

  await test.step('the account page lists its enrollments, and the administrator is enrolled from their page', async () => {
    const { id: userId, primary_account_id: accountId, first_name, last_name } = viewer as Profile;
    await page.goto(`${CONSOLE_BASE_PATH}/accounts/${accountId}`);
    const section = page.locator('.enrollments-section');
    await expect(section.getByRole('link', { name: DEVICE })).toBeVisible();
    await expect(section.getByRole('link', { name: 'New enrollment' })).toHaveAttribute(
      'href',
      `${CONSOLE_BASE_PATH}/ca/enrollments/create?account=${accountId}`,
    );
    await assertAccessible(page);
    await page.goto(`${CONSOLE_BASE_PATH}/access/administrators/${userId}`);
    await page.getByRole('link', { name: 'Enroll a certificate' }).click();
    await expect(page.getByLabel('Person', { exact: true })).toHaveValue(userId);
    await page.getByLabel('Certificate profile').selectOption({ label: PROFILE_NAME });
    await page.getByRole('button', { name: 'Enroll and send the link' }).click();
    const name = `${first_name} ${last_name}`;
    await expect(
      page.getByRole('heading', { name: `Enrollment for ${name} created`, level: 1 }),
    ).toBeVisible();
    await page.goto(`${CONSOLE_BASE_PATH}/access/administrators/${userId}`);
    const enrollments = page.getByRole('region', { name: 'Enrollments' });
    await expect(enrollments.getByRole('link', { name })).toBeVisible();
    await assertAccessible(page);
  });

  await test.step('a client certificate is asked for the enrolled person, who makes it; the administrator gets no key', async () => {
    const { id: userId, first_name, last_name } = viewer as Profile;
    const name = `${first_name} ${last_name}`;
    await page.goto(`${CONSOLE_BASE_PATH}/access/administrators/${userId}`);
    await page.getByRole('region', { name: 'Enrollments' }).getByRole('link', { name }).first().click();
    await page.getByRole('button', { name: 'Ask for a client certificate' }).click();
    const dialog = page.getByRole('dialog', { name: `Ask ${name} for a client certificate?` });
    await expect(dialog).toContainText('its key is made there and never reaches you');
    await assertAccessible(page);
    await dialog.getByRole('button', { name: 'Ask for the certificate' }).click();
    await expect(page.getByText(`Asked for: ${name} makes it through their enrollment link.`)).toBeVisible();
    await expect(page.getByText(`Client certificate of ${name}`)).toBeVisible();
    await expect(page.getByRole('link', { name: /\.p12$/ })).toHaveCount(0);
  });

  await test.step('the person makes the client certificate on their enrollment link; the key stays in their file', async () => {
    const { email, user_name: userName } = viewer as Profile;
    const mail = await mailbox.waitForMail(email, (message) =>
      linkIn(message).pathname.includes('/enrollment/'),
    );
    const link = linkIn(mail);
    await page.goto(`${link.pathname}${link.search}`);
    const offer = page.getByRole('region', { name: 'Client certificate for signing in' });
    await expect(offer).toContainText(`a client certificate in your name (${userName})`);
    await assertAccessible(page);
    await offer.getByRole('button', { name: 'Make my client certificate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Generate certificate' });
    await dialog.getByLabel('File password', { exact: true }).fill(P12_PASSWORD);
    await dialog.getByLabel('Repeat file password').fill(P12_PASSWORD);
    await dialog.getByRole('button', { name: 'Generate' }).click();
    const saved = page.waitForEvent('download');
    await page.getByRole('link', { name: /^Download .*\.p12$/ }).click();
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'enrollee-p12-')), 'client.p12');
    await (await saved).saveAs(file);
    const certificates = execFileSync(
      'openssl',
      ['pkcs12', '-in', file, '-nokeys', '-passin', `pass:${P12_PASSWORD}`],
      {
        encoding: 'utf8',
      },
    );
    // The person's own certificate, its key in the file and nowhere else.
    expect(certificates).toMatch(new RegExp(`subject=.*CN = ${userName}\n`));
    expect(certificates).toContain(`friendlyName: ${userName}`);
    await page.getByRole('button', { name: 'Done' }).click();
    await expect(offer).toContainText(`Your client certificate (${userName}) was made.`);
  });
  await test.step('an enrollee who used their link already gets a link of its own for the client certificate', async () => {
    const { id: userId, email, user_name: userName, primary_account_id: accountId } = viewer as Profile;
    // A session of this step's own: in a full run the story's first API session has been seen to
    // end before this step (see the note on issue 32).
    const session = await signInThroughApi(request, {
      username: ADMINISTRATOR.username,
      password: ADMINISTRATOR.password,
    });
    const headers = { Authorization: `Bearer ${session}` };
    const created = await request.post(apiPaths.enrollments.create, {
      headers,
      data: { account_id: accountId, profile_id: profileId, seat: { kind: 'user', user_id: userId } },
    });
    expect(created.status(), await created.text()).toBe(201);
    const { enrollment, enrollment_url: url } = (await created.json()) as EnrollmentCreated;
    // The enrollee's page, as its API calls: the certificate issued and put away, the link used.
    const { id, code } = idAndCode(url);
    const issued = await request.post(apiPaths.enrollments.certificate(id, code), {
      data: {
        name: `${userName} ${RUN}`,
        end_date: new Date(Date.now() + 300 * 86_400_000).toISOString().slice(0, 10),
        csr: await createCsr(`CN=${userName}`),
        common_name: userName,
        enrollment_method: 'DTA',
        keystore_type: 'DTM_SOFTWARE',
      },
    });
    expect(issued.status(), await issued.text()).toBe(201);
    expect((await request.put(apiPaths.enrollments.redeem(id, code))).status()).toBe(204);

    await page.goto(`${CONSOLE_BASE_PATH}/ca/enrollments/${enrollment.id}`);
    await page.getByRole('button', { name: 'Ask for a client certificate' }).click();
    const name = enrollment.seat.name;
    const dialog = page.getByRole('dialog', { name: `Ask ${name} for a client certificate?` });
    await expect(dialog).toContainText(`so ${name} gets a new link by e-mail for the client certificate`);
    await dialog.getByRole('button', { name: 'Ask for the certificate' }).click();
    await expect(
      page.getByText(`${name} gets an e-mail with a new link to make their client certificate.`),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send the client certificate link again' })).toBeVisible();

    const mail = await mailbox.waitForMail(
      email,
      (message) => message.subject === 'Make your client certificate',
    );
    const link = linkIn(mail);
    expect(link.pathname).not.toContain(code);
    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByRole('heading', { name: 'Your client certificate', level: 1 })).toBeVisible();
    const offer = page.getByRole('region', { name: 'Client certificate for signing in' });
    await expect(offer).toContainText(`a client certificate in your name (${userName})`);
    await expect(offer.getByRole('button', { name: 'Make my client certificate' })).toBeVisible();
    await assertAccessible(page);
  });
});
