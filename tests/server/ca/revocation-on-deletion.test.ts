import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RevocationReason } from '../../../contract/certificate-policy.ts';
import { apiPaths } from '../../../contract/paths.ts';
import type { ClientAuthGenerated } from '../../../contract/schemas/client-auth.ts';
import type { AuditActor } from '../../../server/audit/change.ts';
import { issueCertificate } from '../../../server/ca/issue.ts';
import { revokeCertificate } from '../../../server/ca/revoke.ts';
import { acceptedClientCertificate } from '../../../server/client-auth/check.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { type Caller, call } from '../organizations/requests.ts';
import { insertTestServiceUser } from '../service-users/helpers.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { insertTestUser } from '../users/helpers.ts';
import {
  createCsr,
  TEST_POLICY,
  type TestCertificateAuthority,
  withCertificateAuthority,
} from './helpers.ts';
import { scratchFiles, tool } from './openssl.ts';

/**
 * Certificates do not outlive the people and accounts they vouch for (decision 019, "Revocation when
 * people and accounts go"): deleting a person or a service user revokes what they own with
 * affiliationChanged, deleting an account revokes its certificates with cessationOfOperation, each in
 * the deletion's transaction with one CRL re-signing; disabling revokes nothing but stops sign-in.
 */

let harness: TestApp;
let ca: TestCertificateAuthority;
let system: Caller;
let actor: AuditActor;
let csr: string;
let files: Awaited<ReturnType<typeof scratchFiles>>;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  ca = await withCertificateAuthority(harness.deps);
  system = await signedInUser(harness, { accessScope: 'system' });
  actor = { id: system.id, name: system.userName, address: null };
  csr = (await createCsr('EC P-256')).pem;
  files = await scratchFiles();
});

afterAll(async () => {
  await files.cleanup();
  await harness.close();
});

/** Issues a certificate of `accountId` owned by `ownerUserId`; answers its id and serial. */
async function issue(accountId: string, ownerUserId: string | null) {
  const issued = await harness.deps.db.transaction().execute((trx) =>
    issueCertificate(harness.deps, trx, actor, {
      csr,
      policy: TEST_POLICY,
      subject: { common_name: 'holder' },
      accountId,
      profile: null,
      source: ownerUserId === null ? 'profile' : 'client_auth',
      ownerUserId,
    }),
  );
  return { id: issued.row.id, serial: issued.row.serial_number };
}

const rowsOf = (ids: readonly string[]) =>
  harness.deps.db
    .selectFrom('certificates')
    .select(['id', 'revoked_at', 'revocation_reason', 'owner_user_id', 'account_id'])
    .where('id', 'in', ids)
    .execute();

async function reasonsOf(ids: readonly string[]): Promise<(RevocationReason | null)[]> {
  const rows = await rowsOf(ids);
  return ids.map((id) => rows.find((row) => row.id === id)?.revocation_reason ?? null);
}

async function crlNumber(): Promise<number> {
  const row = await harness.deps.db
    .selectFrom('certificate_authorities')
    .select('crl_number')
    .where('id', '=', ca.issuing.id)
    .executeTakeFirstOrThrow();
  return Number(row.crl_number);
}

/** The issuing CA's published CRL as `openssl crl -inform DER -text` reads it. */
async function crlText(): Promise<string> {
  const { crl } = await harness.deps.db
    .selectFrom('certificate_authorities')
    .select('crl')
    .where('id', '=', ca.issuing.id)
    .executeTakeFirstOrThrow();
  const file = await files.write(`issuing-${Date.now()}-${Math.random()}.crl`, crl ?? new Uint8Array());
  const read = await tool('openssl', ['crl', '-inform', 'DER', '-in', file, '-noout', '-text']);
  expect(read.status).toBe(0);
  return read.output;
}

/** The part of the CRL text that describes the entry of `serial`: its date and reason. */
function entryOf(text: string, serial: string): string {
  const start = text.indexOf(`Serial Number: ${serial.toUpperCase()}`);
  expect(start).toBeGreaterThanOrEqual(0);
  const next = text.indexOf('Serial Number:', start + 1);
  return text.slice(start, next === -1 ? undefined : next);
}

/** A time as `openssl crl -text` prints it: `Nov  3 08:05:09 2026 GMT`. */
function opensslDate(date: Date): string {
  // toUTCString: `Tue, 03 Nov 2026 08:05:09 GMT`.
  const [, day = '', month, year, time] = /^\w+, (\d+) (\w+) (\d+) ([\d:]+)/.exec(date.toUTCString()) ?? [];
  return `${month} ${day.padStart(2, '0').replace(/^0/, ' ')} ${time} ${year} GMT`;
}

const revocationEvents = (ids: readonly string[]) =>
  harness.deps.db
    .selectFrom('audit_events')
    .select(['resource_id', 'account_id', 'details', 'actor_id'])
    .where('resource_type', '=', 'CERTIFICATE')
    .where('action', '=', 'UPDATE')
    .where('resource_id', 'in', ids)
    .execute();

const del = (path: string) => call(harness, 'DELETE', path, { token: system.token });

describe('deleting a person', () => {
  it('revokes both of their certificates with affiliationChanged in one CRL step, and leaves others alone', async () => {
    const accountId = await insertAccount(harness);
    const person = await insertTestUser(harness, { accountId });
    const colleague = await insertTestUser(harness, { accountId });
    const first = await issue(accountId, person);
    const second = await issue(accountId, person);
    const theirs = await issue(accountId, colleague);
    const before = await crlNumber();

    expect((await del(apiPaths.users.byId(person))).status).toBe(204);

    expect(await reasonsOf([first.id, second.id, theirs.id])).toEqual([
      'affiliationChanged',
      'affiliationChanged',
      null,
    ]);
    // The rows stay, without their owner, so the CRL keeps them.
    for (const row of await rowsOf([first.id, second.id])) {
      expect(row).toMatchObject({ owner_user_id: null, account_id: accountId });
    }
    expect(await crlNumber()).toBe(before + 1);
    const text = await crlText();
    for (const { serial } of [first, second]) {
      expect(entryOf(text, serial)).toContain('Affiliation Changed');
    }
    expect(text).not.toContain(`Serial Number: ${theirs.serial.toUpperCase()}`);

    const events = await revocationEvents([first.id, second.id]);
    expect(events).toHaveLength(2);
    for (const event of events) {
      expect(event).toMatchObject({
        account_id: accountId,
        actor_id: system.id,
        details: {
          changes: {
            status: { from: 'issued', to: 'revoked' },
            revocation_reason: { from: null, to: 'affiliationChanged' },
          },
        },
      });
    }
  });

  it('keeps the reason and date of a certificate revoked before', async () => {
    const accountId = await insertAccount(harness);
    const person = await insertTestUser(harness, { accountId });
    const earlier = await issue(accountId, person);
    const current = await issue(accountId, person);
    await harness.deps.db
      .transaction()
      .execute((trx) =>
        revokeCertificate(harness.deps, trx, actor, { certificateId: earlier.id, reason: 'keyCompromise' }),
      );
    // Revoked a day ago, so a date written again would show.
    const dayAgo = new Date(Math.floor(Date.now() / 1000) * 1000 - 86_400_000);
    await harness.deps.db
      .updateTable('certificates')
      .set({ revoked_at: dayAgo })
      .where('id', '=', earlier.id)
      .execute();

    expect((await del(apiPaths.users.byId(person))).status).toBe(204);

    const [after] = await rowsOf([earlier.id]);
    expect(after?.revocation_reason).toBe('keyCompromise');
    expect(after?.revoked_at?.getTime()).toBe(dayAgo.getTime());
    expect(await reasonsOf([current.id])).toEqual(['affiliationChanged']);
    expect(await revocationEvents([earlier.id])).toHaveLength(1);
    const text = await crlText();
    expect(entryOf(text, earlier.serial)).toContain('Key Compromise');
    expect(entryOf(text, earlier.serial)).toContain(`Revocation Date: ${opensslDate(dayAgo)}`);
    expect(entryOf(text, current.serial)).toContain('Affiliation Changed');
  });

  it('DELETE user?ids= revokes the certificates of all of them in one CRL step', async () => {
    const accountId = await insertAccount(harness);
    const one = await insertTestUser(harness, { accountId });
    const two = await insertTestUser(harness, { accountId });
    const certificates = [
      await issue(accountId, one),
      await issue(accountId, two),
      await issue(accountId, two),
    ];
    const before = await crlNumber();

    expect((await del(`${apiPaths.users.list}?ids=${one},${two}`)).status).toBe(204);

    const ids = certificates.map((certificate) => certificate.id);
    expect(await reasonsOf(ids)).toEqual(ids.map(() => 'affiliationChanged'));
    expect(await crlNumber()).toBe(before + 1);
    const text = await crlText();
    for (const { serial } of certificates) expect(entryOf(text, serial)).toContain('Affiliation Changed');
  });

  it('revokes nothing when the deletion is refused', async () => {
    const accountId = await insertAccount(harness);
    const person = await insertTestUser(harness, { accountId });
    const certificate = await issue(accountId, person);
    const own = await issue(accountId, system.id);
    const before = await crlNumber();

    // One of the ids is the caller's own: 403, nobody is deleted.
    const refused = await del(`${apiPaths.users.list}?ids=${person},${system.id}`);
    expect(refused.status).toBe(403);
    expect((await del(apiPaths.users.byId(system.id))).status).toBe(403);

    expect(await reasonsOf([certificate.id, own.id])).toEqual([null, null]);
    expect(await crlNumber()).toBe(before);
    expect(await revocationEvents([certificate.id, own.id])).toEqual([]);
  });
});

describe('deleting a service user', () => {
  it('revokes its certificates with affiliationChanged', async () => {
    const accountId = await insertAccount(harness);
    const service = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
    const certificate = await issue(accountId, service.id);
    const before = await crlNumber();

    expect((await del(apiPaths.serviceUsers.byId(service.id))).status).toBe(204);

    expect(await reasonsOf([certificate.id])).toEqual(['affiliationChanged']);
    expect(await crlNumber()).toBe(before + 1);
    expect(entryOf(await crlText(), certificate.serial)).toContain('Affiliation Changed');
  });
});

describe('deleting an account', () => {
  it('revokes every certificate of the account with cessationOfOperation, and those its users hold elsewhere with affiliationChanged', async () => {
    const doomed = await insertAccount(harness);
    const other = await insertAccount(harness);
    const member = await insertTestUser(harness, { accountId: doomed });
    const outsider = await insertTestUser(harness, { accountId: other });
    const ofAccount = await issue(doomed, null);
    const ofMember = await issue(doomed, member);
    const memberElsewhere = await issue(other, member);
    const outsiderInDoomed = await issue(doomed, outsider);
    const untouched = await issue(other, outsider);
    const before = await crlNumber();

    expect((await del(`${apiPaths.tenants.list}?ids=${doomed}`)).status).toBe(204);

    expect(
      await reasonsOf([ofAccount.id, ofMember.id, outsiderInDoomed.id, memberElsewhere.id, untouched.id]),
    ).toEqual([
      'cessationOfOperation',
      'cessationOfOperation',
      'cessationOfOperation',
      'affiliationChanged',
      null,
    ]);
    for (const row of await rowsOf([ofAccount.id, ofMember.id, outsiderInDoomed.id])) {
      expect(row.account_id).toBeNull();
    }
    expect(await crlNumber()).toBe(before + 1);
    const text = await crlText();
    for (const { serial } of [ofAccount, ofMember, outsiderInDoomed]) {
      expect(entryOf(text, serial)).toContain('Cessation Of Operation');
    }
    expect(entryOf(text, memberElsewhere.serial)).toContain('Affiliation Changed');
    // The trail keeps the account each certificate belonged to when it was revoked.
    const events = await revocationEvents([ofAccount.id]);
    expect(events).toMatchObject([{ account_id: doomed }]);
  });

  it('revokes nothing when the deletion is refused (409: a partner with accounts)', async () => {
    const partner = await insertAccount(harness, { type: 'partner' });
    await insertAccount(harness, { partnerAccountId: partner });
    const certificate = await issue(partner, null);
    const before = await crlNumber();

    expect((await del(`${apiPaths.tenants.list}?ids=${partner}`)).status).toBe(409);

    expect(await reasonsOf([certificate.id])).toEqual([null]);
    expect(await crlNumber()).toBe(before);
  });
});

describe('disabling', () => {
  /** A client certificate generated for `userId` through the API, DER. */
  async function generated(path: string): Promise<Uint8Array> {
    const response = await call(harness, 'POST', path, {
      token: system.token,
      body: { csr: (await createCsr('EC P-256')).pem },
    });
    expect(response.status).toBe(201);
    const answer = (await response.json()) as ClientAuthGenerated;
    return new Uint8Array(Buffer.from(answer.certificate.replace(/-----[A-Z ]+-----|\s/g, ''), 'base64'));
  }

  const versionOf = async (table: 'users' | 'accounts', id: string) =>
    (await harness.deps.db.selectFrom(table).select('version').where('id', '=', id).executeTakeFirstOrThrow())
      .version;

  const put = async (path: string, table: 'users' | 'accounts', id: string, body?: unknown) =>
    call(harness, body === undefined ? 'POST' : 'PUT', path, {
      token: system.token,
      ...(body === undefined ? {} : { body }),
      headers: { 'If-Match': `"${await versionOf(table, id)}"` },
    });

  const revokedCount = async () =>
    (
      await harness.deps.db
        .selectFrom('certificates')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('revoked_at', 'is not', null)
        .executeTakeFirstOrThrow()
    ).count;

  it('a person, a service user or their account stops their certificates without revoking them', async () => {
    const accountId = await insertAccount(harness);
    const person = await insertTestUser(harness, { accountId });
    const service = await insertTestServiceUser(harness, { accountId, createdBy: system.id });
    const personDer = await generated(apiPaths.users.clientAuthCertificates(person));
    const serviceDer = await generated(apiPaths.serviceUsers.clientAuthCertificates(service.id));
    const accepted = async (der: Uint8Array) =>
      (await acceptedClientCertificate(harness.deps.db, der, new Date()))?.userId ?? null;
    expect(await accepted(personDer)).toBe(person);
    expect(await accepted(serviceDer)).toBe(service.id);
    const revokedBefore = await revokedCount();
    const crlBefore = await crlNumber();

    expect((await put(apiPaths.users.enable(person), 'users', person, { enabled: false })).status).toBe(204);
    expect(
      (await put(apiPaths.serviceUsers.enable(service.id), 'users', service.id, { enabled: false })).status,
    ).toBe(204);
    expect(await accepted(personDer)).toBeNull();
    expect(await accepted(serviceDer)).toBeNull();
    expect((await put(apiPaths.users.enable(person), 'users', person, { enabled: true })).status).toBe(204);
    expect(
      (await put(apiPaths.serviceUsers.enable(service.id), 'users', service.id, { enabled: true })).status,
    ).toBe(204);
    expect(await accepted(personDer)).toBe(person);
    expect(await accepted(serviceDer)).toBe(service.id);

    expect((await put(apiPaths.tenants.deactivate(accountId), 'accounts', accountId)).status).toBe(204);
    expect(await accepted(personDer)).toBeNull();
    expect(await accepted(serviceDer)).toBeNull();
    expect(
      (
        await put(
          apiPaths.tenants.deactivate(accountId).replace(/deactivate$/, 'activate'),
          'accounts',
          accountId,
        )
      ).status,
    ).toBe(204);
    expect(await accepted(personDer)).toBe(person);

    expect(await revokedCount()).toBe(revokedBefore);
    expect(await crlNumber()).toBe(crlBefore);
  });
});
