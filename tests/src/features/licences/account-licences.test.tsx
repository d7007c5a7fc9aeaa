// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type {
  AccountLicence,
  LicenceHistoryItem,
  LicenceRow,
} from '../../../../contract/schemas/licences.ts';
import { CUSTOMER_ID, profileFixture } from '../../fixtures.ts';
import { json, renderApp } from '../../support.tsx';
import { accountsApi, BASE } from '../accounts/account-details-support.ts';

const DETAILS_PATH = `/account/accounts/${CUSTOMER_ID}`;
const LICENCES = `${BASE}/account/${CUSTOMER_ID}/licenses`;
const DSM = `${BASE}/account/${CUSTOMER_ID}/license/document_signing_manager`;

function dsmLicence(overrides: Partial<AccountLicence> = {}): AccountLicence {
  return {
    id: 'document_signing_manager',
    title: 'Document Signing Manager',
    canEdit: true,
    visible: true,
    version: 3,
    has_dsm_license: true,
    parent: { id: 'p', name: 'Partner Ltd' },
    data: [
      {
        id: 'r1',
        featureId: 'document_signatures',
        licenseType: 'document_signatures',
        remaining: 40,
        overUse: 0,
        used: 10,
        totalAllocated: 50,
        licenseAllocation: 100,
        metered: false,
      },
      {
        id: 'r2',
        featureId: 'hardware_key_pair_units',
        licenseType: 'hardware_key_pair_units',
        remaining: 4,
        overUse: 0,
        used: 0,
        totalAllocated: 4,
        licenseAllocation: 0,
        metered: false,
      },
    ],
    ...overrides,
  };
}

const caLicence: AccountLicence = {
  id: 'ca_manager',
  title: 'Private CA',
  canEdit: false,
  visible: true,
  version: 1,
  has_dsm_license: true,
  parent: { id: 'p', name: 'Partner Ltd' },
  data: [
    {
      id: 'r3',
      featureId: 'certificates',
      licenseType: 'certificates',
      remaining: -1,
      overUse: 0,
      used: 7,
      totalAllocated: -1,
      licenseAllocation: -1,
      metered: true,
    },
  ],
};

const history: LicenceHistoryItem[] = [
  {
    id: 'h2',
    timestamp: '2026-11-21T10:00:00Z',
    date: '2026-11-21',
    actor: 'Ada Admin',
    app_code: 'document_signing_manager',
    feature: 'document_signatures',
    quantity: -5,
    limit: 50,
  },
  {
    id: 'h1',
    timestamp: '2026-11-20T10:00:00Z',
    date: '2026-11-20',
    actor: null,
    app_code: 'document_signing_manager',
    feature: 'document_signatures',
    quantity: 55,
    limit: 55,
  },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The query of the last history request of the rail. */
let historyQuery: URLSearchParams | null = null;

function licencesApi(change: () => Response = () => new Response(null, { status: 204 })) {
  return accountsApi({
    profile: profileFixture({ date_format: 'YYYY-MM-DD' }),
    extra: {
      [`GET ${LICENCES}`]: () => json({ items: [dsmLicence(), caLicence] }),
      [`PUT ${DSM}`]: change,
      [`GET ${BASE}/license/limit/${CUSTOMER_ID}/history`]: ({ url }) => {
        historyQuery = url.searchParams;
        return json({ items: history, total: 12 });
      },
      [`GET ${BASE}/license/limit/${CUSTOMER_ID}/history-details`]: () =>
        json({ items: [...history].reverse(), total: 2 }),
    },
  });
}

async function licencesRegion() {
  const region = await screen.findByRole('region', { name: 'Licences' });
  await within(region).findByRole('article', { name: 'Document Signing Manager' });
  return region;
}

async function openDsmEdit() {
  const user = userEvent.setup();
  const region = await licencesRegion();
  await user.click(within(region).getByRole('button', { name: 'Edit Document Signing Manager licences' }));
  return {
    user,
    dialog: await screen.findByRole('dialog', { name: 'Edit Document Signing Manager licences' }),
  };
}

describe('the licences section', () => {
  it('shows a card per application with type, remaining, total and used, Unlimited for -1, and Edit where allowed', async () => {
    licencesApi();
    renderApp(DETAILS_PATH);
    const region = await licencesRegion();
    const rows = within(region)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toContain('Document signatures405010');
    expect(rows).toContain('CertificatesUnlimitedUnlimited7');
    const ca = within(region).getByRole('article', { name: 'Private CA' });
    expect(within(ca).queryByRole('button', { name: /Edit/ })).toBeNull();
    expect(within(region).getByRole('button', { name: 'View history' })).toBeTruthy();
    // The chart is drawn for assistive technology as a table too.
    const dsm = within(region).getByRole('article', { name: 'Document Signing Manager' });
    expect(within(dsm).getByRole('figure', { name: 'Allocation over time' })).toBeTruthy();
  });

  it('offers the options each row allows, checks the quantity live, and blocks Update until a valid change exists', async () => {
    licencesApi();
    renderApp(DETAILS_PATH);
    const { user, dialog } = await openDsmEdit();
    const signatures = within(dialog).getByRole('group', { name: 'Document signatures' });
    const units = within(dialog).getByRole('group', { name: 'Hardware key-pair units' });
    expect(
      within(signatures)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['noChange', 'add', 'subtract', 'reset']);
    expect(
      within(units)
        .getAllByRole('radio')
        .map((radio) => radio.getAttribute('value')),
    ).toEqual(['noChange', 'subtract']);
    const update = within(dialog).getByRole('button', { name: 'Update' });
    expect(update).toHaveProperty('disabled', true);

    await user.click(within(signatures).getByRole('radio', { name: 'Add' }));
    const quantity = within(signatures).getByRole('textbox', { name: 'Quantity of Document signatures' });
    await user.type(quantity, '101');
    expect(within(signatures).getByText('The quantity cannot exceed 100.')).toBeTruthy();
    expect(quantity.getAttribute('aria-invalid')).toBe('true');
    expect(update).toHaveProperty('disabled', true);
    await user.clear(quantity);
    await user.type(quantity, '1.5');
    expect(within(signatures).getByText('Enter a positive whole number.')).toBeTruthy();
    await user.clear(quantity);
    await user.type(quantity, '25');
    expect(update).toHaveProperty('disabled', false);

    await user.click(within(dialog).getByRole('button', { name: 'Reset all' }));
    expect(within(signatures).getByRole('radio', { name: 'Reset to' })).toHaveProperty('checked', true);
    expect(within(signatures).getByRole('textbox')).toHaveProperty('value', '0');
    expect(within(units).getByRole('radio', { name: 'No change' })).toHaveProperty('checked', true);
  });

  it('sends the change with If-Match, says so, reads the licences again after 500 ms and returns after 1000 ms', async () => {
    const api = licencesApi();
    renderApp(DETAILS_PATH);
    const { user, dialog } = await openDsmEdit();
    const signatures = within(dialog).getByRole('group', { name: 'Document signatures' });
    await user.click(within(signatures).getByRole('radio', { name: 'Subtract' }));
    await user.type(within(signatures).getByRole('textbox'), '5');
    const readsBefore = api.calls.filter((call) => call.method === 'GET' && call.path === LICENCES).length;
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Licence updated.')).toBeTruthy();
    const put = api.calls.find((call) => call.method === 'PUT' && call.path === DSM);
    expect(put?.body).toEqual({
      changes: [{ feature: 'document_signatures', option: 'subtract', quantity: 5 }],
    });
    expect(put?.headers.get('If-Match')).toBe('"3"');
    const sentAt = Date.now();
    await waitFor(
      () =>
        expect(
          api.calls.filter((call) => call.method === 'GET' && call.path === LICENCES).length,
        ).toBeGreaterThan(readsBefore),
      { timeout: 2000 },
    );
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(400);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), { timeout: 2000 });
  });

  it('shows use past the total as over-use on the card, never as a negative or Unlimited remainder', async () => {
    licencesApi();
    const overUsed = dsmLicence();
    overUsed.data = overUsed.data.map((row, index) =>
      index === 0 ? { ...row, totalAllocated: 39, used: 40, remaining: 0, overUse: 1 } : row,
    );
    const api = accountsApi({
      profile: profileFixture({ date_format: 'YYYY-MM-DD' }),
      extra: { [`GET ${LICENCES}`]: () => json({ items: [overUsed] }) },
    });
    renderApp(DETAILS_PATH);
    const region = await licencesRegion();
    const rows = within(region)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(rows).toContain('Document signatures03940');
    expect(
      within(region).getByText(
        'Over licence: 40 Document signatures in use against 39 allocated, 1 more than the licence allows.',
      ),
    ).toBeTruthy();
    expect(api.calls.some((call) => call.path === LICENCES)).toBe(true);
  });

  it('names the applications with nothing allocated and nothing left to give, and why', async () => {
    const empty = dsmLicence({ id: 'device_manager', title: 'IoT Device Manager', visible: false });
    empty.data = [{ ...(empty.data[0] as LicenceRow), featureId: 'iot_devices', totalAllocated: 0, used: 0 }];
    accountsApi({
      profile: profileFixture({ date_format: 'YYYY-MM-DD' }),
      extra: { [`GET ${LICENCES}`]: () => json({ items: [dsmLicence(), empty] }) },
    });
    renderApp(DETAILS_PATH);
    const region = await licencesRegion();
    expect(
      within(region).getByText(
        'Not allocated to this account, and Partner Ltd has none left to give: IoT Device Manager.',
      ),
    ).toBeTruthy();
    expect(within(region).queryByRole('article', { name: 'IoT Device Manager' })).toBeNull();
  });

  it('asks to confirm a reset below the use and sends the confirmation with it', async () => {
    const api = licencesApi();
    renderApp(DETAILS_PATH);
    const { user, dialog } = await openDsmEdit();
    const signatures = within(dialog).getByRole('group', { name: 'Document signatures' });
    await user.click(within(signatures).getByRole('radio', { name: 'Reset to' }));
    await user.type(within(signatures).getByRole('textbox'), '7');
    expect(
      within(signatures).getByText('10 are in use: this total leaves the account 3 over its licence.'),
    ).toBeTruthy();
    const update = within(dialog).getByRole('button', { name: 'Update' });
    expect(update).toHaveProperty('disabled', true);
    await user.click(within(dialog).getByRole('checkbox', { name: /Leave the account over its licence/ }));
    expect(update).toHaveProperty('disabled', false);
    await user.click(update);
    expect(await screen.findByText('Licence updated.')).toBeTruthy();
    const put = api.calls.find((call) => call.method === 'PUT' && call.path === DSM);
    expect(put?.body).toEqual({
      changes: [{ feature: 'document_signatures', option: 'reset', quantity: 7 }],
      confirm_over_use: true,
    });
  });

  it.each([
    [
      'the generic licence error without a code we know',
      { status: 400, message: 'Pool row busy.', code: 'poolBusy' },
      'The licence could not be updated.',
    ],
    [
      'the code’s own sentence when there is one',
      { status: 412, message: 'Version moved.', code: 'preconditionFailed' },
      'Someone else changed this item in the meantime. Reload it and apply your change again.',
    ],
    [
      'the generic licence error without any code',
      { status: 500, message: 'boom' },
      'The licence could not be updated.',
    ],
  ])('shows %s and keeps the dialog open (J-28, J-29)', async (_, error, text) => {
    licencesApi(() => json({ error }, error.status));
    renderApp(DETAILS_PATH);
    const { user, dialog } = await openDsmEdit();
    const signatures = within(dialog).getByRole('group', { name: 'Document signatures' });
    await user.click(within(signatures).getByRole('radio', { name: 'Add' }));
    await user.type(within(signatures).getByRole('textbox'), '1');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText(text)).toBeTruthy();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });
});

describe('an administrator whose roles show no application’s licence', () => {
  it('reads a sentence saying so instead of a refusal, and is offered no history or download', async () => {
    const { calls } = accountsApi({ permissions: ['VIEW_ACCOUNT', 'VIEW_TENANT', 'VIEW_LICENSE'] });
    renderApp(`/account/accounts/${CUSTOMER_ID}`);
    const region = await screen.findByRole('region', { name: 'Licences' });
    expect(
      await within(region).findByText(
        'Your roles show no application’s licence: an administrator can give you one that does.',
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download CSV' })).toBeNull();
    expect(screen.queryByText('You do not have permission to do this.')).toBeNull();
    expect(calls.some((call) => call.path.includes('/license'))).toBe(false);
  });
});

describe('the licence history rail', () => {
  it('shows the latest changes by day with the actor the server gives, and the whole history on request', async () => {
    licencesApi();
    renderApp(DETAILS_PATH);
    const rail = await screen.findByRole('complementary', { name: 'Example Corp licence history' });
    expect(await within(rail).findByRole('heading', { name: '2026-11-21' })).toBeTruthy();
    expect(within(rail).getByRole('heading', { name: '2026-11-20' })).toBeTruthy();
    expect(within(rail).getByText('by Ada Admin')).toBeTruthy();
    expect(within(rail).getAllByText(/^by /)).toHaveLength(1);
    expect(within(rail).getByText('-5, new total 50')).toBeTruthy();
    expect(within(rail).getByText('+55, new total 55')).toBeTruthy();
    // J-41: the ten latest, newest first, dated in the browser's zone.
    expect(Object.fromEntries(historyQuery ?? [])).toEqual({
      limit: '10',
      offset: '0',
      sort: 'timestamp:desc',
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    const user = userEvent.setup();
    await user.click(within(await licencesRegion()).getByRole('button', { name: 'View history' }));
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Example Corp licence history'));
    expect(within(rail).getByRole('button', { name: 'Show the latest changes only' })).toBeTruthy();
  });

  it('downloads every change as CSV named for the account and today', async () => {
    const blobs: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: vi.fn((blob: Blob) => {
        blobs.push(blob);
        return 'blob:history';
      }),
      revokeObjectURL: vi.fn(),
    });
    const names: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      names.push(this.download);
    });
    licencesApi();
    renderApp(DETAILS_PATH);
    const rail = await screen.findByRole('complementary', { name: 'Example Corp licence history' });
    await userEvent.setup().click(within(rail).getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(blobs).toHaveLength(1));
    const text = await (blobs[0] as Blob).text();
    const lines = text.replace('\uFEFF', '').split('\r\n');
    expect(lines[0]).toBe('Manager,Date,Licence type,Change,New total,User');
    expect(lines[1]).toMatch(/^Document Signing Manager,2026-11-20 \d\d:00,Document signatures,\+55,55,$/);
    expect(lines[2]).toMatch(/,-5,50,Ada Admin$/);
    expect(names[0]).toMatch(/^Example Corp_\d{4}-\d\d-\d\d\.csv$/);
  });
});
