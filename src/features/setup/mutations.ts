import * as v from 'valibot';
import { apiPaths } from '../../../contract/paths.ts';
import type { SetupLicenceRequest, SetupUserRequest } from '../../../contract/schemas/setup.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { useAction } from '../../lib/public-data.ts';
import { setupStatus } from './queries.ts';

async function installLicence(request: SetupLicenceRequest) {
  const answer = await apiRequest('POST', apiPaths.setup.licence, {
    body: request,
    schema: v.object({ status: v.string() }),
  });
  setupStatus.invalidate();
  return answer;
}

export function useInstallLicence() {
  return useAction(installLicence);
}

async function createAdministrator(request: SetupUserRequest) {
  const answer = await apiRequest('POST', apiPaths.setup.user, {
    body: request,
    schema: v.object({ id: v.string() }),
  });
  setupStatus.invalidate();
  return answer;
}

export function useCreateAdministrator() {
  return useAction(createAdministrator);
}
