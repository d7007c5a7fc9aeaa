import { Hono } from 'hono';
import type { Updateable } from 'kysely';
import { apiPaths } from '../../contract/paths.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import {
  type Contact,
  contactFieldsSchema,
  contactListQuerySchema,
  contactListSchema,
  contactParamsSchema,
  contactSchema,
  type Organization,
  organizationCreateSchema,
  organizationListQuerySchema,
  organizationListSchema,
  organizationParamsSchema,
  organizationSchema,
  organizationUpdateSchema,
} from '../../contract/schemas/organizations.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { OrganizationSortColumn } from '../../contract/sort-columns.ts';
import type { AppDeps } from '../app-deps.ts';
import { updateDetails } from '../audit/change.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import type { Database } from '../db/schema.ts';
import type { AppEnv } from '../http/app-env.ts';
import { describeOperation } from '../http/describe-operation.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { requireAuth } from '../identity/authenticate.ts';
import {
  type ChangeSpec,
  type Located,
  type ResourceKind,
  type Versioned,
  versionedResource,
} from '../resources/versioned-resource.ts';
import { assertOrganizationPermission, authorizeAccount, withinReach } from './access.ts';
import {
  deleteVersioned,
  findContact,
  findOrganization,
  holdAccount,
  insertContact,
  insertOrganization,
  listContacts,
  listOrganizations,
  updateVersioned,
  type VersionedTable,
} from './repository.ts';

const ORGANIZATIONS = '/organizations';
const ORGANIZATION = '/organizations/:id';
const CONTACTS = '/organizations/:id/contacts';
const CONTACT = '/organizations/:id/contacts/:contactId';

const DEFAULT_ORGANIZATION_SORT: SortOrder<OrganizationSortColumn> = { column: 'name', direction: 'asc' };

const organizationKind: ResourceKind<{ id: string }, Organization> = {
  label: 'Organization',
  resourceType: 'ORGANIZATION',
  find: async (db, principal, { id }, lock) =>
    withinReach(db, principal, await findOrganization(db, id, lock)),
  authorize: (principal, _found, access) => assertOrganizationPermission(principal, access),
};

const contactKind: ResourceKind<{ id: string; contactId: string }, Contact> = {
  label: 'Contact',
  resourceType: 'ORGANIZATION_CONTACT',
  find: async (db, principal, params, lock) =>
    withinReach(db, principal, await findContact(db, params, lock)),
  authorize: (principal, _found, access) => assertOrganizationPermission(principal, access),
};

/** How the trail names an organization or a contact, and which of its fields it keeps values of. */
interface TrailEntry<TTable extends VersionedTable, TRow> {
  table: TTable;
  /** Ids and names, never other personal data. */
  describe(row: TRow): Record<string, unknown>;
  /** Audit details of a deletion beyond `describe`, such as what the deletion took with it. */
  describeRemoval?(row: TRow): Record<string, unknown>;
  /** Fields whose old and new values an UPDATE event keeps; only that the others changed is kept. */
  disclosed: readonly string[];
}

const organizationTrail: TrailEntry<'organizations', Organization> = {
  table: 'organizations',
  describe: (row) => ({ name: row.name }),
  describeRemoval: (row) => ({ contacts_deleted: row.contacts_count }),
  disclosed: ['name'],
};

// A contact is a person: the trail keeps the name and the role, not how to reach them.
const contactTrail: TrailEntry<'organization_contacts', Contact> = {
  table: 'organization_contacts',
  describe: (row) => ({
    organization_id: row.organization_id,
    first_name: row.first_name,
    last_name: row.last_name,
  }),
  disclosed: ['first_name', 'last_name', 'type'],
};

/** Replacing the fields of a row and deleting it, both under If-Match, as the console queues them. */
function rowChanges<TTable extends VersionedTable, TRow extends Versioned & Record<string, unknown>>(
  trail: TrailEntry<TTable, TRow>,
) {
  return {
    update: (fields: Updateable<Database[TTable]>): ChangeSpec<TRow> => ({
      precondition: 'required',
      apply: async (trx, { row }: Located<TRow>, now) => {
        await updateVersioned(trx, trail.table, row.id, fields, now);
        return { action: 'UPDATE', details: updateDetails(row, fields, trail.disclosed) };
      },
    }),
    remove: (): ChangeSpec<TRow> => ({
      precondition: 'required',
      apply: async (trx, { row }: Located<TRow>) => {
        await deleteVersioned(trx, trail.table, row.id);
        return { action: 'DELETE', details: { ...trail.describe(row), ...trail.describeRemoval?.(row) } };
      },
    }),
  };
}

/** Organizations of an account and their contacts (/account/ui-api/v1), described in docs/api.md. */
export function organizationRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  // Per route, not `app.use('/organizations/*')`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  const organizations = versionedResource(deps, organizationKind);
  const contacts = versionedResource(deps, contactKind);
  const organizationChanges = rowChanges(organizationTrail);
  const contactChanges = rowChanges(contactTrail);
  const organizationParams = validateParams(organizationParamsSchema);
  const contactParams = validateParams(contactParamsSchema);

  return new Hono<AppEnv>()
    .get(
      ORGANIZATIONS,
      describeOperation({
        tag: 'Organizations',
        summary: "An account's organizations (the caller's primary account by default), a page at a time.",
        success: { status: 200, description: 'Organizations', schema: organizationListSchema },
        failures: [400, 403, 404],
      }),
      authenticated,
      validateQuery(organizationListQuerySchema),
      async (c) => {
        const principal = c.var.principal;
        const query = c.req.valid('query');
        const accountId = query.accountId ?? principal.primaryAccountId;
        await authorizeAccount(db, principal, accountId, 'view');
        const page = await listOrganizations(db, {
          accountId,
          limit: query.limit ?? DEFAULT_LIST_LIMIT,
          offset: query.offset ?? 0,
          sort: query.sort ?? DEFAULT_ORGANIZATION_SORT,
          name: query.name ?? '',
        });
        return c.json(page);
      },
    )
    .post(
      ORGANIZATIONS,
      describeOperation({
        tag: 'Organizations',
        summary: 'Creates an organization in an account (manage organization); Location names it.',
        success: { status: 201, description: 'Organization created', schema: organizationSchema, etag: true },
        failures: [400, 403, 404, 413, 415],
      }),
      authenticated,
      validateJson(organizationCreateSchema),
      (c) => {
        const { account_id: accountId, ...fields } = c.req.valid('json');
        return organizations.create(c, {
          authorizeParent: async (trx) => {
            await authorizeAccount(trx, c.var.principal, accountId, 'manage');
            if (!(await holdAccount(trx, accountId))) throw new ApiError(404, ACCOUNT_NOT_FOUND);
            return accountId;
          },
          insert: (trx, now) => insertOrganization(trx, accountId, fields, now),
          describe: organizationTrail.describe,
          location: (row) => apiPaths.organizations.byId(row.id),
        });
      },
    )
    .get(
      ORGANIZATION,
      describeOperation({
        tag: 'Organizations',
        summary: 'An organization with its contact count; ETag is its version.',
        success: { status: 200, description: 'Organization', schema: organizationSchema, etag: true },
        failures: [400, 403, 404],
      }),
      authenticated,
      organizationParams,
      (c) => organizations.read(c, c.req.valid('param')),
    )
    .put(
      ORGANIZATION,
      describeOperation({
        tag: 'Organizations',
        summary: "Replaces an organization's fields (manage organization); If-Match is required.",
        success: { status: 204, description: 'Organization changed' },
        failures: [400, 403, 404, 413, 415],
        ifMatch: { required: true, current: organizationSchema },
      }),
      authenticated,
      organizationParams,
      validateJson(organizationUpdateSchema),
      (c) => organizations.change(c, c.req.valid('param'), organizationChanges.update(c.req.valid('json'))),
    )
    .delete(
      ORGANIZATION,
      describeOperation({
        tag: 'Organizations',
        summary: 'Deletes an organization and its contacts (manage organization); If-Match is required.',
        success: { status: 204, description: 'Organization deleted' },
        failures: [400, 403, 404],
        ifMatch: { required: true, current: organizationSchema },
      }),
      authenticated,
      organizationParams,
      (c) => organizations.change(c, c.req.valid('param'), organizationChanges.remove()),
    )
    .get(
      CONTACTS,
      describeOperation({
        tag: 'Organizations',
        summary: "An organization's contacts by last and first name, a page at a time.",
        success: { status: 200, description: 'Contacts', schema: contactListSchema },
        failures: [400, 403, 404],
      }),
      authenticated,
      organizationParams,
      validateQuery(contactListQuerySchema),
      async (c) => {
        const { row } = await organizations.locate(db, c.var.principal, c.req.valid('param'), 'view', false);
        const { limit = DEFAULT_LIST_LIMIT, offset = 0 } = c.req.valid('query');
        return c.json(await listContacts(db, row.id, { limit, offset }));
      },
    )
    .post(
      CONTACTS,
      describeOperation({
        tag: 'Organizations',
        summary: 'Adds a contact to an organization (manage organization); Location names it.',
        success: { status: 201, description: 'Contact created', schema: contactSchema, etag: true },
        failures: [400, 403, 404, 413, 415],
      }),
      authenticated,
      organizationParams,
      validateJson(contactFieldsSchema),
      (c) => {
        const params = c.req.valid('param');
        return contacts.create(c, {
          // The organization stays locked until the contact is stored, so it cannot be deleted meanwhile.
          authorizeParent: async (trx) =>
            (await organizations.locate(trx, c.var.principal, params, 'manage', true)).accountId,
          insert: (trx, now) => insertContact(trx, params.id, c.req.valid('json'), now),
          describe: contactTrail.describe,
          location: (row) => apiPaths.organizations.contact(row.organization_id, row.id),
        });
      },
    )
    .get(
      CONTACT,
      describeOperation({
        tag: 'Organizations',
        summary: 'A contact of the organization; ETag is its version.',
        success: { status: 200, description: 'Contact', schema: contactSchema, etag: true },
        failures: [400, 403, 404],
      }),
      authenticated,
      contactParams,
      (c) => contacts.read(c, c.req.valid('param')),
    )
    .put(
      CONTACT,
      describeOperation({
        tag: 'Organizations',
        summary: "Replaces a contact's fields (manage organization); If-Match is required.",
        success: { status: 204, description: 'Contact changed' },
        failures: [400, 403, 404, 413, 415],
        ifMatch: { required: true, current: contactSchema },
      }),
      authenticated,
      contactParams,
      validateJson(contactFieldsSchema),
      (c) => contacts.change(c, c.req.valid('param'), contactChanges.update(c.req.valid('json'))),
    )
    .delete(
      CONTACT,
      describeOperation({
        tag: 'Organizations',
        summary: 'Deletes a contact (manage organization); If-Match is required.',
        success: { status: 204, description: 'Contact deleted' },
        failures: [400, 403, 404],
        ifMatch: { required: true, current: contactSchema },
      }),
      authenticated,
      contactParams,
      (c) => contacts.change(c, c.req.valid('param'), contactChanges.remove()),
    );
}
