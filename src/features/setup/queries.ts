import { apiPaths } from '../../../contract/paths.ts';
import { setupStatusSchema } from '../../../contract/schemas/setup.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { publicResource } from '../../lib/public-data.ts';

/** Whether the licence is installed and an administrator exists: asked afresh on every setup page. */
export const setupStatus = publicResource(
  () => apiRequest('GET', apiPaths.setup.status, { schema: setupStatusSchema }),
  0,
);
