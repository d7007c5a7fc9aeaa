import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type OfflineDatabase, openOfflineDatabase, ownerTag } from '../contract/offline-storage.ts';
import { newIdempotencyKey, OUTBOX_HEADERS, type OutboxEntryView } from '../contract/outbox.ts';
import { apiPaths } from '../contract/paths.ts';
import { startServer } from '../server/main.ts';
import { OutboxEngine } from '../sw/outbox/engine.ts';
import { jwtSubject } from '../sw/outbox/jwt.ts';
import { signedInToken } from './servers.ts';

/**
 * `npm run bench:outbox`: exactly-once delivery of offline changes through the real outbox engine
 * (on fake-indexeddb) and the real platform API (in this process, on a temporary PGlite directory),
 * with a fault-injecting proxy between them that cuts connections
 *   (a) before the request reaches the server,
 *   (b) after the server committed, before the answer reaches the client,
 *   (c) while the outbox replays (any of the above, or right after the request was sent).
 * Organization creates and If-Match edits are mixed; some edits are made to conflict by changing
 * their organization on the server first. Afterwards the server is counted: duplicates and lost
 * changes must be 0, and the conflicts shown must be the ones engineered.
 */

const MUTATIONS = 1_000;
const CREATES = 600;
const EDITS = MUTATIONS - CREATES;
/** Every eighth edit: its organization is changed on the server between queueing and replay. */
const CONFLICT_EVERY = 8;
/** Share of direct sends cut (a) before the send and (b) after the commit. */
const CUT_BEFORE_RATE = 0.2;
const CUT_AFTER_RATE = 0.2;
/** Share of replayed requests cut (c), in one of the three ways. */
const REPLAY_FAULT_RATE = 0.3;

type Fault = 'before' | 'after' | 'midway';

interface Tally {
  before: number;
  after: number;
  duringReplay: number;
}

/** A seeded generator, so two runs inject the same faults. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * An HTTP proxy that forwards to `target` unless `decide` names a fault for the request:
 * `before` drops the connection on arrival; `after` lets the server answer in full, then drops the
 * connection instead of passing the answer on; `midway` forwards the whole request and drops the
 * connection at once, while the server is still working on it.
 */
async function faultProxy(
  target: URL,
  decide: (request: IncomingMessage) => Fault | null,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const fault = decide(request);
    if (fault === 'before') {
      request.socket.destroy();
      return;
    }
    const upstream = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, host: target.host },
      },
      (answer) => {
        if (fault !== null) {
          answer.resume();
          answer.once('end', () => response.socket?.destroy());
          return;
        }
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.once('error', () => response.socket?.destroy());
    if (fault === 'midway') upstream.once('finish', () => response.socket?.destroy());
    request.pipe(upstream);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

interface Organization {
  id: string;
  name: string;
  address: string;
  version: number;
}

const ORGANIZATION_FIELDS = { city: 'Berlin', country: 'DE' };

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => probe.once('listening', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function benchOutbox(): Promise<boolean> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-outbox-'));
  // The server's start-up notes (address, how to make a licence) are not part of this report.
  const info = console.info;
  console.info = () => undefined;
  const running = await startServer({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ACCESS_TOKEN_TTL_SECONDS: '7200',
  }).finally(() => {
    console.info = info;
  });
  const serverOrigin = running.url;
  try {
    return await run(serverOrigin, dataDir);
  } finally {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function run(serverOrigin: string, dataDir: string): Promise<boolean> {
  const token = await signedInToken(serverOrigin, dataDir);
  const userId = jwtSubject(token);
  if (userId === null) throw new Error('The access token names no user.');
  const auth = { Authorization: `Bearer ${token}` };

  async function call(
    method: string,
    pathname: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${serverOrigin}${pathname}`, {
      method,
      headers: { ...auth, Accept: 'application/json', 'Content-Type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
    return response;
  }

  const profile = (await (await call('GET', apiPaths.profile)).json()) as { primary_account_id: string };
  const accountId = profile.primary_account_id;

  // The objects the edits change, made directly on the server.
  const edited: Organization[] = [];
  for (let index = 0; index < EDITS; index += 1) {
    const response = await call('POST', apiPaths.organizations.list, {
      account_id: accountId,
      name: `Edited organization ${index}`,
      address: 'Seeded',
      ...ORGANIZATION_FIELDS,
    });
    edited.push((await response.json()) as Organization);
  }

  // The browser side: fake-indexeddb, a storage key of this user's session, the real engine.
  const database: OfflineDatabase = await openOfflineDatabase();
  const owner = await ownerTag(userId);
  const now = Date.now();
  await database.put('keys', {
    keyId: 'bench-key',
    owner,
    key: await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']),
    wrapped: new ArrayBuffer(40),
    createdAt: now,
    expiresAt: now + 24 * 3_600_000,
  });

  const tally: Tally = { before: 0, after: 0, duringReplay: 0 };
  const random = seeded(2026);
  let phase: 'interception' | 'replay' = 'interception';
  /** Fault of the next direct send, by Idempotency-Key. */
  const plannedCuts = new Map<string, Fault>();
  const proxy = await faultProxy(new URL(serverOrigin), (request) => {
    if (request.method === 'GET') return null;
    const key = String(request.headers['idempotency-key'] ?? '');
    if (phase === 'interception') {
      const fault = plannedCuts.get(key) ?? null;
      if (fault === 'before') tally.before += 1;
      if (fault === 'after') tally.after += 1;
      return fault;
    }
    if (random() >= REPLAY_FAULT_RATE) return null;
    tally.duringReplay += 1;
    const roll = random();
    return roll < 1 / 3 ? 'before' : roll < 2 / 3 ? 'midway' : 'after';
  });

  // The engine's clock runs ahead of the wall clock so back-off waits cost no real time.
  let clockAhead = 0;
  let lastList: OutboxEntryView[] = [];
  const engine = new OutboxEngine({
    database: async () => database,
    origin: proxy.origin,
    fetch: (request) => fetch(request),
    now: () => Date.now() + clockAhead,
    random: Math.random,
    broadcast: (event) => {
      if (event.type === 'outbox' && event.owner === owner) lastList = event.entries;
    },
    setTimer: () => () => undefined,
  });
  await engine.start();
  await engine.command({ type: 'session', userId, accessToken: token, expiresAt: Number.MAX_SAFE_INTEGER });

  /** Replays until nothing of the user waits, moving the engine's clock to each back-off's end. */
  async function drain(): Promise<number> {
    phase = 'replay';
    let passes = 0;
    for (;;) {
      await engine.command({ type: 'sync-now' });
      await engine.idle();
      passes += 1;
      const waiting = (await database.getAll('outbox')).filter(
        (record) => record.state === 'pending' || record.state === 'sending' || record.state === 'held',
      );
      if (waiting.length === 0) break;
      if (waiting.some((record) => record.state === 'held')) throw new Error('An entry was held.');
      const due = Math.min(...waiting.map((record) => record.nextAttemptAt ?? 0));
      clockAhead += Math.max(0, due - (Date.now() + clockAhead));
      // A request cut midway may still be running on the server, which answers 409 with
      // Retry-After until it is done: a little real time lets it finish.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    phase = 'interception';
    return passes;
  }

  const expectedNames = new Set<string>();
  const expectedAddress = new Map<string, string>();
  const engineered = new Set<string>();
  let queued = 0;
  let direct = 0;
  let passes = 0;
  const started = performance.now();

  for (let index = 0; index < MUTATIONS; index += 1) {
    const key = newIdempotencyKey();
    const isCreate = index % 5 < 3 && expectedNames.size < CREATES;
    const editIndex = index - expectedNames.size;
    const conflicting = !isCreate && editIndex % CONFLICT_EVERY === 0;
    const roll = random();
    if (conflicting || roll < CUT_BEFORE_RATE) plannedCuts.set(key, 'before');
    else if (roll < CUT_BEFORE_RATE + CUT_AFTER_RATE) plannedCuts.set(key, 'after');

    let request: Request;
    let organization: Organization | undefined;
    if (isCreate) {
      const name = `Created organization ${index}`;
      expectedNames.add(name);
      request = new Request(`${proxy.origin}${apiPaths.organizations.list}`, {
        method: 'POST',
        headers: outboxHeaders(key, `Create organization ${name}`, accountId, userId, token),
        body: JSON.stringify({ account_id: accountId, name, address: 'Created', ...ORGANIZATION_FIELDS }),
      });
    } else {
      organization = edited[editIndex];
      if (!organization) throw new Error(`No organization for edit ${editIndex}.`);
      const address = `Edited offline, change ${index}`;
      expectedAddress.set(organization.id, address);
      request = new Request(`${proxy.origin}${apiPaths.organizations.byId(organization.id)}`, {
        method: 'PUT',
        headers: {
          ...outboxHeaders(key, `Edit organization ${organization.name}`, accountId, userId, token),
          [OUTBOX_HEADERS.ifMatch]: `"${organization.version}"`,
          [OUTBOX_HEADERS.resource]: apiPaths.organizations.byId(organization.id),
        },
        body: JSON.stringify({ name: organization.name, address, ...ORGANIZATION_FIELDS }),
      });
    }

    const response = await engine.intercept(request);
    if (response.status === 202) queued += 1;
    else if (response.ok) direct += 1;
    else throw new Error(`Change ${index} was answered ${response.status}: ${await response.text()}`);
    await response.body?.cancel();

    if (conflicting && organization) {
      // Someone else changes the object before the queued edit replays.
      const address = `Changed on the server before change ${index} replayed`;
      await call(
        'PUT',
        apiPaths.organizations.byId(organization.id),
        { name: organization.name, address, ...ORGANIZATION_FIELDS },
        { 'If-Match': `"${organization.version}"` },
      );
      expectedAddress.set(organization.id, address);
      engineered.add(organization.id);
    }
    if (response.status === 202) passes += await drain();
  }
  passes += await drain();
  const seconds = (performance.now() - started) / 1000;

  // Count on the server.
  const list = (await (
    await call('GET', `${apiPaths.organizations.list}?accountId=${encodeURIComponent(accountId)}&limit=99999`)
  ).json()) as { items: Organization[] };
  const organizations = list.items;
  const byName = new Map<string, number>();
  for (const organization of organizations) {
    byName.set(organization.name, (byName.get(organization.name) ?? 0) + 1);
  }
  let duplicates = 0;
  let lost = 0;
  for (const name of expectedNames) {
    const count = byName.get(name) ?? 0;
    if (count === 0) lost += 1;
    duplicates += Math.max(0, count - 1);
  }
  const byId = new Map(organizations.map((organization) => [organization.id, organization]));
  let overwritten = 0;
  for (const [id, address] of expectedAddress) {
    const found = byId.get(id);
    if (found?.address !== address) {
      if (engineered.has(id)) overwritten += 1;
      else lost += 1;
    }
    // Applied once: the seed made version 1, the edit (or the server's own change) version 2.
    if (found && found.version > 2) duplicates += found.version - 2;
  }
  lost += overwritten;

  await engine.command({ type: 'list', userId });
  await engine.idle();
  const conflicts = lastList.filter((entry) => entry.state === 'conflict');
  const failed = lastList.filter((entry) => entry.state === 'failed');
  const conflictsMatch =
    conflicts.length === engineered.size &&
    conflicts.every(
      (entry) => engineered.has(entry.url.split('/').at(-1) ?? '') && entry.error?.status === 412,
    );

  engine.dispose();
  await proxy.close();
  database.close();

  const row = (label: string, value: string | number, verdict = '') =>
    console.info(`  ${label.padEnd(42)} ${String(value).padStart(8)}  ${verdict}`);
  console.info(
    `\nOutbox under connection faults: ${MUTATIONS.toLocaleString('en')} changes (${CREATES} creates, ${EDITS} edits with If-Match), ${seconds.toFixed(1)} s`,
  );
  row('sent directly / kept offline (202)', `${direct}/${queued}`);
  row('(a) cut before the send', tally.before);
  row('(b) cut after the commit, answer lost', tally.after);
  row('(c) cut during replay', tally.duringReplay);
  row('replay passes', passes);
  row('duplicates on the server', duplicates, duplicates === 0 ? 'ok' : 'FAIL');
  row('lost changes', lost, lost === 0 ? 'ok' : 'FAIL');
  row('  of which server changes overwritten', overwritten);
  row(
    'conflicts shown / engineered',
    `${conflicts.length}/${engineered.size}`,
    conflictsMatch ? 'ok' : 'FAIL',
  );
  row('failed entries', failed.length, failed.length === 0 ? 'ok' : 'FAIL');
  for (const entry of failed.slice(0, 3)) console.info(`    ${entry.summary}: ${entry.error?.message}`);
  return duplicates === 0 && lost === 0 && conflictsMatch && failed.length === 0;
}

function outboxHeaders(
  key: string,
  summary: string,
  accountId: string,
  userId: string,
  token: string,
): Record<string, string> {
  return {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    Authorization: `Bearer ${token}`,
    [OUTBOX_HEADERS.idempotencyKey]: key,
    [OUTBOX_HEADERS.owner]: userId,
    [OUTBOX_HEADERS.account]: accountId,
    [OUTBOX_HEADERS.summary]: encodeURIComponent(summary),
  };
}
