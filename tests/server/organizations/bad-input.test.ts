import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Contact, Organization } from '../../../contract/schemas/organizations.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { type Caller, call, callerWith, contactFields, organizationFields } from './requests.ts';

describe('organizations and contacts refuse bad input with 400 naming the field', () => {
  let harness: TestApp;
  let caller: Caller;
  let organization: Organization;
  let contact: Contact;
  beforeAll(async () => {
    harness = await createTestApp();
    caller = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
    const created = await call(harness, 'POST', apiPaths.organizations.list, {
      token: caller.token,
      body: { ...organizationFields(), account_id: caller.accountId },
    });
    organization = await created.json();
    const added = await call(harness, 'POST', apiPaths.organizations.contacts(organization.id), {
      token: caller.token,
      body: contactFields(),
    });
    contact = await added.json();
  });
  afterAll(() => harness.close());

  async function expectRefusal(response: Response, message: string | RegExp): Promise<void> {
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { status: number; message: string } };
    expect(body.error.status).toBe(400);
    expect(body.error.message).toMatch(message);
  }

  /** Both ways an organization's fields arrive: creation and replacement. */
  const organizationWrites = [
    [
      'POST organizations',
      (body: unknown) => call(harness, 'POST', apiPaths.organizations.list, { token: caller.token, body }),
    ],
    [
      'PUT organizations/{id}',
      (body: unknown) =>
        call(harness, 'PUT', apiPaths.organizations.byId(organization.id), { token: caller.token, body }),
    ],
  ] as const;

  const contactWrites = [
    [
      'POST contacts',
      (body: unknown) =>
        call(harness, 'POST', apiPaths.organizations.contacts(organization.id), {
          token: caller.token,
          body,
        }),
    ],
    [
      'PUT contacts/{contactId}',
      (body: unknown) =>
        call(harness, 'PUT', apiPaths.organizations.contact(organization.id, contact.id), {
          token: caller.token,
          body,
        }),
    ],
  ] as const;

  describe.each(organizationWrites)('%s', (_name, send) => {
    const withFields = (overrides: Record<string, unknown>) => ({
      ...organizationFields(),
      account_id: caller.accountId,
      ...overrides,
    });

    it.each(['CU', 'IR', 'SY', 'KP'])('refuses the excluded country %s', async (country) => {
      await expectRefusal(
        await send(withFields({ country })),
        /^country: is not a country that can be chosen$/,
      );
    });

    it.each([
      [{ country: 'XX' }, 'country: is not a country that can be chosen'],
      [{ name: '' }, 'name: is required'],
      [{ address: '   ' }, 'address: is required'],
      [{ city: '' }, 'city: is required'],
      [{ country: '' }, 'country: is required'],
      [{ name: 'N'.repeat(256) }, 'name: is too long'],
      [{ address2: 'A'.repeat(256) }, 'address2: is too long'],
      [{ state: 'S'.repeat(256) }, 'state: is too long'],
      [{ zip_code: '1'.repeat(21) }, 'zip_code: is too long'],
      [{ zip_code: '12#45' }, 'zip_code: has a value that is not allowed'],
      [{ name: 'Acme <script>' }, 'name: contains characters that are not allowed'],
      [{ phone: 'call me' }, 'phone: invalid phone number'],
      [{ phone: '+1 234' }, 'phone: invalid phone number'],
      [{ phone: `+${'1'.repeat(32)}` }, 'phone: invalid phone number'],
      [{ name: 42 }, 'name: has the wrong type'],
      [{ city: null }, 'city: has the wrong type'],
    ])('refuses %j', async (overrides, message) => {
      await expectRefusal(await send(withFields(overrides)), new RegExp(`^${escapeRegExp(message)}$`));
    });

    it.each(['name', 'address', 'city', 'country'])('names the missing required field %s', async (field) => {
      await expectRefusal(await send(withFields({ [field]: undefined })), new RegExp(`^${field}: `));
    });

    it('refuses malformed JSON', async () => {
      const path = _name.startsWith('POST')
        ? apiPaths.organizations.list
        : apiPaths.organizations.byId(organization.id);
      const response = await harness.app.request(path, {
        method: _name.startsWith('POST') ? 'POST' : 'PUT',
        headers: { Authorization: `Bearer ${caller.token}`, 'Content-Type': 'application/json' },
        body: '{"name": "Acme",',
      });
      await expectRefusal(response, /^Request body is not valid JSON\.$/);
    });
  });

  it('refuses an organization for no account, or for an account id that cannot be one', async () => {
    const send = (body: unknown) =>
      call(harness, 'POST', apiPaths.organizations.list, { token: caller.token, body });
    await expectRefusal(await send(organizationFields()), /^account_id: /);
    await expectRefusal(
      await send({ ...organizationFields(), account_id: 'a'.repeat(65) }),
      /^account_id: is too long$/,
    );
    await expectRefusal(
      await send({ ...organizationFields(), account_id: 'a\u0000b' }),
      /^account_id: has a value that is not allowed$/,
    );
  });

  describe.each(contactWrites)('%s', (_name, send) => {
    it.each([
      [{ email: 'not-an-email' }, 'email: invalid email'],
      [{ email: 'ada@localhost' }, 'email: invalid email'],
      [{ email: '' }, 'email: is required'],
      [{ type: 'billing' }, 'type: has a value that is not allowed'],
      [{ type: 'TECHNICAL' }, 'type: has a value that is not allowed'],
      [{ first_name: '' }, 'first_name: is required'],
      [{ last_name: 'L'.repeat(101) }, 'last_name: is too long'],
      [{ first_name: 'Ada<' }, 'first_name: contains characters that are not allowed'],
      [{ phone: 'phone' }, 'phone: invalid phone number'],
      [{ title: 'T'.repeat(256) }, 'title: is too long'],
      [{ title: 'Chief\u0000Officer' }, 'title: has a value that is not allowed'],
      [{ title: 7 }, 'title: has the wrong type'],
    ])('refuses %j', async (overrides, message) => {
      await expectRefusal(
        await send(contactFields(overrides as object)),
        new RegExp(`^${escapeRegExp(message)}$`),
      );
    });

    it.each(['first_name', 'last_name', 'email', 'type'])(
      'names the missing required field %s',
      async (field) => {
        await expectRefusal(await send(contactFields({ [field]: undefined })), new RegExp(`^${field}: `));
      },
    );
  });

  describe('GET organizations', () => {
    const list = (query: string) =>
      call(harness, 'GET', `${apiPaths.organizations.list}?${query}`, { token: caller.token });
    const sortText = 'must be columnKey:asc or columnKey:desc with a sortable column';
    const numberText = 'must be a whole number in the allowed range';

    it.each([
      ['sort=founded:asc', `sort: ${sortText}`],
      ['sort=name', `sort: ${sortText}`],
      ['sort=name:up', `sort: ${sortText}`],
      ['sort=phone:asc', `sort: ${sortText}`],
      ['limit=-1', `limit: ${numberText}`],
      ['limit=0', `limit: ${numberText}`],
      ['limit=100000', `limit: ${numberText}`],
      ['limit=99999999999999999999', `limit: ${numberText}`],
      ['limit=1.5', `limit: ${numberText}`],
      ['limit=ten', `limit: ${numberText}`],
      ['limit=1&limit=2', `limit: ${numberText}`],
      ['offset=-5', `offset: ${numberText}`],
      ['name=%00', 'name: has a value that is not allowed'],
      ['accountId=%00', 'accountId: has a value that is not allowed'],
    ])('refuses ?%s', async (query, message) => {
      await expectRefusal(await list(query), new RegExp(`^${escapeRegExp(message)}$`));
    });

    it('refuses a name filter or an account id longer than allowed', async () => {
      await expectRefusal(await list(`name=${'n'.repeat(257)}`), /^name: is too long$/);
      await expectRefusal(await list(`accountId=${'a'.repeat(65)}`), /^accountId: is too long$/);
    });

    it('answers 404 for an account that does not exist', async () => {
      const response = await list('accountId=00000000-0000-4000-8000-000000000000');
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({
        error: { status: 404, message: 'Account not found.', code: 'notFound' },
      });
    });
  });

  it('refuses bad paging of contacts and bad ids in paths', async () => {
    const get = (path: string) => call(harness, 'GET', path, { token: caller.token });
    await expectRefusal(
      await get(`${apiPaths.organizations.contacts(organization.id)}?limit=-1`),
      /^limit: /,
    );
    await expectRefusal(
      await get(`${apiPaths.organizations.contacts(organization.id)}?offset=x`),
      /^offset: /,
    );
    await expectRefusal(await get(apiPaths.organizations.byId('o'.repeat(65))), /^id: is too long$/);
    await expectRefusal(
      await get(apiPaths.organizations.byId('\u0000')),
      /^id: has a value that is not allowed$/,
    );
    await expectRefusal(
      await get(apiPaths.organizations.contact(organization.id, 'c'.repeat(65))),
      /^contactId: is too long$/,
    );
  });

  it('answers a body that is not JSON with 415', async () => {
    const response = await harness.app.request(apiPaths.organizations.list, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${caller.token}`,
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: 'name=Acme',
    });
    expect(response.status).toBe(415);
  });

  it('never answers 500, whatever the body', async () => {
    const depth = 100_000;
    const bodies = [
      'null',
      '[]',
      '"Acme"',
      '42',
      'true',
      '{}',
      '{"name": {"first": "A"}}',
      '{"name": ["Acme"]}',
      `{"name": ${'['.repeat(depth)}"deep"${']'.repeat(depth)}}`,
      JSON.stringify({ ...organizationFields(), country: '\u0000' }),
      JSON.stringify({ ...organizationFields(), name: 'Acme\u0000' }),
      JSON.stringify({ ...contactFields(), email: 'ada\u0000@example.com' }),
      JSON.stringify({ ...contactFields(), type: { $ne: null } }),
      '{"__proto__": {"name": "Acme"}}',
      '{"name": "\\ud800"}',
    ];
    const writes = [
      ['POST', apiPaths.organizations.list],
      ['PUT', apiPaths.organizations.byId(organization.id)],
      ['POST', apiPaths.organizations.contacts(organization.id)],
      ['PUT', apiPaths.organizations.contact(organization.id, contact.id)],
    ] as const;
    const statuses = new Set<number>();
    for (const body of bodies) {
      for (const [method, path] of writes) {
        const response = await harness.app.request(path, {
          method,
          headers: { Authorization: `Bearer ${caller.token}`, 'Content-Type': 'application/json' },
          body,
        });
        statuses.add(response.status);
      }
    }
    expect([...statuses]).toEqual([400]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
