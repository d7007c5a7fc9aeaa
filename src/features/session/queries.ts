import { apiPaths } from '../../../contract/paths.ts';
import { loginCustomizationSchema } from '../../../contract/schemas/identity.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { platformLocales } from '../../lib/locales.ts';
import { publicResource } from '../../lib/public-data.ts';

/** Footer links and copyright of the public pages (B-04, B-05); they rarely change. */
export const loginCustomization = publicResource(
  () => apiRequest('GET', apiPaths.identity.loginCustomization, { schema: loginCustomizationSchema }),
  5 * 60_000,
);

/**
 * Asks for what the sign-in page shows beside its form (the footer, the languages) without waiting:
 * called as soon as a page start may lead to sign-in, so both answers travel with the session check
 * instead of after it (docs/decisions/026-start-up-round-trips.md). Failures are the page's to show.
 */
export function prefetchSignInPage(): void {
  void loginCustomization.read().catch(() => undefined);
  void platformLocales.read().catch(() => undefined);
}
