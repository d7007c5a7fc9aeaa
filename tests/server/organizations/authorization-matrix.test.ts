import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPaths } from '../../../contract/paths.ts';
import type { AccessScope, PermissionName } from '../../../contract/permissions.ts';
import { contactFieldsSchema, organizationFieldsSchema } from '../../../contract/schemas/organizations.ts';
import { insertContact, insertOrganization } from '../../../server/organizations/repository.ts';
import { createTestApp, type TestApp } from '../test-app.ts';
import {
  addToAccount,
  type Caller,
  call,
  callerWith,
  contactFields,
  createChildAccount,
  organizationFields,
} from './requests.ts';

/**
 * Every endpoint, for callers of every scope with and without the organization permissions,
 * against organizations in accounts the caller can and cannot reach.
 */

/** Where the addressed organization lives, seen from the caller. */
type Target = 'own' | 'partnerChild' | 'member' | 'foreign' | 'missing';
const TARGETS: readonly Target[] = ['own', 'partnerChild', 'member', 'foreign', 'missing'];

/**
 * Which targets each scope reaches. `own` is the caller's primary account; `partnerChild` an account
 * whose partner is the partner callers' primary account; `member` an account the account-scope
 * callers were added to; `foreign` an account related to no caller; `missing` does not exist.
 */
const REACHES: Record<AccessScope, Record<Target, boolean>> = {
  system: { own: true, partnerChild: true, member: true, foreign: true, missing: false },
  partner: { own: true, partnerChild: true, member: false, foreign: false, missing: false },
  account: { own: true, partnerChild: false, member: true, foreign: false, missing: false },
};

type Grant = 'manage' | 'view' | 'none';
const GRANTS: Record<Grant, readonly PermissionName[]> = {
  manage: ['MANAGE_ORGANIZATION'],
  view: ['VIEW_ORGANIZATION'],
  // Other permissions, so the refusal is about organizations and not about an empty role.
  none: ['VIEW_ACCOUNT', 'MANAGE_ACCOUNT', 'MANAGE_USER'],
};

const GRANT_LABELS: Record<Grant, string> = {
  manage: 'the manage permission',
  view: 'the view permission',
  none: 'neither organization permission',
};

const CALLERS = (['system', 'partner', 'account'] as const).flatMap((scope) =>
  (['manage', 'view', 'none'] as const).map((grant) => ({ scope, grant, holding: GRANT_LABELS[grant] })),
);

interface Fixture {
  accountId: string;
  organizationId: string;
  contactId: string;
  /** The name a created organization would get, to find out whether one was created. */
  newName: string;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** Reads need the view (or manage) permission, writes manage; success codes as account administration §7. */
const BY_METHOD: Record<Method, { access: 'view' | 'manage'; success: number }> = {
  GET: { access: 'view', success: 200 },
  POST: { access: 'manage', success: 201 },
  PUT: { access: 'manage', success: 204 },
  DELETE: { access: 'manage', success: 204 },
};

interface Endpoint {
  name: string;
  method: Method;
  notFound: string;
  path: (fixture: Fixture) => string;
  body?: (fixture: Fixture) => unknown;
}

let harness: TestApp;

const { organizations } = apiPaths;
const ENDPOINTS: readonly Endpoint[] = [
  {
    name: 'organizations',
    method: 'GET',
    notFound: 'Account not found.',
    path: (f) => `${organizations.list}?accountId=${f.accountId}`,
  },
  {
    name: 'organizations',
    method: 'POST',
    notFound: 'Account not found.',
    path: () => organizations.list,
    body: (f) => ({ ...organizationFields({ name: f.newName }), account_id: f.accountId }),
  },
  ...(['GET', 'PUT', 'DELETE'] as const).map((method) => ({
    name: 'organizations/{id}',
    method,
    notFound: 'Organization not found.',
    path: (f: Fixture) => organizations.byId(f.organizationId),
    body: method === 'PUT' ? () => organizationFields() : undefined,
  })),
  ...(['GET', 'POST'] as const).map((method) => ({
    name: 'organizations/{id}/contacts',
    method,
    notFound: 'Organization not found.',
    path: (f: Fixture) => organizations.contacts(f.organizationId),
    body: method === 'POST' ? () => contactFields() : undefined,
  })),
  ...(['GET', 'PUT', 'DELETE'] as const).map((method) => ({
    name: 'organizations/{id}/contacts/{contactId}',
    method,
    notFound: 'Contact not found.',
    path: (f: Fixture) => organizations.contact(f.organizationId, f.contactId),
    body: method === 'PUT' ? () => contactFields({ email: 'changed@example.com' }) : undefined,
  })),
];

const FORBIDDEN = {
  view: 'You do not have permission to view organization.',
  manage: 'You do not have permission to manage organization.',
};

function expectedOutcome(endpoint: Endpoint, scope: AccessScope, grant: Grant, target: Target) {
  const { access, success } = BY_METHOD[endpoint.method];
  if (!REACHES[scope][target]) return { status: 404, message: endpoint.notFound, changed: false };
  const allowed = grant === 'manage' || (grant === 'view' && access === 'view');
  if (!allowed) return { status: 403, message: FORBIDDEN[access], changed: false };
  return { status: success, message: null, changed: access === 'manage' };
}

describe('who may read and change organizations and contacts', () => {
  const callers = new Map<string, Caller>();
  const targetAccounts = new Map<string, Record<Target, string>>();

  beforeAll(async () => {
    harness = await createTestApp();
    const partnerAccount = await harness.createAccount();
    const partnerChild = await createChildAccount(harness, partnerAccount);
    const member = await harness.createAccount();
    const foreign = await harness.createAccount();
    const accountScopeAccount = await harness.createAccount();
    const primaryOf: Record<AccessScope, string | undefined> = {
      system: undefined,
      partner: partnerAccount,
      account: accountScopeAccount,
    };
    for (const { scope, grant } of CALLERS) {
      const caller = await callerWith(harness, {
        accessScope: scope,
        accountId: primaryOf[scope],
        permissions: GRANTS[grant],
      });
      if (scope === 'account') await addToAccount(harness, caller.id, member);
      callers.set(`${scope}/${grant}`, caller);
      targetAccounts.set(`${scope}/${grant}`, {
        own: caller.accountId,
        partnerChild,
        member,
        foreign,
        missing: randomUUID(),
      });
    }
  });
  afterAll(() => harness.close());

  /** A fresh organization with one contact in the target account, or ids of nothing for `missing`. */
  async function fixtureIn(target: Target, accountId: string): Promise<Fixture> {
    const newName = `New ${randomUUID().slice(0, 8)}`;
    if (target === 'missing') {
      return { accountId, organizationId: randomUUID(), contactId: randomUUID(), newName };
    }
    const { db, now } = harness.deps;
    const fields = v.parse(organizationFieldsSchema, organizationFields());
    const organization = await insertOrganization(db, accountId, fields, now());
    const contact = await insertContact(
      db,
      organization.id,
      v.parse(contactFieldsSchema, contactFields()),
      now(),
    );
    return { accountId, organizationId: organization.id, contactId: contact.id, newName };
  }

  /** What a request could have changed: versions, the number of contacts, a created organization. */
  async function stateOf(fixture: Fixture) {
    const { db } = harness.deps;
    const [organization, contact, contacts, created] = await Promise.all([
      db
        .selectFrom('organizations')
        .select('version')
        .where('id', '=', fixture.organizationId)
        .executeTakeFirst(),
      db
        .selectFrom('organization_contacts')
        .select('version')
        .where('id', '=', fixture.contactId)
        .executeTakeFirst(),
      db
        .selectFrom('organization_contacts')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('organization_id', '=', fixture.organizationId)
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('organizations')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .where('name', '=', fixture.newName)
        .executeTakeFirstOrThrow(),
    ]);
    return [organization?.version, contact?.version, contacts.count, created.count];
  }

  describe.each(ENDPOINTS)('$method $name', (endpoint) => {
    it.each(CALLERS)('$scope scope holding $holding', async ({ scope, grant }) => {
      const key = `${scope}/${grant}`;
      const caller = callers.get(key);
      const accounts = targetAccounts.get(key);
      if (!caller || !accounts) throw new Error(`No caller ${key}.`);

      const actual: Record<string, unknown> = {};
      const expected: Record<string, unknown> = {};
      for (const target of TARGETS) {
        const fixture = await fixtureIn(target, accounts[target]);
        const before = await stateOf(fixture);
        // Changes of one object name the version they were made on, as they must (or 428).
        const onVersion = endpoint.method === 'PUT' || endpoint.method === 'DELETE';
        const response = await call(harness, endpoint.method, endpoint.path(fixture), {
          token: caller.token,
          body: endpoint.body?.(fixture),
          headers: onVersion ? { 'If-Match': '"1"' } : {},
        });
        const body = (await response.json().catch(() => null)) as { error?: { message: string } } | null;
        actual[target] = {
          status: response.status,
          message: body?.error?.message ?? null,
          changed: JSON.stringify(await stateOf(fixture)) !== JSON.stringify(before),
        };
        expected[target] = expectedOutcome(endpoint, scope, grant, target);
      }
      expect(actual).toEqual(expected);
    });
  });
});
