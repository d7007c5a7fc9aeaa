// @vitest-environment jsdom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { EnrollmentCertificate } from '../../../../contract/schemas/enrollments.ts';
import type { DesktopClientCommands } from '../../../../contract/trust-agent/desktop-client.ts';
import type { Keystore, Token } from '../../../../contract/trust-agent/entities.ts';
import {
  CertificateInstall,
  type LoadedCertificate,
} from '../../../../src/features/enrollment/components/certificate-install.tsx';
import { ApiError } from '../../../../src/lib/api-client.ts';
import { activateEnglish, apiError, json, mockApi } from '../../support.tsx';
import { AGENT, fakeAgent, fakeHelper, ok } from './agent-support.ts';

const { showToast } = vi.hoisted(() => ({ showToast: vi.fn() }));
vi.mock('../../../../src/components/ui/toast.tsx', async (original) => ({
  ...(await original<typeof import('../../../../src/components/ui/toast.tsx')>()),
  showToast,
}));

const CODE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const REDEEM = `/account/ui-api/v2/enrollment/e1/${CODE}/redeem`;
const LOGIN_URL = '/account/api/v1/clientAuthLoginUrl';
const CERTIFICATE: EnrollmentCertificate = {
  x509_cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  chain: [],
  pkcs7: 'MIIB',
  certificate_id: 'c1',
  serial_number: '0a1b2c',
  enrollment_method: 'DTA',
  keystore_type: 'DTM_SOFTWARE',
  profile_name: 'Staff',
};
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
  mechanisms: [{ algorithm: 'RSA', minKeySize: 1024, maxKeySize: 4096 }],
  pin: { initialized: true, locked: false, retriesLeft: 5, finalTry: false },
};

async function renderInstall(agent: ReturnType<typeof fakeAgent>, loaded: LoadedCertificate) {
  activateEnglish();
  const rootRoute = createRootRoute({
    component: () => (
      <CertificateInstall loaded={loaded} enrollmentId="e1" code={CODE} agentClient={agent.client} />
    ),
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  await screen.findByText(/serial number 0a1b2c was issued/);
  await agent.emit({ type: 'status', status: { phase: 'ready', agent: AGENT } });
  await agent.emit({ type: 'keystores', keystores: [SOFTWARE] });
  await agent.emit({ type: 'tokens', tokens: [softwareToken] });
}

async function unlock() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText(/PIN of Software keystore/), '2468');
  await user.click(screen.getByRole('button', { name: 'Unlock and continue' }));
  return user;
}

describe('CertificateInstall', () => {
  it('installs into the software keystore, redeems, and offers the guide and the sign-in', async () => {
    const api = mockApi({
      [`PUT ${REDEEM}`]: () => new Response(null, { status: 204 }),
      [`GET ${LOGIN_URL}`]: () => json({ url: 'https://console.example.test/account/login' }),
    });
    const agent = fakeAgent({
      verifypin: () => ok({ verified: true }),
      importCert: () => ok({ certificate: {} }),
    });
    await renderInstall(agent, { certificate: CERTIFICATE });
    const user = await unlock();

    await screen.findByText(/is installed in Software keystore, next to its key, on this computer\./);
    // No browser reads the agent's software keystore: the page does not promise a sign-in with it.
    expect(screen.queryByText(/sign in with it now/)).toBeNull();
    expect(screen.getByText(/Browsers do not read the trust agent's software keystore/)).toBeTruthy();
    expect(agent.commands.map((entry) => entry.command)).toEqual(['verifypin', 'importCert']);
    expect(agent.commands[1]?.request).toMatchObject({
      keystoreId: 'software',
      pin: '2468',
      certificate: CERTIFICATE.x509_cert,
    });
    expect(api.calls.filter((call) => call.path === REDEEM)).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'user guide of the client tools' }).getAttribute('href')).toBe(
      '/client-tools',
    );
    expect(screen.queryByLabelText(/PIN of/)).toBeNull();

    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    try {
      await user.click(screen.getByRole('button', { name: 'Sign in' }));
      await waitFor(() => expect(assign).toHaveBeenCalledWith('https://console.example.test/account/login'));
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('names the serial number and the keystore when the keystore holds no key for it, and redeems nothing', async () => {
    const api = mockApi({});
    const agent = fakeAgent({
      verifypin: () => ok({ verified: true }),
      importCert: () => ({ ok: false, error: { code: 'certificateKeyMismatch', message: '' } }),
    });
    await renderInstall(agent, { certificate: CERTIFICATE });
    await unlock();

    expect((await screen.findByRole('alert')).textContent).toBe(
      'The certificate could not be installed: The keystore Software keystore holds no key for the certificate with the serial number 0a1b2c. Choose the keystore in which the key was made.',
    );
    expect(api.calls).toHaveLength(0);
    // Still idle for another try: the keystore choice and the PIN stay.
    expect(screen.getByLabelText(/PIN of Software keystore/)).toBeTruthy();
  });

  it('counts an enrollment redeemed already, by an earlier install, as installed', async () => {
    mockApi({ [`PUT ${REDEEM}`]: () => apiError(409, 'The enrollment is redeemed.') });
    const agent = fakeAgent({
      verifypin: () => ok({ verified: true }),
      importCert: () => ok({ certificate: {} }),
    });
    await renderInstall(agent, { certificate: CERTIFICATE });
    await unlock();
    await screen.findByText(/is installed in Software keystore/);
  });

  it('shows why the certificate could not be loaded', async () => {
    activateEnglish();
    const agent = fakeAgent({});
    const rootRoute = createRootRoute({
      component: () => (
        <CertificateInstall
          loaded={{ error: new ApiError(409, 'The enrollment is pending.') }}
          enrollmentId="e1"
          code={CODE}
          agentClient={agent.client}
        />
      ),
    });
    const router = createRouter({
      routeTree: rootRoute,
      history: createMemoryHistory({ initialEntries: ['/'] }),
    });
    render(
      <I18nProvider i18n={i18n}>
        <RouterProvider router={router} />
      </I18nProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /^The certificate could not be installed: /,
    );
    expect(screen.queryByLabelText(/PIN of/)).toBeNull();
  });
});

const DEVICE_CERTIFICATE: EnrollmentCertificate = {
  ...CERTIFICATE,
  pkcs7: 'MIIBpkcs7',
  enrollment_method: 'DDC',
  keystore_type: 'HARDWARE_TOKEN',
  profile_name: 'Printers',
};
const DESKTOP_CLIENT = { ...AGENT, product: 'desktop-client', version: '3.3.1' } as const;
const TOKEN: Keystore = {
  id: 'softhsm:7',
  name: 'device-token',
  type: 'PKCS11',
  status: 'INITIALIZED',
  slot: 7,
  library: 'softhsm',
};

async function renderDesktopClientInstall(client: ReturnType<typeof fakeHelper<DesktopClientCommands>>) {
  activateEnglish();
  const unused = fakeAgent({});
  const rootRoute = createRootRoute({
    component: () => (
      <CertificateInstall
        loaded={{ certificate: DEVICE_CERTIFICATE }}
        enrollmentId="e1"
        code={CODE}
        agentClient={unused.client}
        desktopClient={client.client}
      />
    ),
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: ['/'] }),
  });
  render(
    <I18nProvider i18n={i18n}>
      <RouterProvider router={router} />
    </I18nProvider>,
  );
  await screen.findByText(/was issued for this device/);
  await client.emit({ type: 'status', status: { phase: 'ready', agent: DESKTOP_CLIENT } });
  await client.emit({ type: 'keystores', keystores: [SOFTWARE, TOKEN] });
  const user = userEvent.setup();
  await user.click(screen.getByRole('radio', { name: 'device-token' }));
  await user.type(screen.getByLabelText('PIN of device-token'), '2468');
  await user.click(screen.getByRole('button', { name: 'Install the certificate' }));
  return user;
}

describe('CertificateInstall with the desktop client', () => {
  it('offers only tokens for a hardware profile, installs the PKCS#7 chain under the profile and redeems', async () => {
    showToast.mockClear();
    const api = mockApi({ [`PUT ${REDEEM}`]: () => new Response(null, { status: 204 }) });
    const client = fakeHelper<DesktopClientCommands>({ pkcs7: () => ok({ certificate: {}, profile: {} }) });
    await renderDesktopClientInstall(client);

    // A token is read wherever it is plugged in: there, the browser can sign in with it.
    await screen.findByText(/is installed on the token device-token.*you can sign in with it now\./);
    // The software keystore cannot take a hardware profile's certificate.
    expect(screen.queryByRole('radio', { name: 'Software keystore' })).toBeNull();
    expect(client.commands).toEqual([
      {
        command: 'pkcs7',
        request: {
          keystoreId: 'softhsm:7',
          pin: '2468',
          pkcs7: 'MIIBpkcs7',
          securityPolicy: 'hardware',
          profileName: 'Printers',
        },
      },
    ]);
    expect(api.calls.filter((call) => call.path === REDEEM)).toHaveLength(1);
    expect(showToast).toHaveBeenCalledWith('success', 'Certificate installed');
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('names the serial number and the token in the banner and the error toast when it holds no key', async () => {
    showToast.mockClear();
    const api = mockApi({});
    const client = fakeHelper<DesktopClientCommands>({
      pkcs7: () => ({
        ok: false,
        error: {
          code: 'noCertificateWithSerialNumber',
          message: '',
          serial: '1f2e',
          keystoreName: 'device-token',
        },
      }),
    });
    await renderDesktopClientInstall(client);

    const text =
      'The desktop client could not install the certificate: The keystore device-token holds no key for the certificate with the serial number 0a1b2c. Choose the keystore in which the key was made.';
    expect((await screen.findByRole('alert')).textContent).toBe(text);
    expect(showToast).toHaveBeenCalledWith('error', text);
    expect(api.calls).toHaveLength(0);
  });

  it('gives the desktop client’s refusal as the reason', async () => {
    showToast.mockClear();
    mockApi({});
    const client = fakeHelper<DesktopClientCommands>({
      pkcs7: () => ({ ok: false, error: { code: 'pinIncorrect', message: '', retriesLeft: 4 } }),
    });
    await renderDesktopClientInstall(client);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The desktop client could not install the certificate: The PIN is not correct. 4 attempts are left before the keystore locks.',
    );
  });
});
