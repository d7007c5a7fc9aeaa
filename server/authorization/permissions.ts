import type { MiddlewareHandler } from 'hono';
import type { PermissionName } from '../../contract/permissions.ts';
import type { AppEnv } from '../http/app-env.ts';
import { ApiError } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/** `MANAGE_SYSTEM_SETTINGS` → `manage system settings`. */
function describePermission(name: PermissionName): string {
  return name.toLowerCase().replaceAll('_', ' ');
}

/** The 403 naming the permission the caller lacks. */
export function forbidden(name: PermissionName): ApiError {
  return new ApiError(403, `You do not have permission to ${describePermission(name)}.`);
}

/** Throws the 403 naming `permission` unless the caller holds it. */
export function assertPermission(principal: Principal, permission: PermissionName): void {
  if (!principal.permissions.has(permission)) throw forbidden(permission);
}

/**
 * Throws the 403 naming the first of `names` unless the caller holds at least one of them: for
 * actions any of several permissions allows (reading users needs view user or any manage-user one).
 */
export function assertAnyPermission(
  principal: Principal,
  names: readonly [PermissionName, ...PermissionName[]],
): void {
  if (!names.some((name) => principal.permissions.has(name))) throw forbidden(names[0]);
}

/**
 * Answers 403 naming the first permission the caller lacks, for calls on no particular object; use
 * after `requireAuth`. A call on one object checks its reach first (404), then the permission.
 */
export function requirePermission(...names: PermissionName[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const missing = names.find((name) => !c.var.principal.permissions.has(name));
    if (missing) throw forbidden(missing);
    await next();
  };
}

/**
 * Answers 403 unless the caller is system scope and holds `permission`: for platform-wide settings
 * and for calls of the identity product, which no partner or account may make whatever its roles.
 */
export function requireSystemScope(permission: PermissionName): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.var.principal.accessScope !== 'system') throw forbidden(permission);
    assertPermission(c.var.principal, permission);
    await next();
  };
}
