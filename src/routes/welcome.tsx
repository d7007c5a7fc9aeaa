import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { loginCustomization } from '../features/session/queries.ts';
import { WelcomePage } from '../features/welcome/components/welcome-page.tsx';
import { WELCOME_PRODUCTS } from '../features/welcome/products.ts';
import { loadAreaCatalog } from '../lib/i18n.ts';
import { usePublicResource } from '../lib/public-data.ts';

export const Route = createFileRoute('/welcome')({
  // An unknown app value falls back to the default product instead of an error page.
  validateSearch: v.object({
    app: v.fallback(v.optional(v.picklist(WELCOME_PRODUCTS), 'mpki'), 'mpki'),
    message: v.optional(v.pipe(v.string(), v.maxLength(500))),
  }),
  loader: () => loadAreaCatalog('public-pages'),
  component: function WelcomeRoute() {
    const { app, message } = Route.useSearch();
    const { data } = usePublicResource(loginCustomization);
    return <WelcomePage product={app} message={message} contactUrl={data?.urls.contactUs ?? null} />;
  },
});
