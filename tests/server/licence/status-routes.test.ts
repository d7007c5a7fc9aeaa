import { afterEach, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

describe('GET license/status', () => {
  let harness: TestApp | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function statusAt(day: string, install?: { valid_from: string; valid_to: string }): Promise<unknown> {
    let today = new Date(`${install?.valid_from ?? day}T12:00:00Z`);
    harness = await createTestApp({
      now: () => today,
      config: { licenceExpiredRedirectUrl: '/account/updateLicenseError' },
    });
    if (install) await harness.installLicence(install);
    today = new Date(`${day}T12:00:00Z`);
    const response = await harness.app.request(apiPaths.licence.status);
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('no-store');
    return response.json();
  }

  it('answers NOT_FOUND before any licence is installed', async () => {
    expect(await statusAt('2026-06-01')).toEqual({ status: 'NOT_FOUND', redirect_url: null });
  });

  it('answers VALID on the last day of the licence', async () => {
    expect(await statusAt('2026-12-31', { valid_from: '2026-01-01', valid_to: '2026-12-31' })).toEqual({
      status: 'VALID',
      redirect_url: null,
    });
  });

  it('answers EXPIRED with the configured redirect the day after', async () => {
    expect(await statusAt('2027-01-01', { valid_from: '2026-01-01', valid_to: '2026-12-31' })).toEqual({
      status: 'EXPIRED',
      redirect_url: '/account/updateLicenseError',
    });
  });
});
