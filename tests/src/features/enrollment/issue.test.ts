import { Temporal } from 'temporal-polyfill';
import { describe, expect, it, vi } from 'vitest';
import type { EnrollmentCertificate } from '../../../../contract/schemas/enrollments.ts';
import {
  AgentCommandError,
  AlreadyRequestedError,
  certificateRequest,
  type EnrollmentDetails,
  type IssueDependencies,
  isCsrWrappedAt64,
  issueCertificate,
  type KeystoreForNewKey,
} from '../../../../src/features/enrollment/issue.ts';

const BODY = 'A'.repeat(64);
const CSR = `-----BEGIN CERTIFICATE REQUEST-----\n${BODY}\n${BODY}\nAAAA==\n-----END CERTIFICATE REQUEST-----\n`;

const KEYSTORE: KeystoreForNewKey = {
  location: 'hardware_token',
  keystoreId: 'softhsm:0',
  label: 'Field token',
  mechanisms: [{ algorithm: 'RSA', minKeySize: 1024, maxKeySize: 4096 }],
  pin: '123456',
  key: { algorithm: 'RSA', keySize: 2048 },
};
const DETAILS: EnrollmentDetails = {
  first_name: 'Grace',
  last_name: 'Hopper',
  email: 'grace@example.com',
  common_name: 'Grace Hopper',
  subject: { organization_name: 'Navy', organization_units: 'COBOL', locality: ' ' },
};
const ISSUED: EnrollmentCertificate = {
  x509_cert: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  chain: [],
  pkcs7: 'MIIB',
  certificate_id: 'c1',
  serial_number: '0a',
  enrollment_method: 'DTA',
  keystore_type: 'DTM_SOFTWARE',
  profile_name: 'Staff',
};

function dependencies(overrides: Partial<Omit<IssueDependencies, 'onProgress'>> = {}) {
  let requested = false;
  const send = vi.fn(async (command: string, _request: unknown) =>
    command === 'generate'
      ? { ok: true as const, result: { keyId: 'k1', csr: CSR } }
      : { ok: true as const, result: { certificate: {} } },
  );
  const deps = {
    send: send as unknown as IssueDependencies['send'],
    requestCertificate: vi.fn(async () => ISSUED),
    redeem: vi.fn(async () => undefined),
    requested: () => requested,
    markRequested: () => {
      requested = true;
    },
    onProgress: vi.fn<IssueDependencies['onProgress']>(),
    today: () => Temporal.PlainDate.from('2026-11-24'),
    ...overrides,
  };
  return { deps, send };
}

describe('the issue sequence', () => {
  it('accepts only a PEM CSR wrapped at 64 characters', () => {
    expect(isCsrWrappedAt64(CSR)).toBe(true);
    expect(isCsrWrappedAt64(CSR.replace(`${BODY}\n${BODY}`, `${BODY}${BODY}`))).toBe(false);
    expect(isCsrWrappedAt64(CSR.replace(`${BODY}\n`, `${BODY.slice(1)}\n`))).toBe(false);
    expect(isCsrWrappedAt64(CSR.replace('CERTIFICATE REQUEST-----\n', 'CERTIFICATE-----\n'))).toBe(false);
  });

  it('names the request after the person with a suffix, a year ahead, DTA and the upper-cased location', () => {
    const request = certificateRequest(
      DETAILS,
      'hardware_token',
      CSR,
      Temporal.PlainDate.from('2026-02-28'),
      'ab12cd34',
    );
    expect(request).toEqual({
      name: 'Grace Hopper ab12cd34',
      end_date: '2027-02-28',
      csr: CSR,
      common_name: 'Grace Hopper',
      enrollment_method: 'DTA',
      keystore_type: 'HARDWARE_TOKEN',
      organization_name: 'Navy',
      organization_units: ['COBOL'],
    });
  });

  it('sends each line of a multi-value field as one value, the single-value fields as text', () => {
    const request = certificateRequest(
      {
        ...DETAILS,
        subject: {
          organization_name: ' Navy ',
          dns_names: 'a.example.com\n\n  b.example.com \n',
          locality: 'Arlington',
        },
      },
      'hardware_token',
      CSR,
      Temporal.PlainDate.from('2026-02-28'),
      'ab12cd34',
    );
    expect(request).toMatchObject({
      organization_name: 'Navy',
      dns_names: ['a.example.com', 'b.example.com'],
      locality: 'Arlington',
    });
  });

  it('makes the key, requests, imports and redeems in that order', async () => {
    const { deps, send } = dependencies();
    const progress = await issueCertificate(KEYSTORE, DETAILS, {}, deps);
    expect(send.mock.calls.map(([command]) => command)).toEqual(['generate', 'importCert']);
    expect(send.mock.calls[0]?.[1]).toMatchObject({
      keystoreId: 'softhsm:0',
      algorithm: 'RSA',
      keySize: 2048,
    });
    expect(deps.requestCertificate).toHaveBeenCalledOnce();
    expect(deps.redeem).toHaveBeenCalledOnce();
    expect(progress).toEqual({ csr: CSR, certificate: ISSUED, imported: true, redeemed: true });
  });

  it('stops before any key is made when the token cannot make RSA 2048', async () => {
    const { deps, send } = dependencies();
    const small = {
      ...KEYSTORE,
      mechanisms: [{ algorithm: 'RSA' as const, minKeySize: 512, maxKeySize: 1024 }],
    };
    await expect(issueCertificate(small, DETAILS, {}, deps)).rejects.toBeInstanceOf(AgentCommandError);
    expect(send).not.toHaveBeenCalled();
  });

  it('resumes after a failed import without asking the CA again', async () => {
    const { deps, send } = dependencies();
    send.mockImplementationOnce(async () => ({ ok: true as const, result: { keyId: 'k1', csr: CSR } }));
    send.mockImplementationOnce(
      async () =>
        ({ ok: false as const, undelivered: true as const, reason: 'agentUnreachable' as const }) as never,
    );
    const seen: unknown[] = [];
    deps.onProgress.mockImplementation((progress: unknown) => seen.push(progress));
    await expect(issueCertificate(KEYSTORE, DETAILS, {}, deps)).rejects.toBeInstanceOf(AgentCommandError);
    const kept = seen.at(-1) as { certificate?: EnrollmentCertificate };
    expect(kept.certificate).toEqual(ISSUED);
    await issueCertificate(KEYSTORE, DETAILS, kept, deps);
    expect(deps.requestCertificate).toHaveBeenCalledOnce();
    expect(deps.redeem).toHaveBeenCalledOnce();
  });

  it('sends one certificate request per page load, even when the first failed', async () => {
    const { deps } = dependencies({
      requestCertificate: vi.fn(async () => Promise.reject(new Error('offline'))),
    });
    await expect(issueCertificate(KEYSTORE, DETAILS, {}, deps)).rejects.toThrow('offline');
    await expect(issueCertificate(KEYSTORE, DETAILS, { csr: CSR }, deps)).rejects.toBeInstanceOf(
      AlreadyRequestedError,
    );
    expect(deps.requestCertificate).toHaveBeenCalledOnce();
  });
});
