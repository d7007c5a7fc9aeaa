import * as v from 'valibot';
import { apiPaths } from '../../../contract/paths.ts';
import type { SetupLicenceRequest, SetupUserRequest } from '../../../contract/schemas/setup.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { setupStatus } from './queries.ts';

/** Setup step 1: the signed licence text. */
export async function installLicence(request: SetupLicenceRequest) {
  const answer = await apiRequest('POST', apiPaths.setup.licence, {
    body: request,
    schema: v.object({ status: v.string() }),
  });
  setupStatus.invalidate();
  return answer;
}

/** Setup step 2: the first system administrator. */
export async function createAdministrator(request: SetupUserRequest) {
  const answer = await apiRequest('POST', apiPaths.setup.user, {
    body: request,
    schema: v.object({ id: v.string() }),
  });
  setupStatus.invalidate();
  return answer;
}
