// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { CertificateAuthority } from '../../../../contract/schemas/certificate-authority.ts';
import { profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

const CA = '/certificate-authority/api/v1';

function name(commonName: string) {
  return {
    distinguished_name: `CN=${commonName},O=Example Platform`,
    common_name: commonName,
    organizational_unit: null,
    organization: 'Example Platform',
    locality: null,
    state: null,
    country: null,
    email: null,
  };
}

function authority(kind: 'root' | 'issuing'): CertificateAuthority {
  const id = kind === 'root' ? 'ca-root' : 'ca-issuing';
  return {
    id,
    kind,
    key_algorithm: 'ECDSA-P384',
    key_custody: kind === 'root' ? 'pkcs11' : 'encrypted',
    details: {
      subject: name(kind === 'root' ? 'Example Root CA' : 'Example Issuing CA'),
      issuer: name('Example Root CA'),
      validFrom: '2026-01-01T00:00:00Z',
      validTo: '2036-01-01T00:00:00Z',
      isValid: true,
      version: 3,
      serial_number: kind === 'root' ? '0a1b2c' : '0d0e0f',
      sha256_fingerprint: kind === 'root' ? 'AA:BB:CC' : 'DD:EE:FF',
      sha1_fingerprint: kind === 'root' ? '11:22' : '33:44',
      key_algorithm: 'EC P-384',
      signature_algorithm: 'ecdsa-with-SHA384',
    },
    certificate_url: `${CA}/ca/${id}/certificate.crt`,
    crl_url: kind === 'root' ? null : `${CA}/crl/${id}.crl`,
    crl_number: kind === 'root' ? 0 : 7,
    crl_this_update: kind === 'root' ? null : '2026-03-01T00:00:00Z',
    crl_next_update: kind === 'root' ? null : '2026-03-08T00:00:00Z',
    created_at: '2026-01-01T00:00:00Z',
  };
}

function caApi(permissions = ['VIEW_CA']) {
  const authorities = [authority('root'), authority('issuing')];
  return mockApi({
    ...signedInHandlers(profileFixture({ access_scope: 'system' }), permissions),
    [`GET ${CA}/ca`]: () => json({ items: authorities, total: 2 }),
  });
}

function detail(label: string): string {
  const term = screen.getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

describe('Root CA page', () => {
  it('shows the root certificate, where its key is kept, and its downloads, without a CRL', async () => {
    caApi();
    renderApp('/account/ca/root');
    expect(await screen.findByRole('heading', { name: 'Root CA', level: 1 })).toBeTruthy();
    await screen.findByText('Serial number');
    expect(detail('Subject')).toContain('CN=Example Root CA,O=Example Platform');
    expect(detail('Serial number')).toBe('0a1b2c');
    expect(detail('SHA-256 fingerprint')).toBe('AA:BB:CC');
    expect(detail('SHA-1 fingerprint')).toBe('11:22');
    expect(detail('Key algorithm')).toBe('EC P-384');
    expect(detail('Key custody')).toMatch(/hardware security module/);
    expect(detail('Valid to')).toMatch(/^20(35-12-31|36-01-01) \d\d:\d\d:\d\d$/);
    const downloads = screen.getByRole('region', { name: 'Downloads' });
    expect(
      within(downloads).getByRole('link', { name: 'Certificate (.crt, DER)' }).getAttribute('href'),
    ).toBe(`${CA}/ca/ca-root/certificate.crt`);
    expect(within(downloads).getByRole('link', { name: 'Certificate (.pem)' }).getAttribute('href')).toBe(
      `${CA}/ca/ca-root/certificate.pem`,
    );
    expect(within(downloads).queryByRole('link', { name: 'Revocation list (.crl)' })).toBeNull();
    expect(screen.queryByText('CRL number')).toBeNull();
  });
});

describe('Intermediate CA page', () => {
  it('shows the issuing CA with its revocation list and the CRL download', async () => {
    caApi();
    renderApp('/account/ca/intermediate');
    expect(await screen.findByRole('heading', { name: 'Intermediate CA', level: 1 })).toBeTruthy();
    await screen.findByText('CRL number');
    expect(detail('Subject')).toContain('Example Issuing CA');
    expect(detail('Issuer')).toContain('Example Root CA');
    expect(detail('CRL number')).toBe('7');
    expect(detail('Next update')).toMatch(/^2026-03-0[78] \d\d:\d\d:\d\d$/);
    expect(detail('CRL address')).toBe(`${CA}/crl/ca-issuing.crl`);
    expect(detail('Key custody')).toMatch(/Encrypted in the database/);
    expect(screen.getByRole('link', { name: 'Revocation list (.crl)' }).getAttribute('href')).toBe(
      `${CA}/crl/ca-issuing.crl`,
    );
  });

  it('is the 403 page without view CA', async () => {
    caApi(['VIEW_PROFILE']);
    renderApp('/account/ca/intermediate');
    expect(await screen.findByText('403')).toBeTruthy();
  });
});
