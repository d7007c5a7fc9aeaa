// @vitest-environment jsdom
import 'reflect-metadata';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import * as x509 from '@peculiar/x509';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { HARDWARE_TOKEN_SELECT_DELAY_MS } from '../../../../contract/constants.ts';
import type { PublicEnrollment } from '../../../../contract/schemas/enrollments.ts';
import type { Keystore, Token } from '../../../../contract/trust-agent/entities.ts';
import { EnrollmentPage } from '../../../../src/features/enrollment/components/enrollment-page.tsx';
import { activateEnglish, apiError, json, mockApi } from '../../support.tsx';
import { AGENT, fakeAgent, hardwareToken, ok, PIN_OK, RSA, uninitializedToken } from './agent-support.ts';

const ENROLLMENT: PublicEnrollment = {
  id: 'e1',
  status: 'pending',
  account_name: 'Harbour Works',
  profile_name: 'Laptop certificate',
  seat_kind: 'user',
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  subject_rules: {
    common_name: 'required',
    organization_name: 'required',
    emails: 'optional',
    locality: 'optional',
  },
  key_types: ['RSA-2048'],
  code_expires_at: '2099-01-01T00:00:00Z',
};
const CODE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const BASE = `/account/ui-api/v2/enrollment/${ENROLLMENT.id}/${CODE}`;

const SOFTWARE: Keystore = {
  id: 'software',
  name: 'Software keystore',
  type: 'PFX',
  status: 'INITIALIZED',
  slot: null,
  library: null,
};
const softwareToken: Token = {
  keystoreId: 'software',
  initialized: true,
  label: 'Software keystore',
  type: 'SWToken',
  manufacturer: 'Trust Assistant',
  model: 'PKCS#12',
  serial: 's1',
  mechanisms: RSA,
  pin: PIN_OK,
};

const LINE = 'A'.repeat(64);
const CSR = `-----BEGIN CERTIFICATE REQUEST-----\n${LINE}\nAAAA\n-----END CERTIFICATE REQUEST-----\n`;
let certificatePem = '';

beforeAll(async () => {
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, [
    'sign',
    'verify',
  ]);
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '0a1b2c',
    // Encoded as a CA encodes names, the organization before the common name.
    name: 'O=Harbour Works, CN=Grace Hopper',
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 365 * 86_400_000),
    keys,
    signingAlgorithm: { name: 'ECDSA', hash: 'SHA-256' },
  });
  certificatePem = certificate.toString('pem');
});

async function renderPage(
  agent: ReturnType<typeof fakeAgent>,
  state: { keystores: Keystore[]; tokens: Token[] },
  enrollment: PublicEnrollment = ENROLLMENT,
) {
  activateEnglish();
  vi.stubGlobal('scrollTo', () => undefined);
  const rootRoute = createRootRoute({
    component: () => <EnrollmentPage enrollment={enrollment} code={CODE} agentClient={agent.client} />,
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>
    </QueryClientProvider>,
  );
  await screen.findByText('Certificate enrollment');
  await agent.emit({ type: 'status', status: { phase: 'ready', agent: AGENT } });
  await agent.emit({ type: 'keystores', keystores: state.keystores });
  await agent.emit({ type: 'tokens', tokens: state.tokens });
  return router;
}

function issuingApi() {
  return mockApi({
    [`POST ${BASE}/certificate`]: () =>
      json(
        {
          x509_cert: certificatePem,
          chain: [],
          pkcs7: '',
          certificate_id: 'c1',
          serial_number: '0a1b2c',
          enrollment_method: 'DTA',
          keystore_type: 'DTM_SOFTWARE',
          profile_name: 'Staff',
        },
        201,
      ),
    [`PUT ${BASE}/redeem`]: () => new Response(null, { status: 204 }),
  });
}

describe('EnrollmentPage', () => {
  it('enrolls into the software keystore: PIN, details, one certificate request, import, redeem, the certificate', async () => {
    const api = issuingApi();
    const agent = fakeAgent({
      verifypin: (request) =>
        request.pin === '2468'
          ? ok({ verified: true })
          : { ok: false, error: { code: 'pinIncorrect', message: '', retriesLeft: 4 } },
      generate: () => ok({ keyId: 'k1', csr: CSR }),
      importCert: () => ok({ certificate: {} }),
    });
    const router = await renderPage(agent, { keystores: [SOFTWARE], tokens: [softwareToken] });
    const user = userEvent.setup();

    await user.type(screen.getByLabelText(/PIN of Software keystore/), '1111');
    await user.click(screen.getByRole('button', { name: 'Unlock and continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The PIN is not correct. 4 attempts are left before the keystore locks.',
    );
    await user.clear(screen.getByLabelText(/PIN of Software keystore/));
    await user.type(screen.getByLabelText(/PIN of Software keystore/), '2468');
    await user.click(screen.getByRole('button', { name: 'Unlock and continue' }));

    await screen.findByText('Step 2 of 4: Your details');
    expect(router.state.location.hash).toBe('details');
    expect((screen.getByLabelText(/First name/) as HTMLInputElement).value).toBe('Grace');
    expect((screen.getByLabelText(/^Email/) as HTMLInputElement).value).toBe('grace@example.com');
    expect(screen.queryByLabelText(/Street address/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    // The profile requires the organization: the form stops on it.
    expect(screen.getByLabelText(/Organization/).getAttribute('aria-invalid')).toBe('true');
    await user.type(screen.getByLabelText(/Organization/), 'Harbour Works');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await screen.findByText('Step 3 of 4: Issue');
    const issue = screen.getByRole('button', { name: 'Issue the certificate' });
    await user.dblClick(issue);
    await screen.findByText('Step 4 of 4: Certificate');
    expect(router.state.location.hash).toBe('done');

    const requests = api.calls.filter((call) => call.path === `${BASE}/certificate`);
    expect(requests).toHaveLength(1);
    const body = requests[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      csr: CSR,
      common_name: 'Grace Hopper',
      enrollment_method: 'DTA',
      keystore_type: 'DTM_SOFTWARE',
      organization_name: 'Harbour Works',
      emails: ['grace@example.com'],
    });
    expect(body.name).toMatch(/^Grace Hopper [0-9a-f]{8}$/);
    const nextYear = new Date();
    nextYear.setFullYear(nextYear.getFullYear() + 1);
    expect(body.end_date).toBe(nextYear.toISOString().slice(0, 10));
    expect(api.calls.filter((call) => call.method === 'PUT' && call.path === `${BASE}/redeem`)).toHaveLength(
      1,
    );
    expect(agent.commands.map((entry) => entry.command)).toEqual([
      'verifypin',
      'verifypin',
      'generate',
      'importCert',
    ]);
    expect(agent.commands[3]?.request).toMatchObject({
      keystoreId: 'software',
      pin: '2468',
      certificate: certificatePem,
    });

    // Self-signed in this test: subject and issuer are the same name, shown most specific first.
    expect(await screen.findAllByText('CN=Grace Hopper,O=Harbour Works', { selector: 'dd' })).toHaveLength(2);
    expect(screen.getByText('0a1b2c')).toBeTruthy();
    expect(document.querySelector('[data-status="issued"]')?.textContent).toBe('Issued');
  });

  it('offers to create the software keystore when the agent has none yet, with the PIN typed twice', async () => {
    const agent = fakeAgent({ initToken: () => ok({ keystore: { ...SOFTWARE } }) });
    await renderPage(agent, { keystores: [{ ...SOFTWARE, status: 'UNINITIALIZED' }], tokens: [] });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/^New PIN$/), '2468');
    await user.type(screen.getByLabelText(/New PIN again/), '2469');
    await user.click(screen.getByRole('button', { name: 'Create the keystore' }));
    expect(await screen.findByText('The PINs do not match.')).toBeTruthy();
    expect(agent.commands).toHaveLength(0);
    await user.clear(screen.getByLabelText(/New PIN again/));
    await user.type(screen.getByLabelText(/New PIN again/), '2468');
    await user.click(screen.getByRole('button', { name: 'Create the keystore' }));
    await waitFor(() => expect(agent.commands).toHaveLength(1));
    expect(agent.commands[0]).toEqual({
      command: 'initToken',
      request: { keystoreId: 'software', label: 'Software keystore', pin: '2468' },
    });
  });

  it('shows noHardwareTokenDetected without a token, and the note and the list once one is connected', async () => {
    const agent = fakeAgent({});
    await renderPage(agent, { keystores: [SOFTWARE], tokens: [softwareToken] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /On a hardware token/ }));
    expect(screen.getByRole('alert').textContent).toContain('No hardware token is detected');
    await agent.emit({ type: 'tokens', tokens: [softwareToken, hardwareToken] });
    expect(screen.queryByText(/No hardware token is detected/)).toBeNull();
    expect(screen.getByText(/Keep the token connected until the certificate is in it/)).toBeTruthy();
  });

  it('acts on a chosen token only after 500 ms', async () => {
    const agent = fakeAgent({});
    await renderPage(agent, { keystores: [SOFTWARE], tokens: [softwareToken, hardwareToken] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /On a hardware token/ }));
    const chosenAt = performance.now();
    await user.click(screen.getByRole('radio', { name: /Field token/ }));
    expect(screen.queryByLabelText(/PIN of Field token/)).toBeNull();
    await screen.findByLabelText(/PIN of Field token/);
    expect(performance.now() - chosenAt).toBeGreaterThanOrEqual(HARDWARE_TOKEN_SELECT_DELAY_MS - 20);
  });

  it('says when a token PIN is locked or not initialized', async () => {
    const agent = fakeAgent({});
    const locked = { ...hardwareToken, pin: { ...PIN_OK, locked: true, retriesLeft: 0 } };
    const blank = {
      ...hardwareToken,
      keystoreId: 'softhsm:2',
      label: 'Blank token',
      pin: { ...PIN_OK, initialized: false },
    };
    await renderPage(agent, { keystores: [SOFTWARE], tokens: [locked, blank] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /On a hardware token/ }));
    await user.click(screen.getByRole('radio', { name: /Field token/ }));
    expect((await screen.findByRole('alert')).textContent).toContain('The PIN is locked');
    await user.click(screen.getByRole('radio', { name: /Blank token/ }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('is not initialized'));
  });

  it('lists a token that is not initialized disabled, saying why, and offers the others', async () => {
    const agent = fakeAgent({});
    await renderPage(agent, {
      keystores: [SOFTWARE],
      tokens: [softwareToken, hardwareToken, uninitializedToken],
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /On a hardware token/ }));
    const blank = screen.getByRole('radio', {
      name: 'Uninitialized token (SoftHSM project SoftHSM v2)',
      description: "This token is not initialized. Initialize it with its maker's tool, then choose it.",
    }) as HTMLInputElement;
    expect(blank.disabled).toBe(true);
    expect(screen.queryByText(/Token without a label/)).toBeNull();
    await user.click(blank);
    await new Promise((resolve) => setTimeout(resolve, HARDWARE_TOKEN_SELECT_DELAY_MS + 50));
    expect(blank.checked).toBe(false);
    expect(screen.queryByLabelText(/PIN of/)).toBeNull();
    expect(agent.commands).toEqual([]);
    const field = screen.getByRole('radio', { name: /^Field token/ }) as HTMLInputElement;
    expect(field.disabled).toBe(false);
    expect(field.getAttribute('aria-describedby')).toBeNull();
  });

  it('refuses a token whose range excludes RSA 2048 before any key is made', async () => {
    issuingApi();
    const agent = fakeAgent({ verifypin: () => ok({ verified: true }) });
    const large = {
      ...hardwareToken,
      mechanisms: [{ algorithm: 'RSA' as const, minKeySize: 3072, maxKeySize: 4096 }],
    };
    await renderPage(agent, { keystores: [SOFTWARE], tokens: [large] });
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /On a hardware token/ }));
    await user.click(screen.getByRole('radio', { name: /Field token/ }));
    await user.type(await screen.findByLabelText(/PIN of Field token/), '1234');
    await user.click(screen.getByRole('button', { name: 'Unlock and continue' }));
    await user.type(await screen.findByLabelText(/Organization/), 'Harbour Works');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Issue the certificate' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'The token needs keys of at least 3072 bits; this certificate uses an RSA key of 2048 bits.',
    );
    expect(agent.commands.map((entry) => entry.command)).toEqual(['verifypin']);
  });

  it('lets the enrollee pick among the key types the profile accepts and the software keystore makes', async () => {
    issuingApi();
    const agent = fakeAgent({
      verifypin: () => ok({ verified: true }),
      generate: () => ok({ keyId: 'k1', csr: CSR }),
      importCert: () => ok({ certificate: {} }),
    });
    const token: Token = {
      ...softwareToken,
      mechanisms: [
        { algorithm: 'RSA', minKeySize: 2048, maxKeySize: 3072 },
        { algorithm: 'EC', curves: ['P-256', 'P-384'] },
      ],
    };
    // RSA 4096 is beyond the keystore's range, and no keystore of the agent makes P-521 keys.
    const keyTypes = ['RSA-4096', 'ECDSA-P256', 'RSA-2048', 'ECDSA-P521'];
    await renderPage(
      agent,
      { keystores: [SOFTWARE], tokens: [token] },
      { ...ENROLLMENT, key_types: keyTypes },
    );
    const user = userEvent.setup();

    const select = screen.getByRole('combobox', { name: 'Key type' }) as HTMLSelectElement;
    expect([...select.options].map((option) => option.text)).toEqual([
      'ECDSA, curve P-256',
      'RSA, 2048 bits',
    ]);
    expect(select.value).toBe('RSA-2048');
    await user.selectOptions(select, 'ECDSA, curve P-256');
    await user.type(screen.getByLabelText(/PIN of Software keystore/), '2468');
    await user.click(screen.getByRole('button', { name: 'Unlock and continue' }));
    await user.type(await screen.findByLabelText(/Organization/), 'Harbour Works');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(
      await screen.findByText('ECDSA, curve P-256, made in the keystore; it never leaves it'),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Issue the certificate' }));
    await screen.findByText('Step 4 of 4: Certificate');
    const generate = agent.commands.find((entry) => entry.command === 'generate');
    expect(generate?.request).toEqual({
      keystoreId: 'software',
      pin: '2468',
      algorithm: 'EC',
      curve: 'P-256',
      subject: { commonName: 'Grace Hopper' },
    });
  });

  it('shows the one key type there is without a choice, even when it is not RSA 2048', async () => {
    const token: Token = { ...softwareToken, mechanisms: [...RSA, { algorithm: 'EC', curves: ['P-384'] }] };
    await renderPage(
      fakeAgent({}),
      { keystores: [SOFTWARE], tokens: [token] },
      { ...ENROLLMENT, key_types: ['ECDSA-P384'] },
    );
    expect(screen.getByText('Key type: ECDSA, curve P-384')).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: 'Key type' })).toBeNull();
  });

  it('says so when the software keystore makes none of the key types the profile accepts', async () => {
    await renderPage(
      fakeAgent({}),
      { keystores: [SOFTWARE], tokens: [softwareToken] },
      { ...ENROLLMENT, key_types: ['ECDSA-P256', 'ECDSA-P521'] },
    );
    expect(screen.getByRole('alert').textContent).toContain(
      "The trust agent's software keystore makes none of the key types this certificate accepts (ECDSA-P256, ECDSA-P521).",
    );
    expect(screen.queryByLabelText(/PIN of Software keystore/)).toBeNull();
  });

  it('offers no hardware token when the profile does not accept the RSA 2048 key tokens make', async () => {
    await renderPage(
      fakeAgent({}),
      { keystores: [SOFTWARE], tokens: [softwareToken, hardwareToken] },
      { ...ENROLLMENT, key_types: ['RSA-3072', 'ECDSA-P256'] },
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('radio', { name: /On a hardware token/ }));
    expect(screen.getByRole('alert').textContent).toContain(
      'This certificate does not accept the RSA 2048 key a hardware token makes.',
    );
    expect(screen.queryByRole('radio', { name: /Field token/ })).toBeNull();
  });

  it('says the enrollment was used when the CA answers 409, and offers no second request', async () => {
    const api = mockApi({ [`POST ${BASE}/certificate`]: () => apiError(409, 'The enrollment is issued.') });
    const agent = fakeAgent({
      verifypin: () => ok({ verified: true }),
      generate: () => ok({ keyId: 'k1', csr: CSR }),
    });
    await renderPage(agent, { keystores: [SOFTWARE], tokens: [softwareToken] });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText(/PIN of Software keystore/), '2468');
    await user.click(screen.getByRole('button', { name: 'Unlock and continue' }));
    await user.type(await screen.findByLabelText(/Organization/), 'Harbour Works');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.click(await screen.findByRole('button', { name: 'Issue the certificate' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This enrollment was used already');
    expect(screen.queryByRole('button', { name: 'Issue the certificate' })).toBeNull();
    // One certificate request; the page's other call asks whether a client certificate waits.
    expect(api.calls.filter((call) => call.path.endsWith('/certificate'))).toHaveLength(1);
  });

  it('offers the enrollee the client certificate an administrator asked for, and nothing when none was', async () => {
    mockApi({
      [`GET ${BASE}/client-auth-certificate`]: () =>
        json({ status: 'requested', user_name: 'ada', account_name: 'Northwind' }),
    });
    await renderPage(fakeAgent({}), { keystores: [], tokens: [] });
    const offer = await screen.findByRole('region', { name: 'Client certificate for signing in' });
    expect(offer.textContent).toContain('Northwind asks for a client certificate in your name (ada)');
    expect(screen.getByRole('button', { name: 'Make my client certificate' })).toBeTruthy();
  });

  it('shows no client certificate when none was asked for', async () => {
    mockApi({
      [`GET ${BASE}/client-auth-certificate`]: () => apiError(409, 'No client certificate was asked for.'),
    });
    await renderPage(fakeAgent({}), { keystores: [], tokens: [] });
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Client certificate for signing in' })).toBeNull(),
    );
  });
});
