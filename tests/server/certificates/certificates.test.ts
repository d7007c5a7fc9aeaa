import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CERTIFICATE_CSV_COLUMNS } from '../../../contract/certificate-csv.ts';
import { csvLine } from '../../../contract/csv.ts';
import { apiPaths } from '../../../contract/paths.ts';
import type { Certificate, CertificateList } from '../../../contract/schemas/certificates.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestCertificate, insertTestHierarchy, type TestHierarchy } from './helpers.ts';

/**
 * GET certificate, certificate/{id} and certificate/export: what the list holds, how its status is
 * derived (expired by the clock, revoked by the row), its filters, the parsed details, and the files
 * a certificate downloads as, read back with openssl.
 */

let clock = new Date('2026-12-01T12:00:00Z');
let harness: TestApp;
let hierarchy: TestHierarchy;
let system: Caller;
let accountA: string;
let accountB: string;
const ids: Record<string, string> = {};
const serials: Record<string, string> = {};

const listPath = (query: Record<string, string>) =>
  `${apiPaths.certificates.list}?${new URLSearchParams(query).toString()}`;

async function list(query: Record<string, string> = {}, caller: Caller = system): Promise<CertificateList> {
  const response = await call(harness, 'GET', listPath(query), { token: caller.token });
  expect(response.status).toBe(200);
  return (await response.json()) as CertificateList;
}

const names = (page: CertificateList) => page.items.map((item) => item.common_name);

beforeAll(async () => {
  harness = await createTestApp({ now: () => clock });
  hierarchy = await insertTestHierarchy(harness);
  system = await signedInUser(harness, { accessScope: 'system' });
  accountA = await insertAccount(harness, { name: 'Alpha Works' });
  accountB = await insertAccount(harness, { name: 'Beta Labs' });
  const make = async (key: string, options: Parameters<typeof insertTestCertificate>[2]) => {
    const made = await insertTestCertificate(harness, hierarchy, { commonName: key, ...options });
    ids[key] = made.id;
    serials[key] = made.serial;
  };
  await make('alpha-web.example.com', {
    accountId: accountA,
    profile: { id: null, name: 'Web servers' },
    issuedAt: new Date('2026-11-20T09:00:00Z'),
    validDays: 365,
  });
  await make('alpha-short.example.com', {
    accountId: accountA,
    source: 'enrollment',
    issuedAt: new Date('2026-11-25T09:00:00Z'),
    // Ends a minute after the test clock's noon of 1 December.
    validDays: 6 + 181 / 1440,
  });
  await make('alpha-revoked.example.com', {
    accountId: accountA,
    source: 'client_auth',
    issuedAt: new Date('2026-11-10T09:00:00Z'),
    revoked: { at: new Date('2026-11-28T10:00:00Z'), reason: 'keyCompromise' },
  });
  await make('beta-device.example.com', {
    accountId: accountB,
    issuedAt: new Date('2026-11-15T09:00:00Z'),
  });
});
afterAll(() => harness.close());

describe('GET certificate', () => {
  it('lists every certificate for the system scope, newest first, with their derived status', async () => {
    const page = await list();
    expect(page.total).toBe(4);
    expect(names(page)).toEqual([
      'alpha-short.example.com',
      'alpha-web.example.com',
      'beta-device.example.com',
      'alpha-revoked.example.com',
    ]);
    const revoked = page.items.find((item) => item.common_name === 'alpha-revoked.example.com');
    expect(revoked).toMatchObject({
      status: 'revoked',
      revocation_reason: 'keyCompromise',
      revoked_at: '2026-11-28T10:00:00.000Z',
      source: 'client_auth',
      account: { id: accountA, name: 'Alpha Works' },
      key_algorithm: 'EC P-256',
    });
    expect(page.items.find((item) => item.common_name === 'alpha-web.example.com')).toMatchObject({
      status: 'issued',
      profile_name: 'Web servers',
      serial_number: serials['alpha-web.example.com'],
    });
  });

  it('derives expired from the clock: a certificate past its end of validity is expired, not issued', async () => {
    expect((await list({ status: 'expired' })).total).toBe(0);
    clock = new Date('2026-12-01T12:02:00Z');
    try {
      expect(names(await list({ status: 'expired' }))).toEqual(['alpha-short.example.com']);
      expect(names(await list({ status: 'issued' })).sort()).toEqual([
        'alpha-web.example.com',
        'beta-device.example.com',
      ]);
      // A revoked certificate stays revoked after it expires.
      expect(names(await list({ status: 'revoked' }))).toEqual(['alpha-revoked.example.com']);
    } finally {
      clock = new Date('2026-12-01T12:00:00Z');
    }
  });

  it('filters by account, source, the text of the common name or serial, and the days issued', async () => {
    expect(names(await list({ account_id: accountB }))).toEqual(['beta-device.example.com']);
    expect(names(await list({ source: 'enrollment' }))).toEqual(['alpha-short.example.com']);
    expect(names(await list({ q: 'ALPHA-W' }))).toEqual(['alpha-web.example.com']);
    const serial = serials['beta-device.example.com'] ?? '';
    const colons = serial.toUpperCase().match(/../g)?.slice(2, 6).join(':') ?? '';
    expect(names(await list({ q: colons }))).toEqual(['beta-device.example.com']);
    expect(names(await list({ issued_from: '2026-11-15', issued_to: '2026-11-20' }))).toEqual([
      'alpha-web.example.com',
      'beta-device.example.com',
    ]);
  });

  it('sorts by the columns of the list and pages', async () => {
    const byName = await list({ sort: 'common_name:asc', limit: '2', offset: '1' });
    expect(byName.total).toBe(4);
    expect(names(byName)).toEqual(['alpha-short.example.com', 'alpha-web.example.com']);
    expect(names(await list({ sort: 'valid_to:asc', limit: '1' }))).toEqual(['alpha-short.example.com']);
    expect(names(await list({ sort: 'account:desc', limit: '1' }))).toEqual(['beta-device.example.com']);
  });

  it('refuses malformed filters with the field and its code', async () => {
    for (const [query, field, code] of [
      [{ status: 'valid' }, 'status', 'invalidValue'],
      [{ sort: 'fingerprint:asc' }, 'sort', 'invalidSort'],
      [{ issued_from: '2026-02-30' }, 'issued_from', 'invalidDate'],
      [{ issued_from: '2026-11-20', issued_to: '2026-11-01' }, 'issued_to', 'endDateBeforeStartDate'],
    ] as const) {
      const response = await call(harness, 'GET', listPath(query), { token: system.token });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ field, code });
    }
  });

  it('shows a certificate whose account is gone to the system scope only', async () => {
    const gone = await insertTestCertificate(harness, hierarchy, {
      commonName: 'orphan.example.com',
      accountId: null,
    });
    try {
      const page = await list({ q: 'orphan' });
      expect(page.items[0]).toMatchObject({ common_name: 'orphan.example.com', account: null });
      const partner = await signedInUser(harness, { accessScope: 'partner' });
      expect((await list({ q: 'orphan' }, partner)).total).toBe(0);
      const one = await call(harness, 'GET', apiPaths.certificates.byId(gone.id), { token: partner.token });
      expect(one.status).toBe(404);
    } finally {
      await harness.deps.db.deleteFrom('certificates').where('id', '=', gone.id).execute();
    }
  });
});

describe('GET certificate/{id}', () => {
  it('answers the certificate with its parsed details, its PEM and its version as ETag', async () => {
    const response = await call(
      harness,
      'GET',
      apiPaths.certificates.byId(ids['alpha-web.example.com'] ?? ''),
      {
        token: system.token,
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('ETag')).toBe('"1"');
    const certificate = (await response.json()) as Certificate;
    expect(certificate.details).toMatchObject({
      version: 3,
      isValid: true,
      serial_number: serials['alpha-web.example.com'],
      key_algorithm: 'EC P-256',
      signature_algorithm: 'ecdsa-with-SHA256',
      subject: {
        common_name: 'alpha-web.example.com',
        organizational_unit: 'Devices',
        organization: 'Example Org',
        locality: 'Berlin',
        state: 'Berlin',
        country: 'DE',
        email: null,
      },
      issuer: { common_name: 'Test Issuing CA', organization: 'Trust Console Tests', country: 'DE' },
      validTo: '2027-11-20T09:00:00.000Z',
    });
    expect(certificate.details.subject.distinguished_name).toContain('CN=alpha-web.example.com');
    expect(certificate.details.sha256_fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(certificate.pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
  });

  it('answers 404 for an unknown id', async () => {
    const response = await call(harness, 'GET', apiPaths.certificates.byId('nope'), { token: system.token });
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe('notFound');
  });
});

describe('GET certificate/export', () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'certificate-export-'));

  async function download(format: string, id = ids['alpha-web.example.com'] ?? '') {
    const response = await call(harness, 'GET', `${apiPaths.certificates.export}?format=${format}&id=${id}`, {
      token: system.token,
    });
    expect(response.status).toBe(200);
    const file = path.join(directory, `download.${format}`);
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    return { response, file };
  }

  const openssl = (...args: string[]) => execFileSync('openssl', args, { encoding: 'utf8' });

  it('downloads PEM that openssl reads, named after the certificate', async () => {
    const { response, file } = await download('pem');
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="alpha-web.example.com-${serials['alpha-web.example.com']}.pem"`,
    );
    expect(openssl('x509', '-in', file, '-noout', '-serial')).toBe(
      `serial=${serials['alpha-web.example.com']?.toUpperCase()}\n`,
    );
  });

  it('downloads DER that openssl reads', async () => {
    const { response, file } = await download('der');
    expect(response.headers.get('Content-Type')).toBe('application/pkix-cert');
    expect(openssl('x509', '-inform', 'DER', '-in', file, '-noout', '-subject')).toContain(
      'alpha-web.example.com',
    );
  });

  it('downloads PKCS#7 with the certificate, its issuing CA and the root', async () => {
    const { file } = await download('p7b');
    const printed = openssl('pkcs7', '-inform', 'DER', '-in', file, '-print_certs', '-noout');
    expect(printed).toContain('subject=CN = alpha-web.example.com');
    expect(printed).toContain('subject=CN = Test Issuing CA');
    expect(printed).toContain('subject=CN = Test Root CA');
  });

  it('asks for an id for a single certificate', async () => {
    const response = await call(harness, 'GET', `${apiPaths.certificates.export}?format=pem`, {
      token: system.token,
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ field: 'id', code: 'required' });
  });

  it('exports the filtered list as CSV, header first, in the list order', async () => {
    const response = await call(
      harness,
      'GET',
      `${apiPaths.certificates.export}?format=csv&account_id=${accountA}&sort=common_name:asc`,
      { token: system.token },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('Content-Disposition')).toBe(
      'attachment; filename="certificates-2026-12-01.csv"',
    );
    const lines = (await response.text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe(CERTIFICATE_CSV_COLUMNS.join(','));
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual([
      'alpha-revoked.example.com',
      'alpha-short.example.com',
      'alpha-web.example.com',
    ]);
    expect(lines[1]).toContain(',revoked,');
    expect(lines[1]).toContain(',keyCompromise,');
  });

  it('writes each line as the CSV writer writes the list’s certificate, byte for byte', async () => {
    // Written by the database (decision 027); the expected lines by contract/csv.ts from the list.
    const query = { issued_from: '2020-01-01', sort: 'valid_to:desc' };
    const { items } = await list({ ...query, limit: '200' });
    expect(items.length).toBeGreaterThan(3);
    const response = await call(
      harness,
      'GET',
      `${apiPaths.certificates.export}?${new URLSearchParams({ ...query, format: 'csv' }).toString()}`,
      { token: system.token },
    );
    const lines = items.map((certificate) =>
      csvLine([
        certificate.serial_number,
        certificate.common_name,
        certificate.subject,
        certificate.account?.name ?? '',
        certificate.profile_name ?? '',
        certificate.source,
        certificate.key_algorithm,
        certificate.status,
        certificate.not_before,
        certificate.not_after,
        certificate.revoked_at ?? '',
        certificate.revocation_reason ?? '',
        certificate.created_at,
      ]),
    );
    expect(await response.text()).toBe(csvLine(CERTIFICATE_CSV_COLUMNS) + lines.join(''));
  });
});
