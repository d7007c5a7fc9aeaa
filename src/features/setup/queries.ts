import { apiPaths } from '../../../contract/paths.ts';
import { setupStatusSchema } from '../../../contract/schemas/setup.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { publicResource } from '../../lib/public-data.ts';
import { readStored, writeStored } from '../../lib/storage.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';

/**
 * How long an answer serves the next page: long enough for one page start, where the secure layout
 * asks it beside the session check and the sign-in guard it leads to reads it, instead of a second
 * round trip after the first (docs/decisions/026-start-up-round-trips.md). The setup steps of this
 * page invalidate it; a later page asks again.
 */
const SETUP_STATUS_MAX_AGE_MS = 10_000;

/**
 * Whether the platform is known to this browser as set up: an earlier answer had an administrator.
 * It is not a secret (anyone may ask the status) and can turn false only if the platform is set up
 * anew at the same address, which every answer also records.
 */
export function configuredAsLastSeen(): boolean {
  return readStored(STORAGE_KEYS.platformConfigured) !== null;
}

/** Whether the licence is installed and an administrator exists. */
export const setupStatus = publicResource(async () => {
  const status = await apiRequest('GET', apiPaths.setup.status, { schema: setupStatusSchema });
  writeStored(STORAGE_KEYS.platformConfigured, status.administrator_exists ? '1' : null);
  return status;
}, SETUP_STATUS_MAX_AGE_MS);
