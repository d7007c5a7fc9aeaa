import { apiPaths } from '../../../contract/paths.ts';
import { loginCustomizationSchema } from '../../../contract/schemas/identity.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { publicResource } from '../../lib/public-data.ts';

/** Footer links and copyright of the public pages (B-04, B-05); they rarely change. */
export const loginCustomization = publicResource(
  () => apiRequest('GET', apiPaths.identity.loginCustomization, { schema: loginCustomizationSchema }),
  5 * 60_000,
);
