import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { CommandTable } from '../../contract/trust-agent/commands.ts';
import type { DesktopClientCommands } from '../../contract/trust-agent/desktop-client.ts';
import { detectPlatform } from '../lib/platform.ts';
import { desktopClientClient, type TrustAgentClient, trustAgentClient } from './client.ts';
import {
  checkDesktopClientVersion,
  type GateState,
  gateState,
  isSupportedPlatform,
  type KeystoreLocation,
  type VersionCheck,
} from './gate.ts';

export interface UseTrustAgentOptions {
  /** The keystore location the screen works with; the software keystore needs a newer agent. */
  location?: KeystoreLocation;
  /** Poll the tokens every 5 s while the screen is shown. */
  watchTokens?: boolean;
  /** The channel to the worker; tests pass their own. */
  client?: TrustAgentClient;
}

/** One local helper as a screen sees it: the gate's state, the entities, and the user's actions. */
function useLocalHelper<T extends CommandTable>(
  client: TrustAgentClient<T>,
  location: KeystoreLocation | undefined,
  checkVersion: ((version: string) => VersionCheck) | undefined,
  watchTokens: boolean,
) {
  const platform = useMemo(() => detectPlatform(), []);
  const supported = isSupportedPlatform(platform);
  const snapshot = useSyncExternalStore(client.subscribe, client.getSnapshot);

  useEffect(() => {
    // Nothing to look for on a system the helper does not run on.
    if (supported) client.start();
  }, [client, supported]);
  useEffect(
    () => (supported && watchTokens ? client.watchTokens() : undefined),
    [client, supported, watchTokens],
  );

  const gate: GateState = gateState(snapshot.status, platform, location, checkVersion);
  return {
    gate,
    keystores: snapshot.keystores,
    tokens: snapshot.tokens,
    certificates: snapshot.certificates,
    retry: () => client.retry(),
    pairAgain: () => client.pairAgain(),
    refresh: () => client.refresh(),
    command: client.command.bind(client) as TrustAgentClient<T>['command'],
  };
}

export type TrustAgentView = ReturnType<typeof useTrustAgent>;

/** The trust agent as a screen sees it: the gate's state, the entities, and the user's actions. */
export function useTrustAgent({ location, watchTokens = false, client: given }: UseTrustAgentOptions = {}) {
  const client = useMemo(() => given ?? trustAgentClient(), [given]);
  return useLocalHelper(client, location, undefined, watchTokens);
}

export type DesktopClientView = ReturnType<typeof useDesktopClient>;

/**
 * The desktop client (decision 021 §5) as a screen sees it: the same gate, with the desktop
 * client's version rule (at least 3.3.1, Q-23); its keystores and their certificates.
 */
export function useDesktopClient({
  client: given,
}: {
  client?: TrustAgentClient<DesktopClientCommands>;
} = {}) {
  const client = useMemo(() => given ?? desktopClientClient(), [given]);
  return useLocalHelper(client, undefined, checkDesktopClientVersion, false);
}
