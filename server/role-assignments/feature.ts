import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { readFeatureFlags } from '../feature-flags/index.ts';
import { ApiError } from '../http/errors.ts';

/** Whether the roles feature is on (G8). */
export async function rolesFeatureOn(db: Kysely<Database>): Promise<boolean> {
  return (await readFeatureFlags(db)).roles;
}

/** G8: with the roles feature off, custom roles are neither defined nor newly assigned. */
export async function assertRolesFeatureOn(db: Kysely<Database>): Promise<void> {
  if (!(await rolesFeatureOn(db))) {
    throw new ApiError(409, 'Custom roles are turned off on this platform.', { code: 'rolesFeatureOff' });
  }
}
