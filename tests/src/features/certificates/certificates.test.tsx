// @vitest-environment jsdom
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_ROLES, PERMISSION_NAMES } from '../../../../contract/permissions.ts';
import type { Certificate, CertificateSummary } from '../../../../contract/schemas/certificates.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

afterEach(() => toaster.remove());

const CA_API = '/certificate-authority/api/v1';
const CERTIFICATE_ID = '0f3c2b1a-9e8d-4c7b-a6f5-e4d3c2b1a090';
const SERIAL = '5a1f00c3d2e4b6a7980112233445566f';

function summary(overrides: Partial<CertificateSummary> = {}): CertificateSummary {
  return {
    id: CERTIFICATE_ID,
    serial_number: SERIAL,
    common_name: 'web01.example.com',
    subject: 'CN=web01.example.com,O=Example Corp,C=DE',
    account: { id: ACCOUNT_ID, name: 'Example Corp' },
    profile_name: 'Web servers',
    source: 'profile',
    key_algorithm: 'EC P-256',
    not_before: '2026-11-01T00:00:00.000Z',
    not_after: '2027-11-01T00:00:00.000Z',
    status: 'issued',
    revoked_at: null,
    revocation_reason: null,
    created_at: '2026-11-01T00:00:00.000Z',
    version: 3,
    ...overrides,
  };
}

function record(overrides: Partial<CertificateSummary> = {}): Certificate {
  const name = (cn: string, o: string) => ({
    distinguished_name: `CN=${cn}, OU=Devices, O=${o}, L=Berlin, ST=Berlin, C=DE`,
    common_name: cn,
    organizational_unit: 'Devices',
    organization: o,
    locality: 'Berlin',
    state: 'Berlin',
    country: 'DE',
    email: null,
  });
  return {
    ...summary(overrides),
    details: {
      issuer: name('Platform Issuing CA', 'Trust Platform'),
      subject: name('web01.example.com', 'Example Corp'),
      validFrom: '2026-11-01T00:00:00.000Z',
      validTo: '2027-11-01T00:00:00.000Z',
      isValid: true,
      version: 3,
      serial_number: SERIAL,
      sha256_fingerprint: Array.from({ length: 32 }, () => 'AB').join(':'),
      sha1_fingerprint: Array.from({ length: 20 }, () => 'CD').join(':'),
      key_algorithm: 'EC P-256',
      signature_algorithm: 'ECDSA with SHA-384',
    },
    pem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  };
}

function certificatesApi(
  options: { permissions?: readonly string[]; handlers?: Parameters<typeof mockApi>[0] } = {},
) {
  const profile = profileFixture({ access_scope: 'account', primary_account_id: ACCOUNT_ID });
  const listQueries: URLSearchParams[] = [];
  const api = mockApi({
    ...signedInHandlers(profile, options.permissions ?? BUILT_IN_ROLES.account_administrator.permissions),
    [`GET ${CA_API}/certificate`]: ({ url }) => {
      listQueries.push(url.searchParams);
      return json({
        items: [
          summary(),
          summary({
            id: 'revoked-1',
            common_name: 'old.example.com',
            serial_number: '11',
            status: 'revoked',
            revoked_at: '2026-11-10T00:00:00.000Z',
            revocation_reason: 'superseded',
          }),
          summary({
            id: 'expired-1',
            common_name: 'gone.example.com',
            serial_number: '22',
            status: 'expired',
          }),
        ],
        total: 3,
      });
    },
    [`GET ${CA_API}/certificate/${CERTIFICATE_ID}`]: () => json(record()),
    ...options.handlers,
  });
  return { ...api, listQueries };
}

describe('Certificate authority › Certificates', () => {
  it('lists the certificates with their columns and each status in its colour and words', async () => {
    certificatesApi();
    renderApp('/account/ca/certificates');
    const table = await screen.findByRole('table', { name: 'Certificates' });
    const headers = [...table.querySelectorAll('thead th')].map((header) =>
      header.textContent?.replace(/[▲▼↕]/g, '').trim(),
    );
    expect(headers).toEqual([
      'Common name',
      'Serial number',
      'Account',
      'Profile',
      'Status',
      'Valid to',
      'Issued',
    ]);
    const link = within(table).getByRole('link', { name: 'web01.example.com' });
    expect(link.getAttribute('href')).toBe(`/account/ca/certificates/${CERTIFICATE_ID}`);
    for (const [label, status] of [
      ['Issued', 'issued'],
      ['Revoked', 'revoked'],
      ['Expired', 'expired'],
    ] as const) {
      const badge = within(table).getByText(label, { selector: '.status-badge' });
      expect(badge.classList).toContain(`certificate-status--${status}`);
    }
    expect(within(table).getByText(SERIAL)).toBeTruthy();
  });

  it('reads its filters from the address and puts a changed one back into the request', async () => {
    const { listQueries } = certificatesApi();
    renderApp('/account/ca/certificates?status=revoked&q=web&sort=valid_to:asc');
    await screen.findByRole('table', { name: 'Certificates' });
    const first = listQueries[0];
    expect(first?.get('status')).toBe('revoked');
    expect(first?.get('q')).toBe('web');
    expect(first?.get('sort')).toBe('valid_to:asc');
    const status = screen.getByLabelText('Status') as HTMLSelectElement;
    expect(status.value).toBe('revoked');
    await userEvent.setup().selectOptions(status, 'expired');
    await waitFor(() => expect(listQueries.at(-1)?.get('status')).toBe('expired'));
    expect(listQueries.at(-1)?.get('q')).toBe('web');
    // The account filter is for those who see several accounts only.
    expect(screen.queryByLabelText('Account')).toBeNull();
  });

  it('downloads the filtered list as CSV, named by the server', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:certificates'), revokeObjectURL: vi.fn() });
    const exports: URLSearchParams[] = [];
    certificatesApi({
      handlers: {
        [`GET ${CA_API}/certificate/export`]: ({ url }) => {
          exports.push(url.searchParams);
          return new Response('serial_number\r\n', {
            headers: {
              'Content-Type': 'text/csv; charset=utf-8',
              'Content-Disposition': 'attachment; filename="certificates-2026-11-24.csv"',
            },
          });
        },
      },
    });
    try {
      renderApp('/account/ca/certificates?status=expired');
      await screen.findByRole('table', { name: 'Certificates' });
      await userEvent.setup().click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(saved).toEqual(['certificates-2026-11-24.csv']));
      expect(Object.fromEntries(exports[0] ?? [])).toEqual({
        format: 'csv',
        status: 'expired',
        sort: 'issued:desc',
      });
    } finally {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    }
  });

  it('shows the parsed details of one certificate, without Revoke for those who may not revoke', async () => {
    certificatesApi();
    renderApp(`/account/ca/certificates/${CERTIFICATE_ID}`);
    await screen.findByRole('heading', { name: 'web01.example.com', level: 1 });
    const subject = screen.getByRole('region', { name: 'Subject' });
    expect(within(subject).getByText('Devices')).toBeTruthy();
    expect(
      within(subject).getByText(
        'CN=web01.example.com, OU=Devices, O=Example Corp, L=Berlin, ST=Berlin, C=DE',
      ),
    ).toBeTruthy();
    const issuer = screen.getByRole('region', { name: 'Issuer' });
    expect(within(issuer).getByText('Platform Issuing CA')).toBeTruthy();
    expect(screen.getByText('ECDSA with SHA-384')).toBeTruthy();
    expect(screen.getAllByText(SERIAL).length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: 'Download PKCS#7 with chain' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
  });

  it('revokes with the chosen reason after confirmation, on the version shown, and the status turns red', async () => {
    let revoked = false;
    const { calls } = certificatesApi({
      permissions: PERMISSION_NAMES,
      handlers: {
        [`GET ${CA_API}/certificate/${CERTIFICATE_ID}`]: () =>
          json(
            revoked
              ? record({
                  status: 'revoked',
                  revoked_at: '2026-11-24T10:00:00.000Z',
                  revocation_reason: 'keyCompromise',
                  version: 4,
                })
              : record(),
          ),
        [`POST ${CA_API}/certificate/${CERTIFICATE_ID}/revoke`]: () => {
          revoked = true;
          return new Response(null, { status: 204 });
        },
      },
    });
    renderApp(`/account/ca/certificates/${CERTIFICATE_ID}`);
    const user = userEvent.setup();
    await screen.findByRole('heading', { name: 'web01.example.com', level: 1 });
    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke web01.example.com?' });
    const confirm = within(dialog).getByRole('button', { name: 'Revoke certificate' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'keyCompromise');
    await user.click(within(dialog).getByRole('checkbox', { name: /I understand/ }));
    await user.click(confirm);
    expect(await screen.findByText('Certificate revoked.')).toBeTruthy();
    const post = calls.find((call) => call.method === 'POST' && call.path.endsWith('/revoke'));
    expect(post?.body).toEqual({ reason: 'keyCompromise' });
    expect(post?.headers.get('If-Match')).toBe('"3"');
    await waitFor(() =>
      expect(
        screen.getAllByText('Revoked', { selector: '.certificate-status--revoked' }).length,
      ).toBeGreaterThan(0),
    );
    expect(screen.getByText('Key compromised')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Revoke' })).toBeNull();
  });
});

describe('certificate status colours', () => {
  /** WCAG relative luminance of `#rrggbb`. */
  function luminance(hex: string): number {
    const channels = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255);
    const [r = 0, g = 0, b = 0] = channels.map((c) =>
      c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4,
    );
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }
  const contrast = (a: string, b: string) => {
    const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return ((high ?? 0) + 0.05) / ((low ?? 0) + 0.05);
  };
  const tokens = readFileSync(path.join(process.cwd(), 'src/styles/tokens.css'), 'utf8');
  const pair = (name: string): [string, string] => {
    const match = new RegExp(`--${name}: light-dark\\((#[0-9a-f]{6}), (#[0-9a-f]{6})\\)`).exec(tokens);
    if (!match?.[1] || !match[2]) throw new Error(`No light and dark value for --${name}.`);
    return [match[1], match[2]];
  };

  it.each(['issued', 'revoked', 'expired'])('%s text reads at AA on its badge in both themes', (status) => {
    const [lightText, darkText] = pair(`color-certificate-${status}-text`);
    const [lightBg, darkBg] = pair(`color-certificate-${status}-bg`);
    expect(contrast(lightText, lightBg)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(darkText, darkBg)).toBeGreaterThanOrEqual(4.5);
  });
});
