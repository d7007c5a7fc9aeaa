import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crlIsDue, refreshDueCrls } from '../../../server/ca/crl-schedule.ts';
import { x509 } from '../../../server/ca/x509.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { type TestCertificateAuthority, withCertificateAuthority } from './helpers.ts';

let clock = new Date('2026-12-01T08:00:00Z');
let harness: TestApp;
let ca: TestCertificateAuthority;

beforeAll(async () => {
  harness = await createTestApp({ now: () => clock, config: { crlValidityHours: 24 } });
  ca = await withCertificateAuthority(harness.deps);
});

afterAll(() => harness.close());

async function crlState() {
  const rows = await harness.deps.db
    .selectFrom('certificate_authorities')
    .select(['id', 'crl', 'crl_number', 'crl_next_update'])
    .execute();
  return Object.fromEntries(rows.map((row) => [row.id, row]));
}

describe('the scheduled CRL re-sign', () => {
  it('re-signs each CA once half its CRL validity has passed, with a growing number, once among racing passes', async () => {
    const initial = await crlState();
    expect(Number(initial[ca.root.id]?.crl_number)).toBe(1);

    clock = new Date('2026-12-01T19:59:00Z');
    expect(await refreshDueCrls(harness.deps)).toEqual([]);

    clock = new Date('2026-12-01T20:00:00Z');
    const passes = await Promise.all([refreshDueCrls(harness.deps), refreshDueCrls(harness.deps)]);
    expect(passes.flat().sort()).toEqual([ca.issuing.id, ca.root.id].sort());
    const after = await crlState();
    for (const id of [ca.root.id, ca.issuing.id]) {
      expect(Number(after[id]?.crl_number)).toBe(2);
      expect(new Date(after[id]?.crl_next_update ?? 0).toISOString()).toBe('2026-12-02T20:00:00.000Z');
      const crl = new x509.X509Crl(Buffer.from(after[id]?.crl ?? new Uint8Array()));
      expect(crl.thisUpdate.toISOString()).toBe('2026-12-01T20:00:00.000Z');
      // The CRL number extension (2.5.29.20) holds 2.
      expect(Buffer.from(crl.getExtension('2.5.29.20')?.value ?? new ArrayBuffer(0)).toString('hex')).toBe(
        '020102',
      );
    }
  });

  it('counts a CA without a CRL as due', () => {
    expect(crlIsDue({ crl_this_update: null, crl_next_update: null }, clock)).toBe(true);
  });
});
