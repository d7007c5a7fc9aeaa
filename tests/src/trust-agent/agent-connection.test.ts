// @vitest-environment node
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentConfig } from '../../../agent/config.ts';
import { MAX_PENDING_PAIRINGS, type PairingPrompt } from '../../../agent/pairing.ts';
import { createAgentApp } from '../../../agent/server.ts';
import type { CommandTable } from '../../../contract/trust-agent/commands.ts';
import {
  DESKTOP_CLIENT_PORT,
  GATE_ERROR_RETRY_DELAY_MS,
  INSTALL_POLL_INTERVAL_MS,
  INSTALL_WAIT_MS,
  NOT_INSTALLED_RETRIES,
  TRUST_AGENT_PORT,
  trustAgentUrl,
} from '../../../contract/trust-agent/constants.ts';
import type { IdentityKeys } from '../../../contract/trust-agent/session-crypto.ts';
import { AgentConnection } from '../../../src/trust-agent/agent-connection.ts';
import {
  type AgentCommands,
  DESKTOP_CLIENT_HELPER,
  type LocalHelper,
  TRUST_AGENT_HELPER,
} from '../../../src/trust-agent/helpers.ts';
import type { TrustAgentStore } from '../../../src/trust-agent/identity-store.ts';
import type { AgentStatus, FromHelper } from '../../../src/trust-agent/shared.ts';

/**
 * The worker's session logic against the real agent's HTTP app, called in-process: the fetch below
 * only adds what a browser adds (Host, Origin). The store is an in-memory one in place of IndexedDB.
 */
const ORIGIN = 'http://localhost:5173';
const AGENT_URL = trustAgentUrl();

function memoryStore(): TrustAgentStore & { pins: Map<string, string> } {
  let identity: IdentityKeys | null = null;
  const pins = new Map<string, string>();
  return {
    pins,
    identity: async () => identity,
    saveIdentity: async (keys) => {
      identity = keys;
    },
    pinnedKey: async (url) => pins.get(url) ?? null,
    pin: async (url, key) => void pins.set(url, key),
    unpin: async (url) => void pins.delete(url),
  };
}

type AgentApp = Awaited<ReturnType<typeof createAgentApp>>;

let dataDirs: string[] = [];
const apps: AgentApp[] = [];

/**
 * The agent's app. Pre-approving the console's origin unless told how pairings are answered: by
 * `answer`, or by nobody but the control channel (`prompts` empty).
 */
async function agentApp(
  overrides: Partial<AgentConfig> = {},
  answer?: () => Promise<boolean>,
  prompts?: readonly PairingPrompt[],
): Promise<AgentApp> {
  const asked = prompts ?? (answer ? [answer] : null);
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'console-agent-')));
  dataDirs.push(dataDir);
  const app = await createAgentApp(
    {
      port: TRUST_AGENT_PORT,
      desktopClientPort: DESKTOP_CLIENT_PORT,
      dataDir,
      allowedOrigins: [ORIGIN],
      preapprovedOrigins: asked ? [] : [ORIGIN],
      pkcs11Modules: [],
      softwareKeystore: true,
      webAccess: true,
      version: '1.1.4',
      interactive: false,
      desktopNotifications: false,
      ...overrides,
    },
    asked ? { prompts: asked } : {},
  );
  apps.push(app);
  return app;
}

/** The agent on the port: whichever app `target.app` is now, or nothing listening. */
function browserFetch(target: { app: AgentApp | null }, requests: string[] = []) {
  return async (input: string, init: RequestInit) => {
    // The program's two services, told apart by their ports as a browser's requests are.
    const service =
      new URL(input).port === String(DESKTOP_CLIENT_PORT) ? target.app?.desktopClientApp : target.app?.app;
    requests.push(`${init.method ?? 'GET'} ${new URL(input).pathname}`);
    if (!service) throw new TypeError('Failed to fetch');
    const headers = new Headers(init.headers);
    headers.set('Host', new URL(input).host);
    headers.set('Origin', ORIGIN);
    return service.fetch(new Request(input, { ...init, headers }));
  };
}

function connect<T extends CommandTable = AgentCommands>(
  target: { app: AgentApp | null },
  store: TrustAgentStore,
  requests?: string[],
  helper: LocalHelper<T> = TRUST_AGENT_HELPER as unknown as LocalHelper<T>,
) {
  const events: FromHelper[] = [];
  const connection = new AgentConnection<T>({
    helper,
    fetch: browserFetch(target, requests),
    origin: ORIGIN,
    store,
    emit: (event) => events.push(event),
  });
  const statuses = () => events.flatMap((event) => (event.type === 'status' ? [event.status] : []));
  const until = (phase: AgentStatus['phase']) =>
    vi.waitFor(() => expect(statuses().at(-1)?.phase).toBe(phase), { timeout: 5000 });
  return { connection, events, statuses, until };
}

beforeEach(() => {
  dataDirs = [];
});
afterEach(async () => {
  vi.useRealTimers();
  for (const app of apps.splice(0)) await app.close();
  await Promise.all(dataDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('the agent worker’s connection', () => {
  it('pairs on first use, shakes hands, initializes and reports the agent and its keystores', async () => {
    const store = memoryStore();
    const { connection, events, statuses, until } = connect({ app: await agentApp() }, store);
    connection.start();
    await until('ready');
    connection.stop();

    expect(statuses().map((status) => status.phase)).toEqual([
      'detecting',
      'connecting',
      'pairing',
      'connecting',
      'ready',
    ]);
    const pairing = statuses().find((status) => status.phase === 'pairing');
    expect(pairing && 'code' in pairing ? pairing.code : '').toMatch(/^\d{3} \d{3}$/);
    expect(statuses().at(-1)).toMatchObject({
      phase: 'ready',
      agent: { product: 'trust-assistant', version: '1.1.4' },
    });
    const keystores = events.find((event) => event.type === 'keystores');
    expect(keystores).toEqual({ type: 'keystores', keystores: expect.any(Array) });
    expect(store.pins.get(AGENT_URL)).toMatch(/^[A-Za-z0-9_-]{87}$/);
  });

  it('reuses the pinned key on the next page without pairing again', async () => {
    const store = memoryStore();
    const target = { app: await agentApp() };
    const first = connect(target, store);
    first.connection.start();
    await first.until('ready');
    first.connection.stop();

    const second = connect(target, store);
    second.connection.start();
    await second.until('ready');
    second.connection.stop();
    expect(second.statuses().map((status) => status.phase)).toEqual(['detecting', 'connecting', 'ready']);
  });

  it('refuses an agent whose key is not the pinned one, and pairs again when the user asks', async () => {
    const store = memoryStore();
    const target = { app: await agentApp() };
    const first = connect(target, store);
    first.connection.start();
    await first.until('ready');
    first.connection.stop();
    const pinnedBefore = store.pins.get(AGENT_URL);

    // Another program (or a reinstalled agent, with a new identity) now answers on the port.
    target.app = await agentApp();
    const second = connect(target, store);
    second.connection.start();
    await second.until('handshakeFailed');
    expect(second.statuses().at(-1)).toMatchObject({ reason: 'agentKeyChanged' });
    expect(store.pins.get(AGENT_URL)).toBe(pinnedBefore);

    await second.connection.pairAgain();
    await second.until('ready');
    second.connection.stop();
    expect(store.pins.get(AGENT_URL)).not.toBe(pinnedBefore);
  });

  it('sends commands in order on one session and shakes hands again once when the agent forgot it', async () => {
    const store = memoryStore();
    const dataDir = await mkdtemp(path.join(tmpdir(), 'console-agent-'));
    const target: { app: AgentApp | null } = { app: await agentApp({ dataDir }) };
    const requests: string[] = [];
    const { connection, until } = connect(target, store, requests);
    connection.start();
    await until('ready');

    const [config, service] = await Promise.all([
      connection.run('config', {}),
      connection.run('service', {}),
    ]);
    expect(config).toMatchObject({ ok: true, result: { allowedOrigins: [ORIGIN] } });
    expect(service).toMatchObject({ ok: true, result: { agent: { version: '1.1.4' } } });

    // The agent restarts with the same identity: its sessions are gone, the pairing is not.
    target.app = await agentApp({ dataDir });
    requests.length = 0;
    const afterRestart = await connection.run('service', {});
    connection.stop();
    expect(afterRestart.ok).toBe(true);
    expect(
      requests
        .filter((request) => request.startsWith('POST /v1/sessions'))
        .map((r) => r.replace(/\/[\w-]{22}\//, '/{id}/')),
    ).toEqual([
      'POST /v1/sessions/{id}/messages',
      'POST /v1/sessions',
      'POST /v1/sessions/{id}/confirm',
      'POST /v1/sessions/{id}/messages',
      'POST /v1/sessions/{id}/messages',
    ]);
  });

  it('reports a refused pairing and does not pin the agent', async () => {
    const store = memoryStore();
    const { connection, until, statuses } = connect({ app: await agentApp({}, async () => false) }, store);
    connection.start();
    await until('handshakeFailed');
    connection.stop();
    expect(statuses().at(-1)).toMatchObject({ reason: 'pairingRefused' });
    expect(store.pins.size).toBe(0);
  });

  it('does not pair with an agent older than 1.0.0, nor with one whose web access is off', async () => {
    const oldAgent = connect({ app: await agentApp({ version: '0.9.9' }) }, memoryStore());
    oldAgent.connection.start();
    await oldAgent.until('unsupportedAgent');
    oldAgent.connection.stop();

    const disabled = connect({ app: await agentApp({ webAccess: false }) }, memoryStore());
    disabled.connection.start();
    await disabled.until('disabled');
    disabled.connection.stop();
    expect(disabled.statuses().some((status) => status.phase === 'pairing')).toBe(false);
  });

  it('retries a probe nobody answers three times, then shows the banner, and stops looking 30 s after the start', async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    store.pins.set(AGENT_URL, 'a-key-pinned-on-an-earlier-visit');
    const target: { app: AgentApp | null } = { app: null };
    const requests: string[] = [];
    const { connection, statuses } = connect(target, store, requests);
    connection.start();
    await vi.advanceTimersByTimeAsync(INSTALL_WAIT_MS + 60_000);

    // A probe every 2 s for 30 s: the first and its three retries while the page says it is looking.
    expect(requests.length).toBe(INSTALL_WAIT_MS / INSTALL_POLL_INTERVAL_MS + 1);
    const phases = statuses().map((status) => status.phase);
    expect(phases.slice(0, phases.indexOf('unreachable'))).toEqual(['detecting']);
    expect(statuses().filter((status) => status.phase === 'unreachable').length).toBe(
      INSTALL_WAIT_MS / INSTALL_POLL_INTERVAL_MS - NOT_INSTALLED_RETRIES + 1,
    );
    expect(statuses().at(-1)).toEqual({ phase: 'unreachable', pinned: true, waiting: false });

    // Try again starts a new round, which finds the agent once it runs.
    target.app = await agentApp();
    connection.retry();
    await vi.advanceTimersByTimeAsync(1000);
    await vi.waitFor(() => expect(statuses().at(-1)?.phase).toBe('handshakeFailed'));
    connection.stop();
  });

  it('retries other errors after a delay for 30 s, then waits for the user', async () => {
    vi.useFakeTimers();
    const requests: string[] = [];
    const disabled = connect({ app: await agentApp({ webAccess: false }) }, memoryStore(), requests);
    disabled.connection.start();
    await vi.advanceTimersByTimeAsync(INSTALL_WAIT_MS + 60_000);
    disabled.connection.stop();

    expect(disabled.statuses().at(-1)).toMatchObject({ phase: 'disabled', waiting: false });
    expect(requests.length).toBe(Math.ceil(INSTALL_WAIT_MS / GATE_ERROR_RETRY_DELAY_MS) + 1);
  });

  it('keeps a pairing waiting while the agent has no terminal to ask on, until it is approved there', async () => {
    const store = memoryStore();
    const app = await agentApp({ interactive: false }, undefined, []);
    const { connection, statuses, until } = connect({ app }, store);
    connection.start();
    await until('pairing');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statuses().at(-1)?.phase).toBe('pairing');
    const [waiting] = app.pairings.waiting();
    await app.pairings.settleByCode(waiting?.code ?? '', true);
    await until('ready');
    connection.stop();
  });

  it('says so when the agent takes no more pairings, instead of asking again and again', async () => {
    const app = await agentApp({}, undefined, []);
    const others = Array.from({ length: MAX_PENDING_PAIRINGS }, () => connect({ app }, memoryStore()));
    for (const other of others) other.connection.start();
    await Promise.all(others.map((other) => other.until('pairing')));
    const requests: string[] = [];
    const { connection, statuses, until } = connect({ app }, memoryStore(), requests);
    connection.start();
    await until('handshakeFailed');
    expect(statuses().at(-1)).toMatchObject({ reason: 'tooManyPairings', waiting: false });
    const asked = requests.length;
    await new Promise((resolve) => setTimeout(resolve, GATE_ERROR_RETRY_DELAY_MS / 10));
    expect(requests.length).toBe(asked);
    for (const other of [...others, { connection }]) other.connection.stop();
  });
});

describe('the worker’s connection to the desktop client', () => {
  it('pairs with the program’s desktop client, initializes it for production and runs its commands', async () => {
    const store = memoryStore();
    const requests: string[] = [];
    const target = { app: await agentApp() };
    const { connection, events, statuses, until } = connect(target, store, requests, DESKTOP_CLIENT_HELPER);
    connection.start();
    await until('ready');
    expect(statuses().at(-1)).toMatchObject({
      phase: 'ready',
      agent: { product: 'desktop-client', version: '3.3.1' },
    });
    expect(events.find((event) => event.type === 'keystores')).toEqual({
      type: 'keystores',
      keystores: expect.any(Array),
    });
    expect(await connection.run('profile', {})).toEqual({ ok: true, result: { profiles: [] } });
    // A command name with a digit travels like any other.
    expect(
      await connection.run('pkcs7', {
        keystoreId: 'software',
        pin: '2468',
        pkcs7: 'AAAA',
        securityPolicy: 'software',
        profileName: 'Kiosks',
      }),
    ).toMatchObject({ ok: false, error: { code: 'certificateInvalid' } });
    // The trust agent's commands are not the desktop client's.
    expect(await connection.runUnchecked('service', {})).toMatchObject({
      ok: false,
      error: { code: 'unsupportedCommand' },
    });
    connection.stop();
    expect(store.pins.get(DESKTOP_CLIENT_HELPER.url)).toBeDefined();
    expect(requests.every((request) => !request.includes(':8900'))).toBe(true);
  });

  it('looks for a missing desktop client again every 5 s for as long as the page waits', async () => {
    vi.useFakeTimers();
    const { connection, statuses } = connect({ app: null }, memoryStore(), [], DESKTOP_CLIENT_HELPER);
    connection.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    connection.stop();
    const probes = statuses().filter((status) => status.phase === 'unreachable');
    expect(probes.at(-1)).toEqual({ phase: 'unreachable', pinned: false, waiting: true });
    expect(probes.length).toBe((10 * 60_000) / 5000 + 1);
  });
});
