// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENT_AUTH_POLICY } from '../../../../contract/certificate-policy.ts';
import { BUILT_IN_ROLES } from '../../../../contract/permissions.ts';
import type { Enrollment, EnrollmentStatus } from '../../../../contract/schemas/enrollments.ts';
import type { UserSummary } from '../../../../contract/schemas/users.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { ACCOUNT_ID, customerFixture, profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';
import { ENROLLMENT_ID, enrollment, PROFILE_ID } from './enrollments-support.ts';

afterEach(() => toaster.remove());

const V1 = '/account/ui-api/v1';
const V2 = '/account/ui-api/v2';
const PERSON_ID = '7c9e1a3b-5d7f-4a1c-b3e5-d7f9a1c3e5a7';
const LINK = `http://localhost/account/enrollment/${ENROLLMENT_ID}/ABCDEFGHIJKLMNOPQRSTUVWXYZ`;
const NEW_LINK = `http://localhost/account/enrollment/${ENROLLMENT_ID}/ZYXWVUTSRQPONMLKJIHGFEDCBA`;

const person: UserSummary = {
  id: PERSON_ID,
  first_name: 'Grace',
  last_name: 'Hopper',
  user_name: 'grace',
  email: 'grace@example.com',
  access_scope: 'account',
  primary_account: { id: ACCOUNT_ID, name: 'Example Corp' },
  status: 'active',
  email_verified: true,
  roles: [],
  last_sign_in_at: null,
  created_at: '2026-11-01T00:00:00.000Z',
  version: 1,
};

function enrollmentsApi(
  options: {
    permissions?: readonly string[];
    record?: () => Enrollment;
    handlers?: Parameters<typeof mockApi>[0];
    items?: Enrollment[];
  } = {},
) {
  const profile = profileFixture({ access_scope: 'account', primary_account_id: ACCOUNT_ID });
  const listQueries: URLSearchParams[] = [];
  const items = options.items ?? [
    enrollment(),
    enrollment({
      id: 'issued-1',
      status: 'issued',
      seat: { ...enrollment().seat, id: 'seat-2', kind: 'user', user_id: PERSON_ID, name: 'Grace Hopper' },
    }),
  ];
  const api = mockApi({
    ...signedInHandlers(profile, options.permissions ?? BUILT_IN_ROLES.account_administrator.permissions),
    [`GET ${V1}/enrollments`]: ({ url }) => {
      listQueries.push(url.searchParams);
      return json({ items, total: items.length });
    },
    [`GET ${V2}/enrollment/${ENROLLMENT_ID}`]: () => json(options.record?.() ?? enrollment()),
    [`GET ${V1}/user`]: () => json({ items: [person], total: 1 }),
    [`GET ${V1}/account/${ACCOUNT_ID}/profile`]: () =>
      json({
        items: [
          {
            id: PROFILE_ID,
            account_id: ACCOUNT_ID,
            account_name: 'Example Corp',
            name: 'Laptops',
            description: '',
            cert_type: 'end_entity',
            policy: CLIENT_AUTH_POLICY,
            created_at: '2026-11-01T00:00:00.000Z',
            updated_at: '2026-11-01T00:00:00.000Z',
            version: 1,
          },
        ],
        total: 1,
      }),
    ...options.handlers,
  });
  return { ...api, listQueries };
}

describe('Certificate authority › Enrollments', () => {
  it('lists enrollments with seat, account, profile and status, reading its query from the address', async () => {
    const { listQueries } = enrollmentsApi();
    renderApp('/account/ca/enrollments?status=pending&q=lab&sort=seat_name:asc&page=1');
    const table = await screen.findByRole('table', { name: 'Enrollments' });
    expect(Object.fromEntries(listQueries[0] ?? [])).toEqual({
      limit: '20',
      offset: '0',
      sort: 'seat_name:asc',
      search: 'lab',
      status: 'pending',
    });
    const headers = [...table.querySelectorAll('thead th')].map((header) =>
      header.textContent?.replace(/[▲▼↕]/g, '').trim(),
    );
    expect(headers).toEqual(['Person or device', 'Account', 'Profile', 'Status', 'Created', 'Link expires']);
    const link = within(table).getByRole('link', { name: 'Lab laptop 7' });
    expect(link.getAttribute('href')).toBe(`/account/ca/enrollments/${ENROLLMENT_ID}`);
    expect(within(table).getByText('Device')).toBeTruthy();
    expect(within(table).getByText('Person')).toBeTruthy();
    expect(within(table).getByText('Issued', { selector: '.enrollment-status--issued' })).toBeTruthy();
    expect((screen.getByLabelText('Status') as HTMLSelectElement).value).toBe('pending');
    await userEvent.setup().selectOptions(screen.getByLabelText('Status'), 'expired');
    await waitFor(() => expect(listQueries.at(-1)?.get('status')).toBe('expired'));
    expect(listQueries.at(-1)?.get('search')).toBe('lab');
    // Account administrators see one account: no account filter.
    expect(screen.queryByLabelText('Account')).toBeNull();
    expect(screen.getByRole('link', { name: 'New enrollment' }).getAttribute('href')).toBe(
      '/account/ca/enrollments/create',
    );
  });

  it('says so when nobody is enrolled, and hides New enrollment from those who only view', async () => {
    enrollmentsApi({ items: [], permissions: ['VIEW_ENROLLMENT'] });
    renderApp('/account/ca/enrollments');
    expect(await screen.findByText('There are no enrollments you can see.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'New enrollment' })).toBeNull();
  });
});

describe('New enrollment', () => {
  it('checks the form with the contract, then shows the link once and leads to the enrollment', async () => {
    const created = enrollment();
    const { calls } = enrollmentsApi({
      handlers: {
        [`POST ${V2}/enrollment`]: () => json({ enrollment: created, enrollment_url: LINK }, 201),
      },
    });
    const isCreate = (call: { method: string; path: string }) =>
      call.method === 'POST' && call.path === `${V2}/enrollment`;
    renderApp('/account/ca/enrollments/create');
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'New enrollment', level: 1 });
    await screen.findByLabelText(/^Person/);
    await screen.findByLabelText(/^Certificate profile/);
    // One profile: it is chosen already. A person is not.
    await user.click(screen.getByRole('button', { name: 'Enroll and send the link' }));
    expect(await screen.findByText('This field is required.')).toBeTruthy();
    expect(calls.some(isCreate)).toBe(false);

    await user.selectOptions(screen.getByLabelText(/^Enroll/), 'device');
    await user.type(screen.getByLabelText(/^Device name/), 'Lab laptop 7');
    await user.type(screen.getByLabelText(/^Technician's e-mail/), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Enroll and send the link' }));
    await waitFor(() =>
      expect(screen.getByLabelText(/^Technician's e-mail/).getAttribute('aria-invalid')).toBe('true'),
    );
    expect(calls.some(isCreate)).toBe(false);

    await user.clear(screen.getByLabelText(/^Technician's e-mail/));
    await user.type(screen.getByLabelText(/^Technician's e-mail/), 'tech@example.com');
    await user.click(screen.getByRole('button', { name: 'Enroll and send the link' }));
    await screen.findByRole('heading', { name: 'Enrollment for Lab laptop 7 created' });
    const post = calls.find(isCreate);
    expect(post?.body).toEqual({
      account_id: ACCOUNT_ID,
      profile_id: PROFILE_ID,
      seat: { kind: 'device', name: 'Lab laptop 7', email: 'tech@example.com' },
    });
    expect((screen.getByLabelText('Enrollment link') as HTMLInputElement).value).toBe(LINK);
    expect(screen.getByText(/also mailed to tech@example.com and works for 7 days/)).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Go to the enrollment' }));
    await screen.findByRole('heading', { name: 'Enrollment for Lab laptop 7', level: 1 });
    expect(screen.queryByDisplayValue(LINK)).toBeNull();
  });

  it('replaces the person select when the account changes, offering the new account’s people only', async () => {
    const OTHER_ACCOUNT = '5a7c9e1b-3d5f-4b7d-9f1b-3d5f7b9d1f3b';
    const colleague: UserSummary = {
      ...person,
      id: '9e1b3d5f-7a9c-4e1b-8d5f-7a9c1e3b5d7f',
      first_name: 'Katherine',
      last_name: 'Johnson',
      email: 'katherine@example.com',
    };
    enrollmentsApi({
      handlers: {
        ...signedInHandlers(
          profileFixture({ access_scope: 'partner', primary_account_id: ACCOUNT_ID }),
          BUILT_IN_ROLES.partner_administrator.permissions,
        ),
        [`GET ${V1}/tenants`]: () =>
          json({
            items: [
              customerFixture({ id: ACCOUNT_ID, name: 'Example Corp', display_name: 'Example Corp' }),
              customerFixture({ id: OTHER_ACCOUNT, name: 'Northwind', display_name: 'Northwind' }),
            ],
            total: 2,
          }),
        [`GET ${V1}/user`]: ({ url }) =>
          json(
            url.searchParams.get('account_id') === OTHER_ACCOUNT
              ? { items: [colleague], total: 1 }
              : { items: [person], total: 1 },
          ),
        [`GET ${V1}/account/${OTHER_ACCOUNT}/profile`]: () => json({ items: [], total: 0 }),
      },
    });
    renderApp(`/account/ca/enrollments/create?account=${ACCOUNT_ID}`);
    const user = userEvent.setup();
    await screen.findByRole('option', { name: /Grace Hopper/ });
    const form = within(
      screen.getByRole('heading', { name: 'New enrollment', level: 1 }).closest('section') as HTMLElement,
    );
    await user.selectOptions(form.getByLabelText(/^Account/), OTHER_ACCOUNT);
    await screen.findByRole('option', { name: /Katherine Johnson/ });
    await waitFor(() => expect(screen.queryByRole('option', { name: /Grace Hopper/ })).toBeNull());
    expect(form.getAllByLabelText(/^Person/)).toHaveLength(1);
    expect(form.getAllByLabelText(/^Certificate profile/)).toHaveLength(1);
  });

  it('leads to a new certificate profile when the account has none, for those who may make one', async () => {
    const noProfiles = { [`GET ${V1}/account/${ACCOUNT_ID}/profile`]: () => json({ items: [], total: 0 }) };
    enrollmentsApi({ handlers: noProfiles });
    const view = renderApp(`/account/ca/enrollments/create?account=${ACCOUNT_ID}`);
    const link = await screen.findByRole('link', { name: 'Create a certificate profile' });
    expect(link.getAttribute('href')).toBe('/account/ca/profiles/create');
    view.unmount();

    enrollmentsApi({
      handlers: noProfiles,
      permissions: BUILT_IN_ROLES.account_administrator.permissions.filter(
        (permission) => permission !== 'MANAGE_PROFILE',
      ),
    });
    renderApp(`/account/ca/enrollments/create?account=${ACCOUNT_ID}`);
    expect(
      await screen.findByText('This account has no certificate profiles: create one first.'),
    ).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Create a certificate profile' })).toBeNull();
  });

  it('starts with the person and account the address names', async () => {
    enrollmentsApi();
    renderApp(`/account/ca/enrollments/create?account=${ACCOUNT_ID}&user=${PERSON_ID}`);
    const select = (await screen.findByLabelText(/^Person/)) as HTMLSelectElement;
    expect(select.value).toBe(PERSON_ID);
  });
});

describe('One enrollment', () => {
  const statusRecord = (status: EnrollmentStatus) => () =>
    enrollment({
      status,
      ...(status === 'issued' || status === 'redeemed'
        ? { certificate_id: 'cert-1', enrollment_method: 'DTA', keystore_type: 'DTM_SOFTWARE' }
        : {}),
    });

  it.each([
    ['pending', ['Resend the link', 'Cancel the enrollment']],
    ['expired', ['Resend the link']],
    ['issued', ['Revoke certificate']],
    ['redeemed', ['Revoke certificate']],
    ['cancelled', []],
  ] as const)('offers to a manager of a %s enrollment: %j', async (status, actions) => {
    enrollmentsApi({ record: statusRecord(status) });
    renderApp(`/account/ca/enrollments/${ENROLLMENT_ID}`);
    await screen.findByRole('heading', { name: 'Enrollment for Lab laptop 7', level: 1 });
    for (const name of ['Resend the link', 'Cancel the enrollment', 'Revoke certificate']) {
      expect(Boolean(screen.queryByRole('button', { name }))).toBe(actions.some((action) => action === name));
    }
  });

  it('offers nothing to change to those who only view, and links the issued certificate', async () => {
    enrollmentsApi({ permissions: ['VIEW_ENROLLMENT'], record: statusRecord('issued') });
    renderApp(`/account/ca/enrollments/${ENROLLMENT_ID}`);
    await screen.findByRole('heading', { name: 'Enrollment for Lab laptop 7', level: 1 });
    expect(screen.queryByRole('button', { name: 'Revoke certificate' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Open the issued certificate' }).getAttribute('href')).toBe(
      '/account/ca/certificates/cert-1',
    );
    expect(screen.getByText('DTM_SOFTWARE')).toBeTruthy();
    // A count for the administrator to notice guessing, not a limit that stops the link.
    expect(screen.getByText('Wrong codes').nextElementSibling?.textContent).toBe('2');
  });

  it('resends on the version shown and shows the new link once', async () => {
    const { calls } = enrollmentsApi({
      handlers: {
        [`POST ${V2}/enrollment/${ENROLLMENT_ID}/resend`]: () =>
          json({ enrollment: enrollment({ version: 5 }), enrollment_url: NEW_LINK }),
      },
    });
    renderApp(`/account/ca/enrollments/${ENROLLMENT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Resend the link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resend the enrollment link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Resend' }));
    const link = (await screen.findByLabelText('Enrollment link')) as HTMLInputElement;
    expect(link.value).toBe(NEW_LINK);
    const post = calls.find((call) => call.path.endsWith('/resend'));
    expect(post?.headers.get('If-Match')).toBe('"4"');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByDisplayValue(NEW_LINK)).toBeNull());
  });

  it('revokes an issued enrollment through DELETE on the version shown, saying the certificate is revoked', async () => {
    const { calls } = enrollmentsApi({
      record: statusRecord('issued'),
      handlers: {
        [`DELETE ${V2}/enrollment/${ENROLLMENT_ID}`]: () => new Response(null, { status: 204 }),
      },
    });
    renderApp(`/account/ca/enrollments/${ENROLLMENT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke certificate' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Revoke the certificate of Lab laptop 7?',
    });
    expect(within(dialog).getByText(/the certificate it issued is revoked/)).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: 'Revoke certificate' }));
    expect(await screen.findByText('Certificate revoked.')).toBeTruthy();
    const remove = calls.find((call) => call.method === 'DELETE');
    expect(remove?.headers.get('If-Match')).toBe('"4"');
  });

  it('asks for the person’s client certificate, which the person makes through the link, and says whose it is', async () => {
    const seat = { ...enrollment().seat, kind: 'user' as const, user_id: PERSON_ID, name: 'Grace Hopper' };
    let asked = false;
    const record = () =>
      enrollment({
        seat,
        client_auth: asked
          ? {
              status: 'requested',
              requested_at: '2026-11-21T09:00:00.000Z',
              client_auth_certificate_id: null,
            }
          : null,
      });
    const { calls } = enrollmentsApi({
      record,
      handlers: {
        [`POST ${V1}/enrollment/${ENROLLMENT_ID}/client-auth-certificate`]: () => {
          asked = true;
          return json(record());
        },
      },
    });
    renderApp(`/account/ca/enrollments/${ENROLLMENT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ask for a client certificate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ask Grace Hopper for a client certificate?' });
    expect(dialog.textContent).toContain('its key is made there and never reaches you');
    await user.click(within(dialog).getByRole('button', { name: 'Ask for the certificate' }));
    expect(
      await screen.findByText(
        'Grace Hopper can now make their client certificate through the enrollment link.',
      ),
    ).toBeTruthy();
    const post = calls.find(
      (call) => call.method === 'POST' && call.path.endsWith('/client-auth-certificate'),
    );
    // No CSR is sent and nothing offers a download: the key and certificate are the enrollee's.
    expect(post).toBeDefined();
    expect(JSON.stringify(post?.body ?? {})).not.toContain('csr');
    expect(
      await screen.findByText('Asked for: Grace Hopper makes it through their enrollment link.'),
    ).toBeTruthy();
    expect(screen.getByText('Client certificate of Grace Hopper')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask for a client certificate' })).toBeNull();
    expect(screen.queryByText(/Download/)).toBeNull();
  });

  it('shows a refused cancellation in our words inside the dialog', async () => {
    enrollmentsApi({
      handlers: {
        [`DELETE ${V2}/enrollment/${ENROLLMENT_ID}`]: () =>
          json({ error: { status: 412, message: 'Precondition failed', code: 'preconditionFailed' } }, 412),
      },
    });
    renderApp(`/account/ca/enrollments/${ENROLLMENT_ID}`);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Cancel the enrollment' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Cancel the enrollment for Lab laptop 7?',
    });
    await user.type(within(dialog).getByLabelText('Type DELETE to confirm'), 'DELETE');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the enrollment' }));
    expect(await within(dialog).findByText('Error 412')).toBeTruthy();
    expect(within(dialog).queryByText('Precondition failed')).toBeNull();
  });
});
