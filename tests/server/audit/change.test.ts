import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changesNothing, updateDetails } from '../../../server/audit/change.ts';
import { recordAuditEvent } from '../../../server/audit/record.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

describe('the details of an UPDATE event', () => {
  it('names each changed field with its values, and leaves out the unchanged ones', () => {
    const details = updateDetails(
      { name: 'Acme', locale: 'en_US', service_to: '2027-01-01' },
      { name: 'Acme Group', locale: 'en_US', service_to: '2028-01-01' },
      ['name', 'locale', 'service_to'],
    );
    expect(details).toEqual({
      changes: {
        name: { from: 'Acme', to: 'Acme Group' },
        service_to: { from: '2027-01-01', to: '2028-01-01' },
      },
    });
    expect(changesNothing(details)).toBe(false);
  });

  it('keeps only that a field changed when its values are not disclosed', () => {
    const details = updateDetails(
      { first_name: 'Ada', email: 'ada@example.com' },
      { first_name: 'Ada', email: 'ada@example.org' },
      ['first_name'],
    );
    expect(details).toEqual({ changes: { email: { withheld: true } } });
    expect(JSON.stringify(details)).not.toContain('ada@example');
  });

  it('is empty when nothing changes', () => {
    expect(changesNothing(updateDetails({ name: 'Acme' }, { name: 'Acme' }, ['name']))).toBe(true);
  });
});

describe('a secret in the trail', () => {
  let harness: TestApp;
  beforeAll(async () => {
    harness = await createTestApp();
  });
  afterAll(() => harness.close());

  const passwordChange = (details: Record<string, unknown>) =>
    recordAuditEvent(harness.deps.db, { action: 'UPDATE', status: 'success', resourceType: 'USER', details });

  it('may be recorded as changed', async () => {
    const details = updateDetails({ password: 'old-secret' }, { password: 'new-secret' }, []);
    await expect(passwordChange(details)).resolves.toMatchObject({ id: expect.any(String) });
  });

  it('is refused with its values, even when a route lists it as disclosed', async () => {
    const details = updateDetails({ password: 'old-secret' }, { password: 'new-secret' }, ['password']);
    await expect(passwordChange(details)).rejects.toThrow('details.changes.password');
  });
});
