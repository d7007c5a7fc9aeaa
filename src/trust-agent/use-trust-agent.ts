import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { detectPlatform } from '../lib/platform.ts';
import { type TrustAgentClient, trustAgentClient } from './client.ts';
import { type GateState, gateState, isSupportedPlatform, type KeystoreLocation } from './gate.ts';

export interface UseTrustAgentOptions {
  /** The keystore location the screen works with; the software keystore needs a newer agent. */
  location?: KeystoreLocation;
  /** Poll the tokens every 5 s while the screen is shown. */
  watchTokens?: boolean;
  /** The channel to the worker; tests pass their own. */
  client?: TrustAgentClient;
}

export type TrustAgentView = ReturnType<typeof useTrustAgent>;

/** The trust agent as a screen sees it: the gate's state, the entities, and the user's actions. */
export function useTrustAgent({ location, watchTokens = false, client: given }: UseTrustAgentOptions = {}) {
  const client = useMemo(() => given ?? trustAgentClient(), [given]);
  const platform = useMemo(() => detectPlatform(), []);
  const supported = isSupportedPlatform(platform);
  const snapshot = useSyncExternalStore(client.subscribe, client.getSnapshot);

  useEffect(() => {
    // Nothing to look for on a system the agent does not run on.
    if (supported) client.start();
  }, [client, supported]);
  useEffect(
    () => (supported && watchTokens ? client.watchTokens() : undefined),
    [client, supported, watchTokens],
  );

  const gate: GateState = gateState(snapshot.status, platform, location);
  return {
    gate,
    keystores: snapshot.keystores,
    tokens: snapshot.tokens,
    certificates: snapshot.certificates,
    retry: () => client.retry(),
    pairAgain: () => client.pairAgain(),
    refresh: () => client.refresh(),
    command: client.command.bind(client) as TrustAgentClient['command'],
  };
}
