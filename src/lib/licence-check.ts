import { apiPaths } from '../../contract/paths.ts';
import { licenceCheckSchema } from '../../contract/schemas/licence.ts';
import { apiRequest } from './api-client.ts';
import { publicResource } from './public-data.ts';

/** GET license/status. Never served from memory: it decides where sign-in and setup lead. */
export const licenceCheck = publicResource(
  () => apiRequest('GET', apiPaths.licence.status, { schema: licenceCheckSchema }),
  0,
);
