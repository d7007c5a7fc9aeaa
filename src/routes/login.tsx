import { createFileRoute, redirect } from '@tanstack/react-router';
import * as v from 'valibot';
import { SignInPage } from '../features/session/components/sign-in-page.tsx';
import { leaveSignInWhenSignedIn } from '../features/session/guard.ts';
import { redirectToSetupWhileUnconfigured } from '../features/setup/guard.ts';

export const Route = createFileRoute('/login')({
  validateSearch: v.object({ state: v.optional(v.string()) }),
  // Without a state the console's home decides (B-09): a signed-in user lands there, anyone else
  // comes back here with a state that carries the return path, so this cannot loop.
  beforeLoad: async ({ search, context }) => {
    if (!search.state) throw redirect({ to: '/' });
    await leaveSignInWhenSignedIn(context.session, search.state);
    await redirectToSetupWhileUnconfigured();
  },
  component: function LoginRoute() {
    const { state = '' } = Route.useSearch();
    return <SignInPage key={state} encodedState={state} />;
  },
});
