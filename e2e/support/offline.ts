import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, expect, type Page, type TestInfo } from '@playwright/test';
import { OFFLINE_DATABASE_NAME } from '../../contract/offline-storage.ts';

/**
 * The console's service worker controls the page. The first load of a build is not controlled until
 * the worker activates and claims it; its registration loads after the first screen. On a loaded
 * machine the claim has been seen to miss a page that loaded while the worker was installing; a page
 * loaded once a worker is active is always controlled, so the check reloads once before failing.
 * Callers call it right after a navigation, where a reload loses nothing.
 */
export async function waitForWorkerControl(page: Page): Promise<void> {
  const controlled = () =>
    page.evaluate(() => navigator.serviceWorker.controller !== null).catch(() => false);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  const deadline = Date.now() + 10_000;
  while (!(await controlled()) && Date.now() < deadline) await page.waitForTimeout(250);
  if (!(await controlled())) await page.reload();
  await expect.poll(controlled, { message: 'the service worker controls the page' }).toBe(true);
}

/**
 * The query hashes of the sealed query cache the console keeps in IndexedDB, opened in the page with
 * the storage key its record names (the page may use the key, never read it). Empty while nothing
 * readable is stored.
 */
export async function cachedQueryHashes(page: Page): Promise<string[]> {
  return page.evaluate(async (databaseName) => {
    // Opening a database that does not exist yet would create it empty, under the console's version.
    if (!(await indexedDB.databases()).some((info) => info.name === databaseName)) return [];
    const request = indexedDB.open(databaseName);
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        if (!database.objectStoreNames.contains(store)) return resolve([]);
        const read = database.transaction(store).objectStore(store).getAll();
        read.onsuccess = () => resolve(read.result);
        read.onerror = () => reject(read.error);
      });
    try {
      const keys = (await all('keys')) as { keyId: string; key: CryptoKey | null }[];
      const cached = (await all('query-cache')) as {
        keyId: string;
        sealed: { iv: Uint8Array<ArrayBuffer>; data: ArrayBuffer };
      }[];
      const hashes: string[] = [];
      for (const record of cached) {
        const key = keys.find((candidate) => candidate.keyId === record.keyId)?.key;
        if (!key) continue;
        const plain = await crypto.subtle
          .decrypt({ name: 'AES-GCM', iv: record.sealed.iv }, key, record.sealed.data)
          .catch(() => null);
        if (!plain) continue;
        const client = JSON.parse(new TextDecoder().decode(plain)) as {
          clientState?: { queries?: { queryHash: string }[] };
        };
        for (const query of client.clientState?.queries ?? []) hashes.push(query.queryHash);
      }
      return hashes;
    } finally {
      database.close();
    }
  }, OFFLINE_DATABASE_NAME);
}

/** Waits until the sealed query cache holds a query whose hash starts with `prefix`. */
export async function waitForCachedQuery(page: Page, prefix: string, containing = ''): Promise<void> {
  await expect
    .poll(
      async () =>
        (await cachedQueryHashes(page)).some((hash) => hash.startsWith(prefix) && hash.includes(containing)),
      {
        message: `the offline cache holds ${prefix}${containing ? ` with ${containing}` : ''}`,
        timeout: 10_000,
      },
    )
    .toBe(true);
}

/**
 * Every record of every store of the console's database, as text: binary fields (ciphertext, wrapped
 * keys, IVs) decoded as UTF-8 so that plaintext stored as bytes would still show, and storage keys
 * named by their algorithm only. What a script of the origin, or anyone with the profile, can read.
 */
export async function dumpOfflineDatabase(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async (databaseName) => {
    if (!(await indexedDB.databases()).some((info) => info.name === databaseName)) return {};
    const request = indexedDB.open(databaseName);
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const decoder = new TextDecoder('utf-8', { fatal: false });
    const readable = (value: unknown): unknown => {
      if (value instanceof CryptoKey)
        return { cryptoKey: value.algorithm.name, extractable: value.extractable };
      if (value instanceof ArrayBuffer) return { bytes: decoder.decode(value) };
      if (ArrayBuffer.isView(value)) {
        return { bytes: decoder.decode(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
      }
      if (Array.isArray(value)) return value.map(readable);
      if (typeof value === 'object' && value !== null) {
        return Object.fromEntries(Object.entries(value).map(([key, nested]) => [key, readable(nested)]));
      }
      return value;
    };
    try {
      const dump: Record<string, string[]> = {};
      for (const store of Array.from(database.objectStoreNames)) {
        const records = await new Promise<unknown[]>((resolve, reject) => {
          const read = database.transaction(store).objectStore(store).getAll();
          read.onsuccess = () => resolve(read.result);
          read.onerror = () => reject(read.error);
        });
        dump[store] = records.map((record) => JSON.stringify(readable(record)));
      }
      return dump;
    } finally {
      database.close();
    }
  }, OFFLINE_DATABASE_NAME);
}

/** The entries of the outbox store as stored: readable scheduling fields only. */
export async function storedOutboxStates(page: Page): Promise<string[]> {
  const dump = await dumpOfflineDatabase(page);
  return (dump.outbox ?? []).map((record) => (JSON.parse(record) as { state: string }).state);
}

/**
 * A browser profile on disk, launched as playwright.config.ts launches Chromium: what the console
 * keeps (IndexedDB, the service worker, cookies) survives closing the browser and opening it again.
 */
export class PersistentBrowser {
  readonly userDataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-profile-'));

  constructor(
    private readonly testInfo: TestInfo,
    /** The worker's platform (e2e/fixtures.ts), which the project's options do not know. */
    private readonly baseURL: string | undefined,
  ) {}

  async launch(): Promise<BrowserContext> {
    const { launchOptions, viewport } = this.testInfo.project.use;
    return chromium.launchPersistentContext(this.userDataDir, {
      executablePath: launchOptions?.executablePath,
      args: launchOptions?.args,
      baseURL: this.baseURL,
      viewport,
    });
  }

  remove(): void {
    rmSync(this.userDataDir, { recursive: true, force: true });
  }
}
