import { openDB } from 'idb';
import type { IdentityKeys } from '../../contract/trust-agent/session-crypto.ts';

/** Where the agent worker keeps this browser's identity and the agent keys it pinned. */
export interface TrustAgentStore {
  identity(): Promise<IdentityKeys | null>;
  saveIdentity(keys: IdentityKeys): Promise<void>;
  pinnedKey(agentUrl: string): Promise<string | null>;
  pin(agentUrl: string, agentKey: string): Promise<void>;
  unpin(agentUrl: string): Promise<void>;
}

export const TRUST_AGENT_DATABASE = 'trust-agent';
const IDENTITY = 'identity';
const PINS = 'pins';
const IDENTITY_KEY = 'console';

/**
 * IndexedDB, where a CryptoKey is stored as itself: the private key stays non-extractable. Each
 * operation opens and closes the database, so clearing the site's data is never blocked by the
 * worker holding it open.
 */
export function indexedDbStore(): TrustAgentStore {
  const withDb = async <T>(use: (db: Awaited<ReturnType<typeof open>>) => Promise<T>): Promise<T> => {
    const db = await open();
    try {
      return await use(db);
    } finally {
      db.close();
    }
  };
  return {
    identity: () =>
      withDb(async (db) => ((await db.get(IDENTITY, IDENTITY_KEY)) as IdentityKeys | undefined) ?? null),
    saveIdentity: (keys) => withDb(async (db) => void (await db.put(IDENTITY, keys, IDENTITY_KEY))),
    pinnedKey: (agentUrl) =>
      withDb(async (db) => ((await db.get(PINS, agentUrl)) as string | undefined) ?? null),
    pin: (agentUrl, agentKey) => withDb(async (db) => void (await db.put(PINS, agentKey, agentUrl))),
    unpin: (agentUrl) => withDb((db) => db.delete(PINS, agentUrl)),
  };
}

function open() {
  return openDB(TRUST_AGENT_DATABASE, 1, {
    upgrade(db) {
      db.createObjectStore(IDENTITY);
      db.createObjectStore(PINS);
    },
  });
}
