// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ClientAuthCertificate } from '../../../../contract/schemas/client-auth.ts';
import type { ServiceUser } from '../../../../contract/schemas/service-users.ts';
import { ACCOUNT_ID } from '../../fixtures.ts';
import { json, renderApp } from '../../support.tsx';
import { API, USER_ID, usersApi } from '../users/users-support.ts';

/** A self-signed P-256 certificate for CN=Jane Smartcard, valid until 2036 (openssl req -x509). */
const JANE_PEM = `-----BEGIN CERTIFICATE-----
MIIBzzCCAXWgAwIBAgIUUP9XsHcPzEh66rQkIHRC1nrz6z4wCgYIKoZIzj0EAwIw
PTEXMBUGA1UEAwwOSmFuZSBTbWFydGNhcmQxFTATBgNVBAoMDEV4YW1wbGUgQ29y
cDELMAkGA1UEBhMCREUwHhcNMjYxMjA0MjAyMzUwWhcNMzYxMjAxMjAyMzUwWjA9
MRcwFQYDVQQDDA5KYW5lIFNtYXJ0Y2FyZDEVMBMGA1UECgwMRXhhbXBsZSBDb3Jw
MQswCQYDVQQGEwJERTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABLdnv4YHpMZ/
H1VxR1j4+m9spHlVOELS6SoJQ1aPh3tHN7s9epfAFDayR8kjJuv52CmnPEJm4SNg
NaoIy2PMNZyjUzBRMB0GA1UdDgQWBBSOSXWPpIRzQqSuCHPjAQ0HrMPp/DAfBgNV
HSMEGDAWgBSOSXWPpIRzQqSuCHPjAQ0HrMPp/DAPBgNVHRMBAf8EBTADAQH/MAoG
CCqGSM49BAMCA0gAMEUCIQCU275IsMFYeyjUFUNHrlbzBRQXHaLnXkg9djWEHph5
QAIgKSWtDSGWugbFOD5ToHGryMfNy9sJXQ2zma4zbvi/5KE=
-----END CERTIFICATE-----
`;

const THUMBPRINT = Array.from({ length: 32 }, (_, index) =>
  (index * 7 + 16).toString(16).toUpperCase().padStart(2, '0'),
).join(':');

function certificateFixture(overrides: Partial<ClientAuthCertificate> = {}): ClientAuthCertificate {
  return {
    id: 'cert-1',
    user_id: USER_ID,
    source: 'issued',
    common_name: 'jane.doe',
    not_after: '2027-03-01T10:00:00Z',
    sha256_fingerprint: THUMBPRINT,
    enabled: true,
    status: 'issued',
    certificate_id: 'platform-cert-1',
    created_at: '2026-03-01T10:00:00Z',
    version: 3,
    ...overrides,
  };
}

const LIST = `${API}/user/${USER_ID}/client-auth-certificate`;

/** An administrator's certificates page, the API answering from `certificates`, which the calls change. */
function certificatesApi(initial: ClientAuthCertificate[]) {
  let certificates = [...initial];
  return usersApi({
    extra: {
      [`GET ${LIST}`]: () => json({ items: certificates, total: certificates.length }),
      [`PUT ${LIST}/cert-1/enable`]: ({ body }) => {
        certificates = certificates.map((certificate) =>
          certificate.id === 'cert-1'
            ? {
                ...certificate,
                enabled: (body as { enabled: boolean }).enabled,
                version: certificate.version + 1,
              }
            : certificate,
        );
        return new Response(null, { status: 204, headers: { ETag: '"4"' } });
      },
      [`POST ${LIST}`]: () => {
        const uploaded = certificateFixture({
          id: 'cert-2',
          source: 'uploaded',
          common_name: 'Jane Smartcard',
          certificate_id: null,
          version: 1,
        });
        certificates = [uploaded, ...certificates];
        return json({ item: uploaded }, 201);
      },
    },
  });
}

describe('client certificates of an administrator', () => {
  it('lists common name, expiry, thumbprint, source and status, with the issued one linked to its certificate page', async () => {
    certificatesApi([
      certificateFixture(),
      certificateFixture({
        id: 'cert-3',
        source: 'uploaded',
        common_name: 'Old card',
        status: 'expired',
        certificate_id: null,
        enabled: false,
      }),
    ]);
    renderApp(`/account/access/administrators/${USER_ID}/client-auth`);
    const table = await screen.findByRole('table');
    const issued = within(table).getByRole('rowheader', { name: 'jane.doe' }).closest('tr') as HTMLElement;
    expect(within(issued).getByRole('link', { name: 'jane.doe' }).getAttribute('href')).toBe(
      '/account/ca/certificates/platform-cert-1',
    );
    expect(within(issued).getByText(THUMBPRINT)).toBeTruthy();
    expect(within(issued).getByText('Generated')).toBeTruthy();
    expect(within(issued).getByText('Issued')).toBeTruthy();
    expect(
      (within(issued).getByRole('switch', { name: 'Enabled: jane.doe' }) as HTMLInputElement).checked,
    ).toBe(true);
    const expired = within(table).getByRole('rowheader', { name: 'Old card' }).closest('tr') as HTMLElement;
    expect(within(expired).queryByRole('link')).toBeNull();
    expect(within(expired).getByText('Expired')).toBeTruthy();
    expect(
      (within(expired).getByRole('switch', { name: 'Enabled: Old card' }) as HTMLInputElement).checked,
    ).toBe(false);
  });

  it("says, on another person's page, that the file holds that person's key and signs them in", async () => {
    certificatesApi([]);
    renderApp(`/account/access/administrators/${USER_ID}/client-auth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Generate certificate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Generate certificate' });
    expect(dialog.textContent).toContain("The certificate is issued in grace's user name and signs grace in");
    expect(dialog.textContent).not.toContain('your user name');
  });

  it('disables a certificate on the version shown (If-Match) and shows the new state', async () => {
    const user = userEvent.setup();
    const api = certificatesApi([certificateFixture()]);
    renderApp(`/account/access/administrators/${USER_ID}/client-auth`);
    const toggle = await screen.findByRole('switch', { name: 'Enabled: jane.doe' });
    await user.click(toggle);
    await waitFor(() => expect(api.calls.some((call) => call.method === 'PUT')).toBe(true));
    const sent = api.calls.find((call) => call.method === 'PUT');
    expect(sent?.path).toBe(`${LIST}/cert-1/enable`);
    expect(sent?.body).toEqual({ enabled: false });
    expect(sent?.headers.get('If-Match')).toBe('"3"');
    await waitFor(async () =>
      expect(
        ((await screen.findByRole('switch', { name: 'Enabled: jane.doe' })) as HTMLInputElement).checked,
      ).toBe(false),
    );
  });
});

describe('uploading a client certificate', () => {
  it('refuses a file over 4 KB in the browser, then sends a certificate file as it is and lists it', async () => {
    const api = certificatesApi([]);
    const { router } = renderApp(`/account/access/administrators/${USER_ID}/upload-certificate`);
    expect(await screen.findByRole('heading', { name: /Upload a client certificate for/ })).toBeTruthy();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');

    await userEvent.upload(
      input,
      new File(['x'.repeat(5 * 1024)], 'bundle.pem', { type: 'application/x-x509-ca-cert' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText(/This file is larger than 4 kB\./)).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST' && call.path === LIST)).toBe(false);

    await userEvent.upload(input, new File(['-----BEGIN CERTIFICATE-----\nMIIB\n'], 'card.crt'));
    expect(
      await screen.findByText('This file is not an X.509 certificate in PEM or DER format.'),
    ).toBeTruthy();

    await userEvent.upload(input, new File([JANE_PEM], 'card.crt', { type: 'application/x-x509-ca-cert' }));
    await waitFor(() => expect(screen.queryByText(/This file is larger than 4 kB\./)).toBeNull());
    // What the administrator is about to trust, read in the browser before anything is sent.
    const chosen = await screen.findByRole('region', { name: 'The chosen certificate' });
    // Subject and issuer alike: the certificate signed itself.
    expect(within(chosen).getAllByText('C=DE,O=Example Corp,CN=Jane Smartcard')).toHaveLength(2);
    expect(within(chosen).getByText('50ff57b0770fcc487aeab424207442d67af3eb3e')).toBeTruthy();
    expect(within(chosen).getByText('3')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/access/administrators/${USER_ID}/client-auth`),
    );
    const sent = api.calls.find((call) => call.method === 'POST' && call.path === LIST);
    expect(sent?.headers.get('Content-Type')).toBe('application/x-x509-ca-cert');
    expect(await screen.findByRole('rowheader', { name: 'Jane Smartcard' })).toBeTruthy();
  });

  it('shows the server’s refusal of the file under it', async () => {
    usersApi({
      extra: {
        [`GET ${LIST}`]: () => json({ items: [], total: 0 }),
        [`POST ${LIST}`]: () =>
          json(
            {
              error: {
                status: 400,
                message: 'certificate: must hold exactly one certificate and nothing after it',
                field: 'certificate',
                code: 'notOneCertificate',
              },
            },
            400,
          ),
      },
    });
    renderApp(`/account/access/administrators/${USER_ID}/upload-certificate`);
    await screen.findByRole('heading', { name: /Upload a client certificate for/ });
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');
    await userEvent.upload(
      input,
      new File([JANE_PEM + JANE_PEM], 'chain.pem', { type: 'application/x-x509-ca-cert' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Upload' }));
    expect(
      await screen.findByText('The file must hold exactly one certificate, with nothing after it.'),
    ).toBeTruthy();
  });
});

describe('client certificates of a service user', () => {
  const SERVICE_USER_ID = '6c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
  const SERVICE_LIST = `${API}/service-user/${SERVICE_USER_ID}/client-auth-certificate`;
  const serviceUser: ServiceUser = {
    id: SERVICE_USER_ID,
    name: 'Nightly export',
    description: 'Copies accounts to the warehouse',
    email: 'data-team@example.com',
    end_date: null,
    status: 'enabled',
    primary_account: { id: ACCOUNT_ID, name: 'Example Corp' },
    last_used_at: null,
    created_at: '2026-01-02T09:00:00Z',
    version: 4,
    enabled: true,
    access_scope: 'account',
    accounts: [{ id: ACCOUNT_ID, name: 'Example Corp' }],
    roles: [],
    permissions: [],
    created_by: { id: 'admin-1', name: 'ada' },
  };

  it('uploads in a dialog to the service user’s own path, and offers no setup e-mail', async () => {
    let certificates: ClientAuthCertificate[] = [];
    const api = usersApi({
      extra: {
        [`GET ${API}/service-user/${SERVICE_USER_ID}`]: () => json(serviceUser),
        [`GET ${SERVICE_LIST}`]: () => json({ items: certificates, total: certificates.length }),
        [`POST ${SERVICE_LIST}`]: () => {
          const item = certificateFixture({
            id: 'svc-cert',
            user_id: SERVICE_USER_ID,
            source: 'uploaded',
            common_name: 'export-bot',
            certificate_id: null,
          });
          certificates = [item];
          return json({ item }, 201);
        },
      },
    });
    renderApp(`/account/access/service-user/${SERVICE_USER_ID}/client-auth`);
    expect(
      await screen.findByRole('heading', { name: 'Client certificates of Nightly export' }),
    ).toBeTruthy();
    expect(await screen.findByText('No client certificate yet.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send setup e-mail' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Upload certificate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload certificate' });
    const input = dialog.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('No file input.');
    await userEvent.upload(input, new File([JANE_PEM], 'bot.cer', { type: 'application/x-x509-ca-cert' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('rowheader', { name: 'export-bot' })).toBeTruthy();
    expect(api.calls.some((call) => call.method === 'POST' && call.path === SERVICE_LIST)).toBe(true);
  });
});
