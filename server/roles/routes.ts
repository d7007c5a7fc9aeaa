import { Hono } from 'hono';
import { DEFAULT_LIST_LIMIT } from '../../contract/schemas/common.ts';
import {
  type Role,
  type RoleList,
  roleIdParamsSchema,
  roleListQuerySchema,
} from '../../contract/schemas/users.ts';
import type { AppDeps } from '../app-deps.ts';
import { ACCOUNT_NOT_FOUND } from '../authorization/account-reach.ts';
import { ROLE_NOT_FOUND, reachesAccount } from '../authorization/user-reach.ts';
import type { AppEnv } from '../http/app-env.ts';
import { requireAuth } from '../http/authenticate.ts';
import { ApiError } from '../http/errors.ts';
import { validateParams, validateQuery } from '../http/validate.ts';
import { assertMayReadRoles } from './access.ts';
import { DEFAULT_SORT, findReachableRole, listRoles } from './repository.ts';

/**
 * Roles (/account/ui-api/v1), described in docs/api.md: reading over the columns stored today. The
 * roles slice adds their description, version (and with it the ETag), counts and every change.
 */
export function roleRoutes(deps: AppDeps): Hono<AppEnv> {
  const { db } = deps;
  const app = new Hono<AppEnv>();
  // Per route, not `app.use()`: this app shares its base path with other modules.
  const authenticated = requireAuth(deps);

  app.get('/role', authenticated, validateQuery(roleListQuerySchema), async (c) => {
    const principal = c.var.principal;
    const { limit = DEFAULT_LIST_LIMIT, offset = 0, sort = DEFAULT_SORT, ...filters } = c.req.valid('query');
    // An account out of reach is answered as missing before the permission, as for one object.
    if (filters.account_id !== undefined && !(await reachesAccount(db, principal, filters.account_id))) {
      throw new ApiError(404, ACCOUNT_NOT_FOUND);
    }
    assertMayReadRoles(principal);
    const list: RoleList = await listRoles(db, principal, filters, { limit, offset, sort });
    return c.json(list);
  });

  app.get('/role/:id', authenticated, validateParams(roleIdParamsSchema), async (c) => {
    const role: Role | undefined = await findReachableRole(db, c.var.principal, c.req.valid('param').id);
    if (!role) throw new ApiError(404, ROLE_NOT_FOUND);
    assertMayReadRoles(c.var.principal);
    return c.json(role);
  });

  return app;
}
