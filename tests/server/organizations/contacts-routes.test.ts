import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { Contact, ContactFieldsInput, Organization } from '../../../contract/schemas/organizations.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import { type Caller, call, callerWith, contactFields, organizationFields } from './requests.ts';

describe('contacts of an organization', () => {
  let harness: TestApp;
  let caller: Caller;
  beforeAll(async () => {
    harness = await createTestApp();
    caller = await callerWith(harness, { accessScope: 'account', permissions: ['MANAGE_ORGANIZATION'] });
  });
  afterAll(() => harness.close());

  async function createOrganization(): Promise<Organization> {
    const response = await call(harness, 'POST', apiPaths.organizations.list, {
      token: caller.token,
      body: { ...organizationFields(), account_id: caller.accountId },
    });
    expect(response.status).toBe(201);
    return response.json();
  }

  async function createContact(organizationId: string, fields: ContactFieldsInput = contactFields()) {
    const response = await call(harness, 'POST', apiPaths.organizations.contacts(organizationId), {
      token: caller.token,
      body: fields,
    });
    expect(response.status).toBe(201);
    return (await response.json()) as Contact;
  }

  async function listContacts(
    organizationId: string,
    query = '',
  ): Promise<{ items: Contact[]; total: number }> {
    const response = await call(
      harness,
      'GET',
      `${apiPaths.organizations.contacts(organizationId)}${query}`,
      {
        token: caller.token,
      },
    );
    expect(response.status).toBe(200);
    return response.json();
  }

  const fullNames = (page: { items: Contact[] }) =>
    page.items.map((item) => `${item.first_name} ${item.last_name}`);

  it('adds a contact, answering it with its Location and version, and reads it back', async () => {
    const organization = await createOrganization();
    const fields = contactFields({ type: 'administrative' });
    const response = await call(harness, 'POST', apiPaths.organizations.contacts(organization.id), {
      token: caller.token,
      body: fields,
    });
    expect(response.status).toBe(201);
    const created = (await response.json()) as Contact;
    expect(created).toEqual({
      ...fields,
      id: expect.any(String),
      organization_id: organization.id,
      version: 1,
    });
    expect(response.headers.get('Location')).toBe(
      apiPaths.organizations.contact(organization.id, created.id),
    );

    const read = await call(harness, 'GET', apiPaths.organizations.contact(organization.id, created.id), {
      token: caller.token,
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('ETag')).toBe('"1"');
    expect(await read.json()).toEqual(created);
  });

  it('stores absent phone and title as empty text', async () => {
    const organization = await createOrganization();
    const created = await createContact(organization.id, {
      first_name: ' Ada ',
      last_name: 'Lovelace',
      email: ' ada@example.com ',
      type: 'technical',
    });
    expect(created).toMatchObject({ first_name: 'Ada', email: 'ada@example.com', phone: '', title: '' });
  });

  it('lists contacts by last name, then first name ignoring case, then id, a page at a time', async () => {
    const organization = await createOrganization();
    const made: Contact[] = [];
    for (const [first, last] of [
      ['Alan', 'Turing'],
      ['charles', 'Babbage'],
      ['Edsger', 'dijkstra'],
      ['Ada', 'Lovelace'],
      ['Bob', 'Babbage'],
      ['Ada', 'Lovelace'],
    ] as const) {
      made.push(await createContact(organization.id, contactFields({ first_name: first, last_name: last })));
    }
    const twins = made
      .filter((item) => item.last_name === 'Lovelace')
      .map((item) => item.id)
      .sort();

    const all = await listContacts(organization.id);
    expect(all.total).toBe(6);
    expect(fullNames(all)).toEqual([
      'Bob Babbage',
      'charles Babbage',
      'Edsger dijkstra',
      'Ada Lovelace',
      'Ada Lovelace',
      'Alan Turing',
    ]);
    expect(all.items.slice(3, 5).map((item) => item.id)).toEqual(twins);

    const page = await listContacts(organization.id, '?limit=2&offset=3');
    expect(page).toEqual({ items: all.items.slice(3, 5), total: 6, total_is_lower_bound: false });
  });

  it('changes a contact, bumping its version', async () => {
    const organization = await createOrganization();
    const created = await createContact(organization.id);
    const path = apiPaths.organizations.contact(organization.id, created.id);
    const replacement = contactFields({
      email: 'g.hopper@example.com',
      title: undefined,
      type: 'administrative',
    });
    const response = await call(harness, 'PUT', path, {
      token: caller.token,
      body: replacement,
      headers: { 'If-Match': '"1"' },
    });
    expect(response.status).toBe(204);

    const read = await call(harness, 'GET', path, { token: caller.token });
    expect(read.headers.get('ETag')).toBe('"2"');
    expect(await read.json()).toEqual({
      ...replacement,
      title: '',
      id: created.id,
      organization_id: organization.id,
      version: 2,
    });
  });

  it('deletes a contact and counts the organization’s contacts again', async () => {
    const organization = await createOrganization();
    const kept = await createContact(organization.id, contactFields({ last_name: 'Kept' }));
    const removed = await createContact(organization.id, contactFields({ last_name: 'Removed' }));
    const path = apiPaths.organizations.contact(organization.id, removed.id);

    const removal = await call(harness, 'DELETE', path, {
      token: caller.token,
      headers: { 'If-Match': '"1"' },
    });
    expect(removal.status).toBe(204);
    expect((await call(harness, 'GET', path, { token: caller.token })).status).toBe(404);
    expect((await listContacts(organization.id)).items.map((item) => item.id)).toEqual([kept.id]);
    const read = await call(harness, 'GET', apiPaths.organizations.byId(organization.id), {
      token: caller.token,
    });
    expect(await read.json()).toMatchObject({ contacts_count: 1 });
  });

  it('answers 404 for a contact addressed under another organization, and leaves it alone', async () => {
    const owner = await createOrganization();
    const other = await createOrganization();
    const created = await createContact(owner.id);
    const wrongPath = apiPaths.organizations.contact(other.id, created.id);
    const notFound = { error: { status: 404, message: 'Contact not found.', code: 'notFound' } };

    for (const response of [
      await call(harness, 'GET', wrongPath, { token: caller.token }),
      await call(harness, 'PUT', wrongPath, {
        token: caller.token,
        body: contactFields({ last_name: 'Moved' }),
      }),
      await call(harness, 'DELETE', wrongPath, { token: caller.token }),
    ]) {
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual(notFound);
    }
    const read = await call(harness, 'GET', apiPaths.organizations.contact(owner.id, created.id), {
      token: caller.token,
    });
    expect(await read.json()).toEqual(created);
  });

  it('answers 404 for the contacts of an organization that does not exist', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const listed = await call(harness, 'GET', apiPaths.organizations.contacts(missing), {
      token: caller.token,
    });
    expect(listed.status).toBe(404);
    expect(await listed.json()).toEqual({
      error: { status: 404, message: 'Organization not found.', code: 'notFound' },
    });
    const added = await call(harness, 'POST', apiPaths.organizations.contacts(missing), {
      token: caller.token,
      body: contactFields(),
    });
    expect(added.status).toBe(404);
  });

  it('audits each change with the organization’s account and the contact’s name, never its e-mail or phone', async () => {
    const organization = await createOrganization();
    const created = await createContact(
      organization.id,
      contactFields({
        first_name: 'Katherine',
        last_name: 'Johnson',
        email: 'kj@example.com',
        phone: '+1 555 0199',
      }),
    );
    const path = apiPaths.organizations.contact(organization.id, created.id);
    await call(harness, 'PUT', path, {
      token: caller.token,
      body: contactFields({
        first_name: 'Katherine',
        last_name: 'Goble',
        email: 'kg@example.com',
        phone: '+1 555 0199',
      }),
      headers: { 'If-Match': '"1"' },
    });
    await call(harness, 'DELETE', path, { token: caller.token, headers: { 'If-Match': '"2"' } });

    const events = await harness.deps.db
      .selectFrom('audit_events')
      .select(['action', 'resource_type', 'account_id', 'actor_id', 'details'])
      .where('resource_id', '=', created.id)
      .orderBy('seq')
      .execute();
    const named = { organization_id: organization.id, first_name: 'Katherine' };
    expect(events).toEqual(
      [
        { action: 'CREATE', details: { ...named, last_name: 'Johnson' } },
        {
          action: 'UPDATE',
          // The name's values are kept; the e-mail address only as changed.
          details: {
            changes: { last_name: { from: 'Johnson', to: 'Goble' }, email: { withheld: true } },
          },
        },
        { action: 'DELETE', details: { ...named, last_name: 'Goble' } },
      ].map((event) => ({
        ...event,
        resource_type: 'ORGANIZATION_CONTACT',
        account_id: caller.accountId,
        actor_id: caller.id,
      })),
    );
    const recorded = JSON.stringify(events);
    expect(recorded).not.toContain('example.com');
    expect(recorded).not.toContain('0199');
  });
});
