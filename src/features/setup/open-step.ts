import { useEffect } from 'react';
import type { SetupStatus } from '../../../contract/schemas/setup.ts';
import { ApiError } from '../../lib/api-client.ts';
import { usePageNavigation } from '../../lib/page-navigation.tsx';
import { usePublicResource } from '../../lib/public-data.ts';
import { configuredAsLastSeen, setupStatus } from './queries.ts';

/** The setup steps, as router paths. */
export type SetupStep = '/setup-license' | '/setup-user';

/** The first setup step still open, for a platform without an administrator. */
function openSetupStep(status: SetupStatus): SetupStep {
  return status.licence_installed ? '/setup-user' : '/setup-license';
}

/**
 * A platform without an administrator has nobody to sign in: the setup step still open, where the
 * visitor goes instead of a sign-in form that cannot succeed; null where signing in is the way on.
 * Without a connection the status cannot be asked, and the sign-in page shows all the same (signing
 * out offline leads there); signing in then says the server cannot be reached. A server that answers
 * with an error rejects, for the page to fail with.
 *
 * A browser that has seen the platform set up does not wait for the answer, so a repeat visit's form
 * needs no round trip (docs/decisions/026-start-up-round-trips.md); the page then leaves for setup if
 * the answer says otherwise (`useLeaveForOpenSetup`), and an error is for signing in to report.
 */
export async function openSetupStepWhileUnconfigured(): Promise<SetupStep | null> {
  const asking = setupStatus.read();
  if (configuredAsLastSeen()) {
    asking.catch(() => undefined);
    return null;
  }
  const status = await asking.catch((error: unknown) => {
    if (error instanceof ApiError) throw error;
    return null;
  });
  if (status === null || status.administrator_exists) return null;
  return openSetupStep(status);
}

/** Leaves the page for the open setup step when the status, however late, says there is one. */
export function useLeaveForOpenSetup(): void {
  const { data } = usePublicResource(setupStatus);
  const navigation = usePageNavigation();
  useEffect(() => {
    if (data && !data.administrator_exists) void navigation.go(openSetupStep(data), { replace: true });
  }, [data, navigation]);
}
