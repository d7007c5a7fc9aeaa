import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type {
  CertificateProfile,
  CertificateProfileList,
  CertificateTemplateList,
  EnrollmentMethodList,
  KeystoreTypeList,
  NationalityList,
} from '../../../contract/schemas/certificate-profiles.ts';
import { AGENT_KEYSTORE_TYPES } from '../../../contract/trust-agent/entities.ts';
import { insertAccount, signedInUser } from '../accounts/helpers.ts';
import { errorOf } from '../errors.ts';
import { type Caller, call, callerWith } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { policy, uniqueProfileName } from './helpers.ts';

/**
 * Certificate profiles (decision 019, "Profiles and reference data"): creating, reading, listing,
 * changing under If-Match and deleting, the refusals that name their field, unique names per
 * account, the audit trail, templates, and the reference data read from the database.
 */

let harness: TestApp;
let admin: Caller;
let accountA: string;
let accountB: string;

beforeAll(async () => {
  harness = await createTestApp();
  await harness.installLicence();
  const partner = await insertAccount(harness, { name: 'Partner P', type: 'partner' });
  accountA = await insertAccount(harness, { name: 'Account A', partnerAccountId: partner });
  accountB = await insertAccount(harness, { name: 'Account B', partnerAccountId: partner });
  admin = await signedInUser(harness, { accessScope: 'partner', accountId: partner });
});
afterAll(() => harness.close());

function create(body: Record<string, unknown>, caller = admin) {
  return call(harness, 'POST', apiPaths.certificateProfiles.profiles, {
    token: caller.token,
    body: { name: uniqueProfileName(), account_id: accountA, policy: policy(), ...body },
  });
}

async function created(body: Record<string, unknown> = {}): Promise<CertificateProfile> {
  const response = await create(body);
  expect(response.status).toBe(201);
  return (await response.json()) as CertificateProfile;
}

function events(id: string) {
  return harness.deps.db
    .selectFrom('audit_events')
    .select(['action', 'resource_type', 'account_id', 'details'])
    .where('resource_id', '=', id)
    .orderBy('seq')
    .execute();
}

describe('a profile', () => {
  it('is created, read, changed and deleted, each change recorded once', async () => {
    const response = await create({ name: '  Laptops  ', description: 'Device certificates' });
    expect(response.status).toBe(201);
    const profile = (await response.json()) as CertificateProfile;
    expect(response.headers.get('Location')).toBe(apiPaths.certificateProfiles.byId(profile.id));
    expect(response.headers.get('ETag')).toBe('"1"');
    expect(profile).toMatchObject({
      name: 'Laptops',
      description: 'Device certificates',
      account_id: accountA,
      account_name: 'Account A',
      cert_type: 'end_entity',
      policy: policy(),
      version: 1,
    });

    const read = await call(harness, 'GET', apiPaths.certificateProfiles.byId(profile.id), {
      token: admin.token,
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('ETag')).toBe('"1"');
    expect(await read.json()).toEqual(profile);

    const changedPolicy = policy({
      validity_days: 90,
      key_usages: ['DigitalSignature', 'Authentication'],
      key_types: { rsa: [3072], ec: ['P-384', 'P-256'] },
    });
    const put = await call(harness, 'PUT', apiPaths.certificateProfiles.byId(profile.id), {
      token: admin.token,
      body: { name: 'Laptops', description: 'Device certificates', policy: changedPolicy },
      headers: { 'If-Match': '"1"' },
    });
    expect(put.status).toBe(204);
    expect(put.headers.get('ETag')).toBe('"2"');
    const after = (await (
      await call(harness, 'GET', apiPaths.certificateProfiles.byId(profile.id), { token: admin.token })
    ).json()) as CertificateProfile;
    // Lists are kept in the contract's order, whatever order they were sent in.
    expect(after.policy.key_usages).toEqual(['Authentication', 'DigitalSignature']);
    expect(after.policy.key_types).toEqual({ rsa: [3072], ec: ['P-256', 'P-384'] });
    expect(after.version).toBe(2);

    // The same definition again changes nothing and records nothing.
    const same = await call(harness, 'PUT', apiPaths.certificateProfiles.byId(profile.id), {
      token: admin.token,
      body: { name: 'Laptops', description: 'Device certificates', policy: changedPolicy },
      headers: { 'If-Match': '"2"' },
    });
    expect(same.status).toBe(204);

    const deleted = await call(harness, 'DELETE', apiPaths.certificateProfiles.byId(profile.id), {
      token: admin.token,
    });
    expect(deleted.status).toBe(204);
    const gone = await call(harness, 'GET', apiPaths.certificateProfiles.byId(profile.id), {
      token: admin.token,
    });
    expect(gone.status).toBe(404);

    const trail = await events(profile.id);
    expect(trail.map((event) => event.action)).toEqual(['CREATE', 'UPDATE', 'DELETE']);
    expect(trail.every((event) => event.resource_type === 'CERTIFICATE_PROFILE')).toBe(true);
    expect(trail.every((event) => event.account_id === accountA)).toBe(true);
    expect(trail[1]?.details).toEqual({
      changes: {
        'policy.validity_days': { from: 365, to: 90 },
        'policy.key_usages': { from: 'Authentication', to: 'Authentication, DigitalSignature' },
        'policy.key_types.rsa': { from: '', to: '3072' },
        'policy.key_types.ec': { from: 'P-256', to: 'P-256, P-384' },
      },
    });
    expect(trail[2]?.details).toMatchObject({ name: 'Laptops', account_id: accountA });
  });

  it('needs If-Match to change (428) and the current version (412 with the profile)', async () => {
    const profile = await created();
    const body = { name: profile.name, description: 'x', policy: policy() };
    const path = apiPaths.certificateProfiles.byId(profile.id);
    const without = await call(harness, 'PUT', path, { token: admin.token, body });
    expect(without.status).toBe(428);
    const stale = await call(harness, 'PUT', path, {
      token: admin.token,
      body,
      headers: { 'If-Match': '"7"' },
    });
    expect(stale.status).toBe(412);
    const answer = (await stale.json()) as { error: { code: string }; current: CertificateProfile };
    expect(answer.error.code).toBe('preconditionFailed');
    expect(answer.current).toEqual(profile);
    const staleDelete = await call(harness, 'DELETE', path, {
      token: admin.token,
      headers: { 'If-Match': '"7"' },
    });
    expect(staleDelete.status).toBe(412);
  });

  it('has a name unique within its account, whatever the case (409 inUse on name)', async () => {
    const first = await created({ name: 'Servers' });
    const again = await create({ name: 'SERVERS' });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toMatchObject({ status: 409, code: 'inUse', field: 'name' });
    // Another account may use it.
    expect((await create({ name: 'Servers', account_id: accountB })).status).toBe(201);
    // Renaming onto it is refused too.
    const other = await created();
    const rename = await call(harness, 'PUT', apiPaths.certificateProfiles.byId(other.id), {
      token: admin.token,
      body: { name: 'servers', policy: policy() },
      headers: { 'If-Match': '"1"' },
    });
    expect(rename.status).toBe(409);
    expect(await errorOf(rename)).toMatchObject({ code: 'inUse', field: 'name' });
    // Renaming a profile to its own name in another case is no collision.
    const self = await call(harness, 'PUT', apiPaths.certificateProfiles.byId(first.id), {
      token: admin.token,
      body: { name: 'servers', policy: policy() },
      headers: { 'If-Match': '"1"' },
    });
    expect(self.status).toBe(204);
  });

  it.each([
    ['no policy', { policy: undefined }, 'policy', 'invalidValue'],
    ['a policy that is not an object', { policy: 'strict' }, 'policy', 'invalidType'],
    ['no key type', { policy: policy({ key_types: { rsa: [], ec: [] } }) }, 'policy.key_types', 'required'],
    [
      'common name not allowed',
      { policy: policy({ subject: { ...policy().subject, common_name: 'not_allowed' } }) },
      'policy.subject.common_name',
      'invalidValue',
    ],
    [
      'an unknown extended key usage',
      { policy: { ...policy(), extended_key_usages: ['timeTravel'] } },
      'policy.extended_key_usages.0',
      'invalidValue',
    ],
    [
      'an unknown key usage',
      { policy: { ...policy(), key_usages: ['Everything'] } },
      'policy.key_usages.0',
      'invalidValue',
    ],
    ['no key usage', { policy: policy({ key_usages: [] }) }, 'policy.key_usages', 'required'],
    [
      'a validity of 0 days',
      { policy: policy({ validity_days: 0 }) },
      'policy.validity_days',
      'invalidNumber',
    ],
    [
      'a validity of 1096 days',
      { policy: policy({ validity_days: 1096 }) },
      'policy.validity_days',
      'invalidNumber',
    ],
    [
      'a validity of 1.5 days',
      { policy: policy({ validity_days: 1.5 }) },
      'policy.validity_days',
      'invalidNumber',
    ],
    [
      'an RSA key of 1024 bits',
      { policy: { ...policy(), key_types: { rsa: [1024], ec: [] } } },
      'policy.key_types.rsa.0',
      'invalidValue',
    ],
    [
      'an unknown subject rule',
      { policy: { ...policy(), subject: { ...policy().subject, country: 'maybe' } } },
      'policy.subject.country',
      'invalidValue',
    ],
    ['an empty name', { name: '   ' }, 'name', 'required'],
    ['a name of 101 characters', { name: 'n'.repeat(101) }, 'name', 'tooLong'],
  ])('refuses %s, naming the field', async (_case, body, field, code) => {
    const response = await create(body as Record<string, unknown>);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ status: 400, field, code });
  });

  it('is created only in an account that exists in reach (404)', async () => {
    const response = await create({ account_id: 'no-such-account' });
    expect(response.status).toBe(404);
  });
});

describe('the list', () => {
  it('filters by name and account, sorts, pages and counts', async () => {
    const account = await insertAccount(harness, { name: 'Sorting account' });
    const system = await signedInUser(harness, { accessScope: 'system' });
    for (const [name, days] of [
      ['Alpha web', 30],
      ['beta web', 10],
      ['Gamma mail', 20],
    ] as const) {
      const response = await create(
        { name, account_id: account, policy: policy({ validity_days: days }) },
        system,
      );
      expect(response.status).toBe(201);
    }
    const list = async (query: string) => {
      const response = await call(
        harness,
        'GET',
        `${apiPaths.certificateProfiles.profiles}?account_id=${account}&${query}`,
        {
          token: system.token,
        },
      );
      expect(response.status).toBe(200);
      return (await response.json()) as CertificateProfileList;
    };
    expect((await list('')).items.map((item) => item.name)).toEqual(['Alpha web', 'beta web', 'Gamma mail']);
    expect((await list('sort=name:desc')).items.map((item) => item.name)).toEqual([
      'Gamma mail',
      'beta web',
      'Alpha web',
    ]);
    expect((await list('sort=validity:asc')).items.map((item) => item.policy.validity_days)).toEqual([
      10, 20, 30,
    ]);
    const filtered = await list('name=WEB');
    expect(filtered.total).toBe(2);
    const page = await list('limit=1&offset=1');
    expect(page).toMatchObject({ total: 3 });
    expect(page.items.map((item) => item.name)).toEqual(['beta web']);
    const bad = await call(harness, 'GET', `${apiPaths.certificateProfiles.profiles}?sort=colour:asc`, {
      token: system.token,
    });
    expect(await errorOf(bad)).toMatchObject({ status: 400, field: 'sort', code: 'invalidSort' });
    const tooMany = await call(harness, 'GET', `${apiPaths.certificateProfiles.profiles}?limit=100000000`, {
      token: system.token,
    });
    expect(await errorOf(tooMany)).toMatchObject({ status: 400, field: 'limit', code: 'invalidNumber' });

    const templates = await call(
      harness,
      'GET',
      `${apiPaths.certificateProfiles.templates}?account_id=${account}`,
      {
        token: system.token,
      },
    );
    const templateList = (await templates.json()) as CertificateTemplateList;
    expect(templateList.total).toBe(3);
    expect(templateList.items.every((item) => item.cert_type === 'end_entity')).toBe(true);
    const own = await call(harness, 'GET', apiPaths.certificateProfiles.accountProfiles(account), {
      token: system.token,
    });
    expect(((await own.json()) as CertificateProfileList).total).toBe(3);
  });

  it('of templates is open to whoever views templates only', async () => {
    const viewer = await callerWith(harness, {
      accessScope: 'account',
      accountId: accountA,
      permissions: ['VIEW_TEMPLATE'],
    });
    const templates = await call(harness, 'GET', apiPaths.certificateProfiles.accountTemplates(accountA), {
      token: viewer.token,
    });
    expect(templates.status).toBe(200);
    const profiles = await call(harness, 'GET', apiPaths.certificateProfiles.profiles, {
      token: viewer.token,
    });
    expect(profiles.status).toBe(403);
  });
});

describe('reference data', () => {
  it('is read from the database by any signed-in user', async () => {
    const nobody = await callerWith(harness, {
      accessScope: 'account',
      accountId: accountA,
      permissions: [],
    });
    const methods = await call(harness, 'GET', apiPaths.certificateProfiles.enrollmentMethods, {
      token: nobody.token,
    });
    expect(methods.status).toBe(200);
    expect(((await methods.json()) as EnrollmentMethodList).items.map((item) => item.code)).toEqual([
      'DTA',
      'DDC',
    ]);

    // A row an operator adds is answered: the list is the table's, not a constant.
    await harness.deps.db
      .insertInto('keystore_types')
      .values({
        code: 'TEST-HSM',
        name: 'Test token',
        category: 'HWToken',
        source: 'HWTK',
        location: 'hardware_token',
        position: 99,
      })
      .execute();
    const types = await call(harness, 'GET', apiPaths.certificateProfiles.keystoreTypes, {
      token: nobody.token,
    });
    const list = (await types.json()) as KeystoreTypeList;
    expect(list.total).toBe(list.items.length);
    // What a trust agent reports, in the console's order, then the operator's own.
    expect(list.items.map((item) => item.code)).toEqual([...AGENT_KEYSTORE_TYPES, 'TEST-HSM']);
    expect(list.items.find((item) => item.code === 'PFX')).toEqual({
      code: 'PFX',
      name: 'Software keystore (PKCS#12)',
      category: 'SWToken',
      source: 'DTM_SOFTWARE',
      location: 'DTM_SOFTWARE',
    });
    expect(list.items.find((item) => item.code === 'PKCS11')).toMatchObject({
      name: 'Other PKCS#11 token',
      category: 'HWToken',
      location: 'hardware_token',
    });
    expect(list.items.find((item) => item.code === 'YUBIKEY')).toMatchObject({
      category: 'HWToken',
      location: 'hardware_token',
    });

    const anonymous = await call(harness, 'GET', apiPaths.certificateProfiles.keystoreTypes);
    expect(anonymous.status).toBe(401);
  });

  it('names the nationalities in the language asked for, without the excluded countries', async () => {
    const nationalities = (query: string) =>
      call(harness, 'GET', `${apiPaths.certificateProfiles.nationalities}${query}`, {
        token: admin.token,
      });
    const list = async (query: string) => (await (await nationalities(query)).json()) as NationalityList;
    const english = await list('');
    expect(english.total).toBe(english.items.length);
    expect(english.items).toContainEqual({ code: 'DE', name: 'Germany' });
    expect(english.items.map((item) => item.code)).not.toContain('KP');
    expect((await list('?locale=de_DE')).items).toContainEqual({ code: 'DE', name: 'Deutschland' });
    const refused = await nationalities('?locale=xx_XX');
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toMatchObject({ field: 'locale', code: 'invalidLocale' });
  });
});
