import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { CompactSign } from 'jose';
import { describe, expect, it } from 'vitest';
import type { LicencePayload } from '../../../contract/schemas/licence.ts';
import { armourLicence, keyFingerprint, unarmourLicence } from '../../../server/licence/format.ts';
import { issueLicence } from '../../../server/licence/issue.ts';
import { describeLicenceFailure, verifyLicence } from '../../../server/licence/verify.ts';

const vendor = generateKeyPairSync('ed25519');
const trusted = new Map([[keyFingerprint(vendor.publicKey), vendor.publicKey]]);
const now = new Date('2026-06-15T12:00:00Z');

function payload(overrides: Partial<LicencePayload> = {}): LicencePayload {
  return {
    licence_id: randomUUID(),
    licensee: 'Example Corp',
    valid_from: '2026-01-01',
    valid_to: '2026-12-31',
    seats: { account_manager: -1, ca_manager: 100 },
    issued_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

describe('verifyLicence', () => {
  it('accepts a licence signed by a trusted vendor within its dates', async () => {
    const result = await verifyLicence(await issueLicence(payload(), vendor.privateKey), trusted, now);
    expect(result).toMatchObject({
      ok: true,
      payload: { licensee: 'Example Corp', seats: { ca_manager: 100 } },
      fingerprint: keyFingerprint(vendor.publicKey),
    });
  });

  it('accepts the first and the last day of validity', async () => {
    const text = await issueLicence(payload(), vendor.privateKey);
    expect((await verifyLicence(text, trusted, new Date('2026-01-01T00:00:00Z'))).ok).toBe(true);
    expect((await verifyLicence(text, trusted, new Date('2026-12-31T23:59:59Z'))).ok).toBe(true);
  });

  it('ignores text around the armoured block, such as a command banner', async () => {
    const text = await issueLicence(payload(), vendor.privateKey);
    const result = await verifyLicence(`> trust-console licence\n> tsx cli.ts\n\n${text}\n`, trusted, now);
    expect(result.ok).toBe(true);
  });

  it('names the date of an expired licence', async () => {
    const text = await issueLicence(payload({ valid_to: '2026-03-31' }), vendor.privateKey);
    const result = await verifyLicence(text, trusted, now);
    expect(result).toEqual({ ok: false, failure: { reason: 'expired', validTo: '2026-03-31' } });
    if (!result.ok) expect(describeLicenceFailure(result.failure)).toBe('The license expired on 2026-03-31.');
  });

  it('refuses a licence that has not started yet', async () => {
    const text = await issueLicence(payload({ valid_from: '2026-07-01' }), vendor.privateKey);
    const result = await verifyLicence(text, trusted, now);
    expect(result).toEqual({ ok: false, failure: { reason: 'not_yet_valid', validFrom: '2026-07-01' } });
  });

  it('names the fingerprint of a key it does not trust', async () => {
    const stranger = generateKeyPairSync('ed25519');
    const result = await verifyLicence(await issueLicence(payload(), stranger.privateKey), trusted, now);
    const fingerprint = keyFingerprint(stranger.publicKey);
    expect(result).toEqual({ ok: false, failure: { reason: 'untrusted_key', fingerprint } });
    if (!result.ok) expect(describeLicenceFailure(result.failure)).toContain(fingerprint);
  });

  it('detects a payload altered after signing', async () => {
    const compact = unarmourLicence(await issueLicence(payload(), vendor.privateKey)) ?? '';
    const [header, , signature] = compact.split('.');
    const forged = Buffer.from(
      JSON.stringify(payload({ seats: { account_manager: -1, ca_manager: -1 } })),
    ).toString('base64url');
    const result = await verifyLicence(armourLicence(`${header}.${forged}.${signature}`), trusted, now);
    expect(result).toEqual({ ok: false, failure: { reason: 'tampered' } });
  });

  it('detects a key id swapped to a trusted key that did not sign', async () => {
    const stranger = generateKeyPairSync('ed25519');
    const compact = unarmourLicence(await issueLicence(payload(), stranger.privateKey)) ?? '';
    const [, body, signature] = compact.split('.');
    const header = Buffer.from(
      JSON.stringify({ alg: 'EdDSA', kid: keyFingerprint(vendor.publicKey) }),
    ).toString('base64url');
    const result = await verifyLicence(armourLicence(`${header}.${body}.${signature}`), trusted, now);
    expect(result).toEqual({ ok: false, failure: { reason: 'tampered' } });
  });

  it.each([
    ['an empty text', ''],
    ['text without armour', 'hello'],
    [
      'armour around non-base64',
      '-----BEGIN TRUST PLATFORM LICENSE-----\n!!!\n-----END TRUST PLATFORM LICENSE-----',
    ],
    ['armour around something not a JWS', armourLicence('not-a-jws')],
    ['a JWS with an unreadable header', armourLicence('abc.def.ghi')],
  ])('calls %s unreadable', async (_name, text) => {
    expect(await verifyLicence(text, trusted, now)).toEqual({ ok: false, failure: { reason: 'unreadable' } });
  });

  it('calls a signed payload that is not a licence unreadable', async () => {
    const jws = await new CompactSign(new TextEncoder().encode('{"licensee":"x"}'))
      .setProtectedHeader({ alg: 'EdDSA', kid: keyFingerprint(vendor.publicKey) })
      .sign(vendor.privateKey);
    expect(await verifyLicence(armourLicence(jws), trusted, now)).toEqual({
      ok: false,
      failure: { reason: 'unreadable' },
    });
  });
});
