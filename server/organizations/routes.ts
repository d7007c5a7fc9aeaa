import { Hono } from 'hono';
import { apiPaths } from '../../contract/paths.ts';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import {
  type Contact,
  contactFieldsSchema,
  contactListQuerySchema,
  contactParamsSchema,
  type Organization,
  organizationCreateSchema,
  organizationListQuerySchema,
  organizationParamsSchema,
  organizationUpdateSchema,
} from '../../contract/schemas/organizations.ts';
import type { SortOrder } from '../../contract/schemas/query.ts';
import type { OrganizationSortColumn } from '../../contract/sort-columns.ts';
import { ACCOUNT_NOT_FOUND } from '../accounts/access.ts';
import type { AppDeps } from '../app-deps.ts';
import type { AppEnv } from '../http/app-env.ts';
import { requireAuth } from '../http/authenticate.ts';
import { ApiError } from '../http/errors.ts';
import { validateJson, validateParams, validateQuery } from '../http/validate.ts';
import { authorizeAccount } from './access.ts';
import {
  findContact,
  findOrganization,
  holdAccount,
  insertContact,
  insertOrganization,
  listContacts,
  listOrganizations,
} from './repository.ts';
import { type ResourceKind, resourceActions } from './resource.ts';

const ORGANIZATIONS = '/organizations';
const ORGANIZATION = '/organizations/:id';
const CONTACTS = '/organizations/:id/contacts';
const CONTACT = '/organizations/:id/contacts/:contactId';

const DEFAULT_ORGANIZATION_SORT: SortOrder<OrganizationSortColumn> = { column: 'name', direction: 'asc' };

const organizationKind: ResourceKind<'organizations', { id: string }, Organization> = {
  table: 'organizations',
  label: 'Organization',
  resourceType: 'ORGANIZATION',
  find: (db, { id }, lock) => findOrganization(db, id, lock),
  describe: (row) => ({ name: row.name }),
  describeRemoval: (row) => ({ contacts_deleted: row.contacts_count }),
  location: (row) => apiPaths.organizations.byId(row.id),
};

const contactKind: ResourceKind<'organization_contacts', { id: string; contactId: string }, Contact> = {
  table: 'organization_contacts',
  label: 'Contact',
  resourceType: 'ORGANIZATION_CONTACT',
  find: findContact,
  describe: (row) => ({
    organization_id: row.organization_id,
    first_name: row.first_name,
    last_name: row.last_name,
  }),
  location: (row) => apiPaths.organizations.contact(row.organization_id, row.id),
};

/** Organizations of an account and their contacts (/account/ui-api/v1), described in docs/api.md. */
export function organizationRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  // Per route, not `app.use('/organizations/*')`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);
  const organizations = resourceActions(deps, organizationKind);
  const contacts = resourceActions(deps, contactKind);
  const organizationParams = validateParams(organizationParamsSchema);
  const contactParams = validateParams(contactParamsSchema);

  return new Hono<AppEnv>()
    .get(ORGANIZATIONS, authenticated, validateQuery(organizationListQuerySchema), async (c) => {
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
    })
    .post(ORGANIZATIONS, authenticated, validateJson(organizationCreateSchema), (c) => {
      const { account_id: accountId, ...fields } = c.req.valid('json');
      return organizations.create(
        c,
        async (trx) => {
          await authorizeAccount(trx, c.var.principal, accountId, 'manage');
          if (!(await holdAccount(trx, accountId))) throw new ApiError(404, ACCOUNT_NOT_FOUND);
          return accountId;
        },
        (trx, now) => insertOrganization(trx, accountId, fields, now),
      );
    })
    .get(ORGANIZATION, authenticated, organizationParams, (c) => organizations.read(c, c.req.valid('param')))
    .put(ORGANIZATION, authenticated, organizationParams, validateJson(organizationUpdateSchema), (c) =>
      organizations.update(c, c.req.valid('param'), c.req.valid('json')),
    )
    .delete(ORGANIZATION, authenticated, organizationParams, (c) =>
      organizations.remove(c, c.req.valid('param')),
    )
    .get(CONTACTS, authenticated, organizationParams, validateQuery(contactListQuerySchema), async (c) => {
      const { row } = await organizations.locate(db, c.var.principal, c.req.valid('param'), 'view', false);
      const { limit = DEFAULT_LIST_LIMIT, offset = 0 } = c.req.valid('query');
      return c.json(await listContacts(db, row.id, { limit, offset }));
    })
    .post(CONTACTS, authenticated, organizationParams, validateJson(contactFieldsSchema), (c) => {
      const params = c.req.valid('param');
      return contacts.create(
        c,
        // The organization stays locked until the contact is stored, so it cannot be deleted meanwhile.
        async (trx) => (await organizations.locate(trx, c.var.principal, params, 'manage', true)).accountId,
        (trx, now) => insertContact(trx, params.id, c.req.valid('json'), now),
      );
    })
    .get(CONTACT, authenticated, contactParams, (c) => contacts.read(c, c.req.valid('param')))
    .put(CONTACT, authenticated, contactParams, validateJson(contactFieldsSchema), (c) =>
      contacts.update(c, c.req.valid('param'), c.req.valid('json')),
    )
    .delete(CONTACT, authenticated, contactParams, (c) => contacts.remove(c, c.req.valid('param')));
}
