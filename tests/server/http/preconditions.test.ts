import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { ApiErrorBody } from '../../../contract/schemas/common.ts';
import type { LoginCustomization } from '../../../contract/schemas/identity.ts';
import type { Contact, Organization } from '../../../contract/schemas/organizations.ts';
import { daysFromToday, fixedClock, insertAccount, signedInUser } from '../accounts/helpers.ts';
import { servedDocuments } from '../openapi/documented.ts';
import {
  type Caller,
  call,
  callerWith,
  contactFields,
  createChildAccount,
  organizationFields,
} from '../organizations/requests.ts';
import { createTestApp, type TestApp } from '../test-app.ts';

/**
 * If-Match on the edits (docs/decisions/014-idempotency-and-preconditions.md): required on the ones
 * the console may queue offline (428 without it), and every 412 carries the object as GET answers it.
 */

let harness: TestApp;
let system: Caller;
let manager: Caller;

beforeAll(async () => {
  harness = await createTestApp({ now: fixedClock });
  await harness.installLicence();
  system = await signedInUser(harness, { accessScope: 'system' });
  manager = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
});
afterAll(() => harness.close());

async function errorOf(response: Response) {
  return ((await response.json()) as { error: { status: number; message: string } }).error;
}

async function newOrganization(): Promise<Organization> {
  const response = await call(harness, 'POST', apiPaths.organizations.list, {
    token: manager.token,
    body: { ...organizationFields(), account_id: manager.accountId },
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Organization;
}

async function newContact(organizationId: string): Promise<Contact> {
  const response = await call(harness, 'POST', apiPaths.organizations.contacts(organizationId), {
    token: manager.token,
    body: contactFields(),
  });
  expect(response.status).toBe(201);
  return (await response.json()) as Contact;
}

async function accountEdit(id: string) {
  const account = await harness.deps.db
    .selectFrom('accounts')
    .select(['service_from', 'service_to'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    name: 'Edited Account',
    locale: 'de_DE',
    service_period: { from: account.service_from, to: account.service_to ?? daysFromToday(365) },
  };
}

/** One queueable edit: the request, who may make it and where its object is read. */
interface QueueableEdit {
  name: string;
  subject: string;
  /** A fresh object: its GET path and the request of the edit, with the headers given. */
  prepare: () => Promise<{
    read: string;
    token: string;
    send: (headers: Record<string, string>) => Promise<Response>;
  }>;
}

const EDITS: QueueableEdit[] = [
  {
    name: 'PUT tenant/{id}',
    subject: 'account',
    prepare: async () => {
      const id = await insertAccount(harness);
      const body = await accountEdit(id);
      return {
        read: apiPaths.tenants.byId(id),
        token: system.token,
        send: (headers) =>
          call(harness, 'PUT', apiPaths.tenants.byId(id), { token: system.token, body, headers }),
      };
    },
  },
  {
    name: 'PUT organizations/{id}',
    subject: 'organization',
    prepare: async () => {
      const { id } = await newOrganization();
      const path = apiPaths.organizations.byId(id);
      return {
        read: path,
        token: manager.token,
        send: (headers) =>
          call(harness, 'PUT', path, { token: manager.token, body: organizationFields(), headers }),
      };
    },
  },
  {
    name: 'DELETE organizations/{id}',
    subject: 'organization',
    prepare: async () => {
      const { id } = await newOrganization();
      const path = apiPaths.organizations.byId(id);
      return {
        read: path,
        token: manager.token,
        send: (headers) => call(harness, 'DELETE', path, { token: manager.token, headers }),
      };
    },
  },
  {
    name: 'PUT organizations/{id}/contacts/{contactId}',
    subject: 'contact',
    prepare: async () => {
      const organization = await newOrganization();
      const contact = await newContact(organization.id);
      const path = apiPaths.organizations.contact(organization.id, contact.id);
      return {
        read: path,
        token: manager.token,
        send: (headers) =>
          call(harness, 'PUT', path, {
            token: manager.token,
            body: contactFields({ title: 'Changed' }),
            headers,
          }),
      };
    },
  },
  {
    name: 'DELETE organizations/{id}/contacts/{contactId}',
    subject: 'contact',
    prepare: async () => {
      const organization = await newOrganization();
      const contact = await newContact(organization.id);
      const path = apiPaths.organizations.contact(organization.id, contact.id);
      return {
        read: path,
        token: manager.token,
        send: (headers) => call(harness, 'DELETE', path, { token: manager.token, headers }),
      };
    },
  },
];

describe.each(EDITS)('$name', ({ subject, prepare }) => {
  async function snapshot(read: string, token: string) {
    const response = await call(harness, 'GET', read, { token });
    return { status: response.status, etag: response.headers.get('ETag'), body: await response.json() };
  }

  it('answers 428 naming If-Match without it, and changes nothing', async () => {
    const edit = await prepare();
    const before = await snapshot(edit.read, edit.token);
    const response = await edit.send({});
    expect(response.status).toBe(428);
    expect(await errorOf(response)).toEqual({
      status: 428,
      message: `If-Match is required: send the ETag of the ${subject} as it was read, such as "3", so a change made on an older version is refused instead of overwriting a newer one.`,
      field: 'If-Match',
      code: 'preconditionRequired',
    });
    expect(await snapshot(edit.read, edit.token)).toEqual(before);
  });

  it('answers 412 with the current object as GET answers it and its ETag', async () => {
    const edit = await prepare();
    const before = await snapshot(edit.read, edit.token);
    expect(before.etag).toBe('"1"');
    const response = await edit.send({ 'If-Match': '"7"' });
    expect(response.status).toBe(412);
    expect(response.headers.get('ETag')).toBe(before.etag);
    const body = (await response.json()) as { error: ApiErrorBody['error']; current: unknown };
    expect(body.error).toMatchObject({ status: 412, field: 'If-Match', code: 'preconditionFailed' });
    expect(body.current).toEqual(before.body);
    expect(Object.keys(body)).toEqual(['error', 'current']);
    expect(await snapshot(edit.read, edit.token)).toEqual(before);
  });

  it('makes the change with the current ETag', async () => {
    const edit = await prepare();
    const response = await edit.send({ 'If-Match': '"1"' });
    expect(response.status).toBe(204);
    const after = await call(harness, 'GET', edit.read, { token: edit.token });
    if (after.status === 200) expect(after.headers.get('ETag')).toBe('"2"');
    else expect(after.status).toBe(404);
  });

  it('answers 400 for a malformed If-Match', async () => {
    const edit = await prepare();
    const response = await edit.send({ 'If-Match': '1' });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual({
      status: 400,
      message: `If-Match: must be the ETag of the ${subject}, such as "3".`,
      field: 'If-Match',
      code: 'invalidValue',
    });
  });
});

describe('order of the checks: 400, 404, 403, then 428 and 412', () => {
  it('answers 404 for an object out of reach and 403 without the permission before asking for If-Match', async () => {
    const organization = await newOrganization();
    const path = apiPaths.organizations.byId(organization.id);
    const stranger = await callerWith(harness, {
      accessScope: 'account',
      permissions: ['MANAGE_ORGANIZATION'],
    });
    const viewer = await callerWith(harness, {
      accessScope: 'account',
      accountId: manager.accountId,
      permissions: ['VIEW_ORGANIZATION'],
    });
    for (const method of ['PUT', 'DELETE'] as const) {
      const body = method === 'PUT' ? organizationFields() : undefined;
      expect((await call(harness, method, path, { token: stranger.token, body })).status).toBe(404);
      expect((await call(harness, method, path, { token: viewer.token, body })).status).toBe(403);
      // A malformed If-Match is bad input: refused before anything is looked up.
      const malformed = await call(harness, method, apiPaths.organizations.byId('missing'), {
        token: viewer.token,
        body,
        headers: { 'If-Match': 'yesterday' },
      });
      expect(malformed.status).toBe(400);
    }
  });

  it('answers 404 and 403 for accounts before asking for If-Match, and 409 for the System Account', async () => {
    const partnerAccount = await insertAccount(harness, { type: 'partner' });
    const partner = await signedInUser(harness, { accessScope: 'partner', accountId: partnerAccount });
    const foreign = await insertAccount(harness);
    const edit = (id: string, caller: Caller) =>
      accountEdit(id).then((body) =>
        call(harness, 'PUT', apiPaths.tenants.byId(id), { token: caller.token, body }),
      );
    expect((await edit(foreign, partner)).status).toBe(404);
    const auditor = await signedInUser(harness, { accessScope: 'system', roles: ['read_only_auditor'] });
    expect((await edit(foreign, auditor)).status).toBe(403);
    expect((await edit(system.accountId, system)).status).toBe(409);
    const child = await createChildAccount(harness, partnerAccount);
    expect((await edit(child, partner)).status).toBe(428);
  });
});

describe('sign-in page settings', () => {
  const customization: LoginCustomization = {
    logo: null,
    urls: {
      termsOfUse: 'https://example.com/terms',
      privacyPolicy: null,
      legalRepository: null,
      webtrustAudit: null,
      support: null,
      contactUs: null,
    },
    copyright: '© Example',
  };
  const put = (body: LoginCustomization, headers: Record<string, string> = {}) =>
    call(harness, 'PUT', apiPaths.identity.loginCustomization, { token: system.token, body, headers });

  it('carry their version as ETag and honour If-Match, answering 412 with the stored settings', async () => {
    const initial = await call(harness, 'GET', apiPaths.identity.loginCustomization);
    expect(initial.headers.get('ETag')).toBe('"0"');

    const first = await put(customization, { 'If-Match': '"0"' });
    expect(first.status).toBe(200);
    expect(first.headers.get('ETag')).toBe('"1"');

    const unconditional = await put({ ...customization, copyright: '© Second' });
    expect(unconditional.headers.get('ETag')).toBe('"2"');

    const stale = await put({ ...customization, copyright: '© Lost' }, { 'If-Match': '"1"' });
    expect(stale.status).toBe(412);
    expect(stale.headers.get('ETag')).toBe('"2"');
    const read = await call(harness, 'GET', apiPaths.identity.loginCustomization);
    expect(await stale.json()).toEqual({
      error: {
        status: 412,
        message: 'The sign-in page settings were changed meanwhile. Reload them and try again.',
        field: 'If-Match',
        code: 'preconditionFailed',
      },
      current: await read.json(),
    });
    expect(read.headers.get('ETag')).toBe('"2"');

    const malformed = await put(customization, { 'If-Match': '2' });
    expect(malformed.status).toBe(400);
  });
});

describe('API reference', () => {
  interface Described {
    parameters?: { name: string; in: string; required: boolean }[];
    responses: Record<
      string,
      { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }
    >;
  }
  async function operation(path: string, method: string): Promise<Described> {
    const documents = await servedDocuments(harness.app);
    const paths = { ...documents.public.paths, ...documents.console.paths } as Record<
      string,
      Record<string, Described>
    >;
    const found = paths[path]?.[method];
    if (!found) throw new Error(`${method} ${path} is not described.`);
    return found;
  }
  const header = (described: Described, name: string) =>
    described.parameters?.find((parameter) => parameter.in === 'header' && parameter.name === name);

  it('describes Idempotency-Key on mutating operations, except sign-in and refresh', async () => {
    const create = await operation(apiPaths.organizations.list, 'post');
    expect(header(create, 'Idempotency-Key')).toMatchObject({ required: false });
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(create.responses['201']?.headers).toHaveProperty('Idempotency-Replayed');
    expect(header(await operation(apiPaths.identity.login, 'post'), 'Idempotency-Key')).toBeUndefined();
    expect(header(await operation(apiPaths.identity.refresh, 'post'), 'Idempotency-Key')).toBeUndefined();
    expect(header(await operation(apiPaths.organizations.list, 'get'), 'Idempotency-Key')).toBeUndefined();
  });

  it('describes If-Match as required on the queueable edits, with 428 and the 412 body', async () => {
    for (const [path, method] of [
      ['/account/ui-api/v1/tenant/{id}', 'put'],
      ['/account/ui-api/v1/organizations/{id}', 'put'],
      ['/account/ui-api/v1/organizations/{id}', 'delete'],
      ['/account/ui-api/v1/organizations/{id}/contacts/{contactId}', 'put'],
      ['/account/ui-api/v1/organizations/{id}/contacts/{contactId}', 'delete'],
    ] as const) {
      const described = await operation(path, method);
      expect(header(described, 'If-Match')).toMatchObject({ required: true });
      expect(described.responses).toHaveProperty('428');
      expect(described.responses['412']?.content?.['application/json']?.schema).toMatchObject({
        required: ['error', 'current'],
      });
    }
    const settings = await operation(apiPaths.identity.loginCustomization, 'put');
    expect(header(settings, 'If-Match')).toMatchObject({ required: false });
    expect(settings.responses).not.toHaveProperty('428');
  });

  it('describes the storage secret', async () => {
    const described = await operation(apiPaths.identity.storageSecret, 'get');
    expect(described.responses).toHaveProperty('401');
  });
});
