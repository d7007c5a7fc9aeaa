import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiErrorCode } from '../../../contract/schemas/common.ts';
import type { Profile } from '../../../contract/schemas/profile.ts';
import type { Tenant } from '../../../contract/schemas/tenants.ts';
import { errorOf, fieldError } from '../errors.ts';
import { sendJson, signIn } from '../identity/requests.ts';
import { addToAccount, type Caller, call } from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  daysFromToday,
  fixedClock,
  GOOD_PASSWORD,
  insertAccount,
  newTenantForm,
  signedInUser,
  TODAY,
} from './helpers.ts';

/**
 * Creating, editing, deleting, deactivating, reactivating, unlinking and linking accounts: the rules,
 * the data, the sessions and the audit trail.
 */

let harness: TestApp;
let system: Caller;
let partnerAccount: string;
let partner: Caller;

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  await harness.installLicence({
    seats: { account_manager: -1, ca_manager: 100, document_signing_manager: 5 },
  });
  system = await signedInUser(harness, { accessScope: 'system' });
  partnerAccount = await insertAccount(harness, { name: 'Partner Prime', type: 'partner' });
  partner = await signedInUser(harness, { accessScope: 'partner', accountId: partnerAccount });
});
afterAll(() => harness.close());

const create = (caller: Caller, body: unknown) =>
  call(harness, 'POST', apiPaths.tenants.list, { token: caller.token, body });
const read = async (id: string, caller = system) =>
  (await (await call(harness, 'GET', apiPaths.tenants.byId(id), { token: caller.token })).json()) as Tenant;
/** An edit on whatever version the account has, unless `headers` names one. */
const edit = (id: string, body: unknown, caller = system, headers: Record<string, string> = {}) =>
  call(harness, 'PUT', apiPaths.tenants.byId(id), {
    token: caller.token,
    body,
    headers: { 'If-Match': '*', ...headers },
  });
const remove = (ids: string[], caller = system) =>
  call(harness, 'DELETE', `${apiPaths.tenants.list}?ids=${ids.join(',')}`, { token: caller.token });

/**
 * The answer is `status` with `message` and, beside it, the field and code of `detail`; a 400 without
 * `detail` is a field that broke a rule of the contract, which its message names.
 */
async function expectError(
  response: Response,
  status: number,
  message: string,
  detail?: { field?: string; code: ApiErrorCode },
): Promise<void> {
  expect(response.status).toBe(status);
  const expected =
    detail === undefined && status === 400 ? fieldError(message) : { status, message, ...detail };
  expect(await errorOf(response)).toEqual(expected);
}

function auditEvents(resourceId: string) {
  return harness.deps.db
    .selectFrom('audit_events')
    .selectAll()
    .where('resource_id', '=', resourceId)
    .orderBy('seq')
    .execute();
}

async function exists(id: string): Promise<boolean> {
  const row = await harness.deps.db
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

describe('creating an account', () => {
  it('creates a standard account with its first administrator, who can sign in to it', async () => {
    const form = newTenantForm({ name: 'Müller & Söhne GmbH', locale: 'de_DE' });
    const response = await create(system, form);
    expect(response.status).toBe(201);
    const tenant = (await response.json()) as Tenant;
    expect(response.headers.get('Location')).toBe(apiPaths.tenants.byId(tenant.id));
    expect(tenant).toMatchObject({
      name: 'Müller & Söhne GmbH',
      display_name: 'Müller & Söhne GmbH',
      active: true,
      type: 'standard',
      locale: 'de_DE',
      partner_account_id: null,
      partner_account_name: null,
      service_period: { from: TODAY, to: form.service_period.to },
      federation_status: null,
      can_account_be_unlinked: false,
      // A new account holds no licence until one is allocated to it (decision 022 §1).
      has_dsm_license: false,
      version: 1,
    });
    // What the platform does not manage yet is left out, never answered as a fact.
    for (const unknown of ['primary_account_id', 'auth_config', 'sign_in_methods', 'oauth_clients']) {
      expect(tenant).not.toHaveProperty(unknown);
    }
    expect(tenant.friendly_identifier).toMatch(/^muller-sohne-gmbh-[a-z0-9]{6}$/);
    expect(tenant.applications.map((application) => application.app_code)).toEqual(['account_manager']);

    const administrator = {
      id: '',
      userName: form.administrator.user_name,
      password: GOOD_PASSWORD,
      accountId: tenant.id,
    };
    const { accessToken } = await signIn(harness, administrator);
    const profile = (await (
      await call(harness, 'GET', apiPaths.profile, { token: accessToken })
    ).json()) as Profile;
    expect(profile).toMatchObject({
      access_scope: 'account',
      primary_account_id: tenant.id,
      locale: 'de_DE',
    });
    expect(profile.applications).toContainEqual({
      app_code: 'account_manager',
      roles: [{ name: 'Account administrator', code: 'account_administrator' }],
    });
  });

  it('creates a partner account whose administrator works in partner scope', async () => {
    const form = newTenantForm({ name: 'Reseller One', type: 'partner' });
    const tenant = (await (await create(system, form)).json()) as Tenant;
    expect(tenant.type).toBe('partner');
    const administrator = {
      id: '',
      userName: form.administrator.user_name,
      password: GOOD_PASSWORD,
      accountId: '',
    };
    const { accessToken } = await signIn(harness, administrator);
    const me = await (await call(harness, 'GET', apiPaths.identity.me, { token: accessToken })).json();
    expect(me).toMatchObject({ access_scope: 'partner', primary_account_id: tenant.id });
  });

  it('puts a standard account under the partner system scope names', async () => {
    const tenant = (await (
      await create(system, newTenantForm({ partner_account_id: partnerAccount }))
    ).json()) as Tenant;
    expect(tenant).toMatchObject({
      partner_account_id: partnerAccount,
      partner_account_name: 'Partner Prime',
    });
  });

  it('puts a partner’s new account under the partner, named or not', async () => {
    for (const body of [newTenantForm(), newTenantForm({ partner_account_id: partnerAccount })]) {
      const response = await create(partner, body);
      expect(response.status).toBe(201);
      expect(((await response.json()) as Tenant).partner_account_id).toBe(partnerAccount);
    }
  });

  it('refuses a partner that is not an active partner account', async () => {
    const inactive = await insertAccount(harness, { type: 'partner', active: false });
    const standard = await insertAccount(harness);
    for (const partnerId of [inactive, standard, randomUUID()]) {
      await expectError(
        await create(system, newTenantForm({ partner_account_id: partnerId })),
        400,
        'partner_account_id: must name an active partner account',
        { field: 'partner_account_id', code: 'invalidValue' },
      );
    }
    await expectError(
      await create(system, newTenantForm({ type: 'partner', partner_account_id: partnerAccount })),
      400,
      'partner_account_id: a partner account cannot be under another partner',
      { field: 'partner_account_id', code: 'invalidValue' },
    );
  });

  it('lets a partner create standard accounts only', async () => {
    await expectError(
      await create(partner, newTenantForm({ type: 'partner' })),
      403,
      'A partner can create only standard accounts.',
      { code: 'forbidden' },
    );
  });

  it('keeps a chosen friendly identifier and refuses one in use, creating nothing', async () => {
    const first = await create(system, newTenantForm({ friendly_identifier: 'northwind' }));
    expect(((await first.json()) as Tenant).friendly_identifier).toBe('northwind');
    const form = newTenantForm({ friendly_identifier: 'northwind' });
    await expectError(await create(system, form), 409, 'friendly_identifier: already in use', {
      field: 'friendly_identifier',
      code: 'inUse',
    });
    const user = await harness.deps.db
      .selectFrom('users')
      .select('id')
      .where('user_name', '=', form.administrator.user_name)
      .executeTakeFirst();
    expect(user).toBeUndefined();
  });

  it('refuses an administrator user name in use, whatever its case, creating nothing', async () => {
    const form = newTenantForm({ name: 'Duplicate Admin Ltd' });
    form.administrator.user_name = system.userName.toUpperCase();
    await expectError(await create(system, form), 409, 'administrator.user_name: already in use', {
      field: 'administrator.user_name',
      code: 'inUse',
    });
    const account = await harness.deps.db
      .selectFrom('accounts')
      .select('id')
      .where('name', '=', 'Duplicate Admin Ltd')
      .executeTakeFirst();
    expect(account).toBeUndefined();
  });

  it.each([
    [{ service_period: { to: TODAY } }, 'service_period.to: must be after today'],
    [
      { service_period: { from: daysFromToday(20), to: daysFromToday(10) } },
      'service_period.to: must not be before the start date',
    ],
    [{ service_period: { to: '2026-02-30' } }, 'service_period.to: must be a date as YYYY-MM-DD'],
    [{ name: 'n'.repeat(257) }, 'name: is too long'],
    [{ name: 'Acme <script>' }, 'name: invalid account name'],
    [{ type: 'system' }, 'type: has a value that is not allowed'],
    [{ friendly_identifier: 'has space' }, 'friendly_identifier: has a value that is not allowed'],
  ])('refuses %j', async (overrides, message) => {
    await expectError(await create(system, newTenantForm(overrides)), 400, message);
  });

  it('refuses an administrator whose passwords differ', async () => {
    const form = newTenantForm();
    form.administrator.repeatedPassword = 'Another-Horse-43!';
    await expectError(
      await create(system, form),
      400,
      'administrator.repeatedPassword: does not match the password',
    );
  });

  it('records the account and its administrator in the audit trail, without the password', async () => {
    const form = newTenantForm({ name: 'Audited Co' });
    const tenant = (await (await create(system, form)).json()) as Tenant;
    const [accountEvent] = await auditEvents(tenant.id);
    expect(accountEvent).toMatchObject({
      action: 'CREATE',
      resource_type: 'ACCOUNT',
      actor_id: system.id,
      details: {
        name: 'Audited Co',
        type: 'standard',
        administrator: { user_name: form.administrator.user_name },
      },
    });
    const userEvent = await harness.deps.db
      .selectFrom('audit_events')
      .selectAll()
      .where('resource_type', '=', 'USER')
      .where('account_id', '=', tenant.id)
      .executeTakeFirstOrThrow();
    expect(userEvent.details).toEqual({
      user_name: form.administrator.user_name,
      access_scope: 'account',
      roles: ['account_administrator'],
    });
    const trail = JSON.stringify([accountEvent, userEvent]);
    expect(trail).not.toContain(GOOD_PASSWORD);
    expect(trail).not.toContain('$argon2');
  });
});

describe('editing an account', () => {
  const editFor = (overrides: Record<string, unknown> = {}) => ({
    name: 'Edited Name',
    locale: 'fr_FR',
    service_period: { from: daysFromToday(-30), to: daysFromToday(90) },
    ...overrides,
  });

  it('changes name, display name, language and service period, and bumps the version', async () => {
    const id = await insertAccount(harness, { name: 'Before Edit' });
    const response = await edit(id, editFor());
    expect(response.status).toBe(204);
    const tenant = await read(id);
    expect(tenant).toMatchObject({
      name: 'Edited Name',
      display_name: 'Edited Name',
      locale: 'fr_FR',
      service_period: { from: daysFromToday(-30), to: daysFromToday(90) },
      version: 2,
    });
    const [event] = await auditEvents(id);
    expect(event).toMatchObject({
      action: 'UPDATE',
      details: {
        changes: {
          name: { from: 'Before Edit', to: 'Edited Name' },
          locale: { from: 'en_US', to: 'fr_FR' },
          service_to: { from: daysFromToday(365), to: daysFromToday(90) },
        },
      },
    });
  });

  it('writes nothing when nothing changes', async () => {
    const id = await insertAccount(harness, { name: 'Edited Name', serviceTo: daysFromToday(90) });
    await edit(id, editFor({ locale: 'en_US' }));
    expect((await read(id)).version).toBe(1);
    expect(await auditEvents(id)).toEqual([]);
  });

  it('refuses an end date today or earlier, unless it is the one the account has', async () => {
    const id = await insertAccount(harness, { serviceTo: daysFromToday(-5) });
    const period = (to: string) => ({ service_period: { from: daysFromToday(-30), to } });
    await expectError(await edit(id, editFor(period(TODAY))), 400, 'service_period.to: must be after today');
    expect((await edit(id, editFor(period(daysFromToday(-5))))).status).toBe(204);
    await expectError(
      await edit(id, editFor({ service_period: { from: daysFromToday(100), to: daysFromToday(50) } })),
      400,
      'service_period.to: must not be before the start date',
    );
  });

  it('refuses a partner any edit of its own partner account, naming why', async () => {
    const own = await read(partnerAccount, partner);
    await expectError(
      await edit(
        partnerAccount,
        editFor({ name: 'Partner Renamed', service_period: own.service_period }),
        partner,
      ),
      403,
      'You cannot edit your own primary account.',
      { code: 'ownAccount' },
    );
    expect((await read(partnerAccount)).name).toBe('Partner Prime');
  });

  it('refuses to edit the System Account', async () => {
    await expectError(await edit(system.accountId, editFor()), 409, 'The System Account cannot be edited.', {
      code: 'conflict',
    });
  });

  it('answers the version as ETag and refuses an edit made against an older one', async () => {
    const id = await insertAccount(harness);
    const response = await call(harness, 'GET', apiPaths.tenants.byId(id), { token: system.token });
    expect(response.headers.get('ETag')).toBe('"1"');
    expect((await edit(id, editFor(), system, { 'If-Match': '"1"' })).status).toBe(204);
    expect((await edit(id, editFor({ locale: 'en_US' }), system, { 'If-Match': '*' })).status).toBe(204);
    const stale = await edit(id, editFor({ name: 'Lost Update' }), system, { 'If-Match': '"1"' });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('ETag')).toBe('"3"');
    expect(await stale.json()).toEqual({
      error: {
        status: 412,
        message: 'Account has changed since it was read; reload it and apply the change again.',
        field: 'If-Match',
        code: 'preconditionFailed',
      },
      current: await read(id),
    });
    expect(await read(id)).toMatchObject({ version: 3, locale: 'en_US' });
    await expectError(
      await edit(id, editFor(), system, { 'If-Match': 'yesterday' }),
      400,
      'If-Match: must be the ETag of the account, such as "3".',
      { field: 'If-Match', code: 'invalidValue' },
    );
  });

  it('refuses a body that is not JSON or misses fields, naming the field', async () => {
    const id = await insertAccount(harness);
    const form = await edit(id, editFor(), system, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    await expectError(
      await edit(id, { name: 'Only A Name' }),
      400,
      'locale: has a value that is not allowed',
    );
    await expectError(await edit(id, editFor({ name: 'n'.repeat(257) })), 400, 'name: is too long');
  });
});

describe('deleting accounts', () => {
  it('deletes accounts with their users, sessions and organizations, and audits each', async () => {
    const first = await insertAccount(harness, { name: 'Doomed One' });
    const second = await insertAccount(harness, { name: 'Doomed Two' });
    const member = await signedInUser(harness, { accessScope: 'account', accountId: first });
    await harness.deps.db
      .insertInto('organizations')
      .values({
        id: randomUUID(),
        account_id: second,
        name: 'HQ',
        address: '1 Main St',
        city: 'Oslo',
        country: 'NO',
      })
      .execute();

    expect((await remove([first, second])).status).toBe(204);
    expect(await exists(first)).toBe(false);
    expect(await exists(second)).toBe(false);
    const users = await harness.deps.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', member.id)
      .execute();
    expect(users).toEqual([]);
    const organizations = await harness.deps.db
      .selectFrom('organizations')
      .select('id')
      .where('account_id', '=', second)
      .execute();
    expect(organizations).toEqual([]);
    expect((await call(harness, 'GET', apiPaths.profile, { token: member.token })).status).toBe(401);
    const [event] = await auditEvents(first);
    expect(event).toMatchObject({ action: 'DELETE', details: { name: 'Doomed One', users_deleted: 1 } });
  });

  it('deletes all or nothing, without saying which account was out of reach', async () => {
    const mine = await insertAccount(harness, { partnerAccountId: partnerAccount });
    const foreign = await insertAccount(harness);
    await expectError(await remove([mine, foreign], partner), 404, 'Account not found.', {
      code: 'notFound',
    });
    expect(await exists(mine)).toBe(true);
  });

  it('refuses to delete a partner that still has accounts, unless they go with it', async () => {
    const reseller = await insertAccount(harness, { name: 'Busy Reseller', type: 'partner' });
    const child = await insertAccount(harness, { partnerAccountId: reseller });
    await expectError(
      await remove([reseller]),
      409,
      'Partner account "Busy Reseller" has accounts; delete or move them first.',
      { code: 'conflict' },
    );
    expect((await remove([reseller, child])).status).toBe(204);
    expect(await exists(reseller)).toBe(false);
  });

  it('refuses to delete the System Account or the caller’s own account', async () => {
    await expectError(await remove([system.accountId]), 409, 'The System Account cannot be deleted.', {
      code: 'conflict',
    });
    await expectError(
      await remove([partnerAccount], partner),
      409,
      'Your own primary account cannot be deleted.',
      { code: 'conflict' },
    );
  });

  it.each([
    ['', 'ids: has a value that is not allowed'],
    ['?ids=', 'ids: is required'],
    [`?ids=${Array.from({ length: 101 }, (_, index) => `id${index}`).join(',')}`, 'ids: is too long'],
    [`?ids=${'x'.repeat(65)}`, 'ids: is too long'],
  ])('refuses ids %s', async (query, message) => {
    const response = await call(harness, 'DELETE', `${apiPaths.tenants.list}${query}`, {
      token: system.token,
    });
    await expectError(response, 400, message);
  });
});

describe('linking and unlinking an external identity', () => {
  const link = {
    provider: 'OneLogin',
    federated_account_id: 'ol-4711',
    federated_account_name: 'Linked Labs',
    details_url: 'https://identity.example.com/accounts/ol-4711',
  };
  const federate = (id: string, body: unknown = link) =>
    call(harness, 'PUT', apiPaths.tenants.federation(id), { token: system.token, body });
  const unlink = (id: string, confirmation = 'UNLINK', caller = system) =>
    call(harness, 'POST', apiPaths.tenants.unlink(id), { token: caller.token, body: { confirmation } });

  it('refuses to edit a linked account, which the external identity product owns, until it is unlinked', async () => {
    const id = await insertAccount(harness, { name: 'Linked Elsewhere' });
    expect((await federate(id)).status).toBe(204);
    const rename = {
      name: 'Renamed Here',
      locale: 'en_US',
      service_period: { from: daysFromToday(-30), to: daysFromToday(90) },
    };
    await expectError(
      await edit(id, rename),
      409,
      'The account is linked to an external identity product: change it there, or unlink it first.',
      { code: 'conflict' },
    );
    expect((await read(id)).name).toBe('Linked Elsewhere');
    expect((await unlink(id)).status).toBe(204);
    expect((await edit(id, rename)).status).toBe(204);
  });

  it('links an account, then unlinks it on the typed confirmation', async () => {
    const id = await insertAccount(harness, { partnerAccountId: partnerAccount });
    expect((await federate(id)).status).toBe(204);
    expect(await read(id)).toMatchObject({
      federation_status: 'linked',
      federation_provider: 'OneLogin',
      federated_account_id: 'ol-4711',
      federated_account_name: 'Linked Labs',
      federated_account_details_url: link.details_url,
      has_onelogin_id: true,
      can_account_be_unlinked: true,
      version: 2,
    });

    expect((await unlink(id, 'UNLINK', partner)).status).toBe(204);
    expect(await read(id)).toMatchObject({
      federation_status: 'unlinked',
      federation_provider: null,
      federated_account_id: null,
      federated_account_name: null,
      federated_account_details_url: null,
      has_onelogin_id: false,
      can_account_be_unlinked: false,
      version: 3,
    });
    const events = await auditEvents(id);
    expect(events.map((event) => event.details)).toEqual([
      {
        changes: {
          // Never linked before: no status at all.
          federation_status: { from: null, to: 'linked' },
          federation_provider: { from: null, to: 'OneLogin' },
          federated_account_id: { from: null, to: 'ol-4711' },
          federated_account_name: { from: null, to: 'Linked Labs' },
          federated_account_details_url: { from: null, to: link.details_url },
        },
      },
      {
        changes: {
          federation_status: { from: 'linked', to: 'unlinked' },
          federation_provider: { from: 'OneLogin', to: null },
          federated_account_id: { from: 'ol-4711', to: null },
          federated_account_name: { from: 'Linked Labs', to: null },
          federated_account_details_url: { from: link.details_url, to: null },
        },
      },
    ]);
  });

  it('honours an If-Match sent with an unlink, refusing one made on an older version', async () => {
    const id = await insertAccount(harness, { partnerAccountId: partnerAccount });
    expect((await federate(id)).status).toBe(204);
    const stale = await call(harness, 'POST', apiPaths.tenants.unlink(id), {
      token: system.token,
      body: { confirmation: 'UNLINK' },
      headers: { 'If-Match': '"1"' },
    });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('ETag')).toBe('"2"');
    expect(await read(id)).toMatchObject({ federation_status: 'linked', version: 2 });
  });

  it('refuses to unlink an account that is not linked, or without the exact word', async () => {
    const id = await insertAccount(harness);
    await expectError(await unlink(id), 409, 'The account is not linked to an external identity product.', {
      code: 'conflict',
    });
    await expectError(await unlink(id, 'unlink'), 400, 'confirmation: has a value that is not allowed');
  });

  it('refuses a details page that is not https and the System Account', async () => {
    const id = await insertAccount(harness);
    await expectError(
      await federate(id, { ...link, details_url: 'http://identity.example.com/a' }),
      400,
      'details_url: has a value that is not allowed',
    );
    await expectError(
      await federate(system.accountId),
      409,
      'The System Account cannot be linked to an external identity product.',
      { code: 'conflict' },
    );
  });
});

describe('account details', () => {
  it('says whether the caller may change two-factor settings', async () => {
    const id = await insertAccount(harness, { partnerAccountId: partnerAccount });
    const member = await signedInUser(harness, { accessScope: 'account', accountId: id });
    expect((await read(id, system)).can_edit_mfa).toBe(true);
    expect((await read(id, partner)).can_edit_mfa).toBe(true);
    expect((await read(id, member)).can_edit_mfa).toBe(false);
    expect((await read(partnerAccount, partner)).can_edit_mfa).toBe(false);
  });
});

type StatusAction = 'deactivate' | 'activate';

/** A status change on whatever version the account has, unless `headers` names one. */
const setStatus = (
  action: StatusAction,
  id: string,
  caller = system,
  headers: Record<string, string> = { 'If-Match': '*' },
) => call(harness, 'POST', apiPaths.tenants[action](id), { token: caller.token, headers });

async function expectRefusal(response: Response, status: number, code: string): Promise<void> {
  expect(response.status).toBe(status);
  expect((await errorOf(response)).code).toBe(code);
}

function statusEvents(accountId: string) {
  return harness.deps.db
    .selectFrom('audit_events')
    .select(['action', 'resource_type', 'actor_id', 'details'])
    .where('resource_id', '=', accountId)
    .where('action', '=', 'UPDATE')
    .orderBy('seq')
    .execute();
}

describe('deactivating and reactivating an account', () => {
  it('switches the status, bumps the version and records each change in the audit trail', async () => {
    const id = await insertAccount(harness);
    const deactivated = await setStatus('deactivate', id);
    expect(deactivated.status).toBe(204);
    expect(deactivated.headers.get('ETag')).toBe('"2"');
    expect(await read(id)).toMatchObject({ active: false, version: 2 });

    expect((await setStatus('activate', id)).status).toBe(204);
    expect(await read(id)).toMatchObject({ active: true, version: 3 });
    expect(await statusEvents(id)).toEqual([
      {
        action: 'UPDATE',
        resource_type: 'ACCOUNT',
        actor_id: system.id,
        details: { changes: { active: { from: true, to: false } } },
      },
      {
        action: 'UPDATE',
        resource_type: 'ACCOUNT',
        actor_id: system.id,
        details: { changes: { active: { from: false, to: true } } },
      },
    ]);
  });

  it('writes and records nothing when the account already has the status', async () => {
    const id = await insertAccount(harness, { active: false });
    expect((await setStatus('deactivate', id)).status).toBe(204);
    expect(await read(id)).toMatchObject({ active: false, version: 1 });
    expect(await statusEvents(id)).toEqual([]);
  });

  it('requires the version it was made on: 428 without If-Match, 412 with the account as it is now', async () => {
    const id = await insertAccount(harness);
    await expectRefusal(await setStatus('deactivate', id, system, {}), 428, 'preconditionRequired');
    const stale = await setStatus('deactivate', id, system, { 'If-Match': '"7"' });
    expect(stale.status).toBe(412);
    const body = (await stale.json()) as { current: Tenant };
    expect(body.current).toMatchObject({ id, active: true, version: 1 });
    expect((await setStatus('deactivate', id, system, { 'If-Match': '"1"' })).status).toBe(204);
  });

  it('answers a repeated Idempotency-Key with the first answer, without changing again', async () => {
    const id = await insertAccount(harness);
    const headers = { 'If-Match': '"1"', 'Idempotency-Key': '"deactivate-once"' };
    expect((await setStatus('deactivate', id, system, headers)).status).toBe(204);
    const again = await setStatus('deactivate', id, system, headers);
    expect(again.status).toBe(204);
    expect(again.headers.get('Idempotency-Replayed')).toBe('true');
    expect(await statusEvents(id)).toHaveLength(1);
  });
});

describe('who may change an account’s status', () => {
  it('refuses the System Account to everyone', async () => {
    await expectRefusal(await setStatus('deactivate', system.accountId), 409, 'conflict');
    await expectRefusal(await setStatus('activate', system.accountId), 409, 'conflict');
  });

  it('refuses a partner its own partner account, and lets it change the accounts under it', async () => {
    await expectRefusal(await setStatus('deactivate', partnerAccount, partner), 403, 'ownAccount');
    await expectRefusal(await setStatus('activate', partnerAccount, partner), 403, 'ownAccount');
    const child = await insertAccount(harness, { partnerAccountId: partnerAccount });
    expect((await setStatus('deactivate', child, partner)).status).toBe(204);
    expect((await setStatus('activate', child, partner)).status).toBe(204);
  });

  it('refuses account scope, even on an account it was added to', async () => {
    const own = await insertAccount(harness);
    const admin = await signedInUser(harness, { accessScope: 'account', accountId: own });
    const other = await insertAccount(harness);
    await addToAccount(harness, admin.id, other);
    await expectRefusal(await setStatus('deactivate', own, admin), 403, 'forbidden');
    await expectRefusal(await setStatus('deactivate', other, admin), 403, 'forbidden');
  });

  it('deactivates a partner only once its accounts are inactive, and reactivates them only under an active partner', async () => {
    const partnerId = await insertAccount(harness, { type: 'partner' });
    const child = await insertAccount(harness, { partnerAccountId: partnerId });
    await expectRefusal(await setStatus('deactivate', partnerId), 409, 'partnerHasActiveAccounts');
    expect((await read(partnerId)).active).toBe(true);

    expect((await setStatus('deactivate', child)).status).toBe(204);
    expect((await setStatus('deactivate', partnerId)).status).toBe(204);
    await expectRefusal(await setStatus('activate', child), 409, 'partnerInactive');
    expect((await read(child)).active).toBe(false);

    expect((await setStatus('activate', partnerId)).status).toBe(204);
    expect((await setStatus('activate', child)).status).toBe(204);
  });
});

describe('the users of a deactivated account', () => {
  it('lose their sessions at once; users of other accounts keep theirs', async () => {
    const id = await insertAccount(harness);
    const member = await harness.createUser({ accessScope: 'account', accountId: id });
    const session = await signIn(harness, member);
    const bystander = await signedInUser(harness, { accessScope: 'account' });
    await addToAccount(harness, bystander.id, id);

    expect((await setStatus('deactivate', id)).status).toBe(204);
    expect((await call(harness, 'GET', apiPaths.profile, { token: session.accessToken })).status).toBe(401);
    const refresh = await sendJson(
      harness,
      'POST',
      apiPaths.identity.refresh,
      {},
      { cookie: session.cookie },
    );
    expect(refresh.status).toBe(401);
    const revoked = await harness.deps.db
      .selectFrom('sessions')
      .select('revoked_reason')
      .where('user_id', '=', member.id)
      .execute();
    expect(revoked).toEqual([{ revoked_reason: 'account_deactivated' }]);
    expect((await call(harness, 'GET', apiPaths.profile, { token: bystander.token })).status).toBe(200);
  });

  it('sign in again to see that their account expired, holding no permission until it is reactivated', async () => {
    const id = await insertAccount(harness);
    const member = await harness.createUser({ accessScope: 'account', accountId: id });
    expect((await setStatus('deactivate', id)).status).toBe(204);

    const { accessToken } = await signIn(harness, member);
    const profileResponse = await call(harness, 'GET', apiPaths.profile, { token: accessToken });
    expect(profileResponse.status).toBe(200);
    const profile = (await profileResponse.json()) as Profile;
    expect(profile.permissions).toEqual([]);
    expect(profile.accounts.find((account) => account.id === id)?.active).toBe(false);
    for (const path of [apiPaths.tenants.list, apiPaths.tenants.byId(id)]) {
      await expectRefusal(await call(harness, 'GET', path, { token: accessToken }), 403, 'forbidden');
    }

    expect((await setStatus('activate', id)).status).toBe(204);
    expect((await call(harness, 'GET', apiPaths.tenants.byId(id), { token: accessToken })).status).toBe(200);
  });
});
