import { createFileRoute, redirect } from '@tanstack/react-router';
import * as v from 'valibot';
import { SignInScreen, signInPageDetour } from './-sign-in.tsx';

export const Route = createFileRoute('/login')({
  validateSearch: v.object({ state: v.optional(v.string()) }),
  // Without a state the console's home decides (B-09): a signed-in user lands there, anyone else
  // comes back here with a state that carries the return path, so this cannot loop.
  beforeLoad: async ({ search, context }) => {
    if (!search.state) throw redirect({ to: '/' });
    // The page's code (split off by the router, which would fetch it only after this guard) loads
    // beside the guard's questions.
    void Route.options.component?.preload?.();
    const detour = await signInPageDetour(context.session, search.state);
    if (detour) throw redirect({ href: detour, replace: true });
  },
  component: function LoginRoute() {
    const { state = '' } = Route.useSearch();
    return <SignInScreen encodedState={state} />;
  },
});
