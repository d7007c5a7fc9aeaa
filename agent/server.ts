import { arch, platform } from 'node:os';
import { serve } from '@hono/node-server';
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import * as v from 'valibot';
import {
  DESKTOP_CLIENT_PRODUCT,
  DESKTOP_CLIENT_VERSION,
  TRUST_AGENT_PRODUCT,
  TRUST_AGENT_PROTOCOL,
  trustAgentHosts,
} from '../contract/trust-agent/constants.ts';
import type { AgentInfo, OperatingSystem } from '../contract/trust-agent/entities.ts';
import type { TransportErrorCode } from '../contract/trust-agent/errors.ts';
import {
  agentPaths,
  confirmRequestSchema,
  envelopeSchema,
  PROTOCOL_HEADER,
  pairingRequestSchema,
  sessionRequestSchema,
} from '../contract/trust-agent/wire.ts';
import { type CommandContext, runCommand } from './commands.ts';
import type { AgentConfig } from './config.ts';
import { startControlChannel } from './control.ts';
import { runDesktopClientCommand } from './desktop-client/commands.ts';
import { DesktopClientProfiles } from './desktop-client/profiles.ts';
import { type AgentIdentity, loadAgentIdentity } from './identity.ts';
import { type Keystores, openKeystores } from './keystores/index.ts';
import { type PairingPrompt, PairingRefusedError, Pairings } from './pairing.ts';
import { pairingPrompts } from './prompt.ts';
import { SessionError, Sessions } from './sessions.ts';

/** The largest request body: an encrypted command with a certificate chain or a PKCS#12 backup. */
const MAX_BODY_BYTES = 2 * 1024 * 1024;

const ERROR_STATUS: Record<TransportErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 429> = {
  hostNotAllowed: 403,
  originNotAllowed: 403,
  malformedRequest: 400,
  unsupportedProtocol: 400,
  unpaired: 403,
  pairingNotFound: 404,
  pairingRefused: 403,
  handshakeFailed: 400,
  sessionNotFound: 401,
  sequenceNotIncreasing: 409,
  messageRejected: 400,
  tooManyRequests: 429,
  agentDisabled: 403,
};

const ERROR_MESSAGE: Record<TransportErrorCode, string> = {
  hostNotAllowed: 'This agent answers only on 127.0.0.1 and localhost',
  originNotAllowed: 'This page is not allowed to use the trust agent',
  malformedRequest: 'The request is not a message of the trust-agent protocol',
  unsupportedProtocol: `This agent speaks ${TRUST_AGENT_PROTOCOL}`,
  unpaired: 'This console is not paired with the trust agent',
  pairingNotFound: 'No such pairing request',
  pairingRefused: 'The trust agent cannot take another pairing request now',
  handshakeFailed: 'The handshake failed',
  sessionNotFound: 'No such session: shake hands again',
  sequenceNotIncreasing: 'The sequence number does not increase',
  messageRejected: 'The message does not authenticate; the session is closed',
  tooManyRequests: 'Too many requests',
  agentDisabled: 'Web access to the trust agent is switched off on this computer',
};

function operatingSystem(): OperatingSystem {
  switch (platform()) {
    case 'darwin':
      return 'mac';
    case 'win32':
      return 'windows';
    default:
      return 'linux';
  }
}

type AgentEnv = { Variables: { origin: string } };

function refuse(c: Context, code: TransportErrorCode) {
  return c.json(
    { error: { status: ERROR_STATUS[code], message: ERROR_MESSAGE[code], code } },
    ERROR_STATUS[code],
  );
}

async function jsonBody<S extends v.GenericSchema>(c: Context, schema: S): Promise<v.InferOutput<S> | null> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    return null;
  }
  const parsed = v.safeParse(schema, body);
  return parsed.success ? parsed.output : null;
}

export interface AgentOptions {
  /** Where pairings are shown to the desktop user; by default as the configuration says (prompt.ts). */
  prompts?: readonly PairingPrompt[];
}

export interface RunningAgent {
  url: string;
  /** The desktop client's address, null when it is switched off. */
  desktopClientUrl: string | null;
  stop: () => Promise<void>;
}

/** What the program's services share: one identity key, one pairing list, one set of keystores. */
interface AgentProgram {
  config: AgentConfig;
  identity: AgentIdentity;
  keystores: Keystores;
  pairings: Pairings;
  startedAt: number;
}

/** One service of the program on its own loopback port: what it calls itself and the commands it runs. */
interface AgentService {
  product: string;
  version: string;
  port: number;
  run: (context: CommandContext, command: string, request: unknown) => Promise<unknown>;
}

/**
 * A service's HTTP surface (docs/agent-protocol.md §2–§5). In order, for every request: the Host
 * must be the service's own loopback name (DNS rebinding), the Origin one of the allowed ones
 * (echoed, never `*`), the protocol header present (so every call is preflighted); then pairing,
 * handshake and encrypted messages. Nothing a request carries can crash it: every failure is an
 * answer. Each service has its own sessions, so a session of one runs no command of the other.
 */
function createServiceApp(program: AgentProgram, service: AgentService) {
  const { config, identity, keystores, pairings } = program;
  const sessions = new Sessions(identity.privateKey, identity.publicKey);
  const info: AgentInfo = {
    product: service.product,
    version: service.version,
    protocol: TRUST_AGENT_PROTOCOL,
    os: operatingSystem(),
    arch: arch(),
    enabled: config.webAccess,
  };
  const context: CommandContext = { config, info, startedAt: program.startedAt, keystores };
  const hosts = trustAgentHosts(service.port);

  const app = new Hono<AgentEnv>();
  app.onError((error, c) => {
    console.error('The trust agent could not answer a request:', error.message);
    return c.json({ error: { status: 500, message: 'The trust agent failed to answer' } }, 500);
  });
  app.notFound((c) => c.json({ error: { status: 404, message: 'Not found' } }, 404));

  app.use('*', async (c, next) => {
    if (!hosts.includes(c.req.header('host') ?? '')) return refuse(c, 'hostNotAllowed');
    const origin = c.req.header('origin') ?? '';
    if (!config.allowedOrigins.includes(origin)) return refuse(c, 'originNotAllowed');
    c.set('origin', origin);
    c.header('Access-Control-Allow-Origin', origin);
    c.header('Vary', 'Origin');
    if (c.req.method === 'OPTIONS') {
      c.header('Access-Control-Allow-Methods', 'GET, POST');
      c.header('Access-Control-Allow-Headers', `Content-Type, ${PROTOCOL_HEADER}`);
      c.header('Access-Control-Max-Age', '600');
      // Chrome's private-network preflight, still sent by versions before Local Network Access.
      if (c.req.header('access-control-request-private-network') === 'true') {
        c.header('Access-Control-Allow-Private-Network', 'true');
      }
      return c.body(null, 204);
    }
    if (c.req.header(PROTOCOL_HEADER) !== TRUST_AGENT_PROTOCOL) return refuse(c, 'unsupportedProtocol');
    if (c.req.method === 'POST' && !c.req.header('content-type')?.startsWith('application/json')) {
      return refuse(c, 'malformedRequest');
    }
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.use('*', bodyLimit({ maxSize: MAX_BODY_BYTES, onError: (c) => refuse(c, 'malformedRequest') }));

  app.get(agentPaths.hello, (c) => c.json({ ...info, agentKey: identity.publicKey }));

  // Everything past hello needs web access switched on.
  app.use('/v1/pairings/*', async (c, next) => (config.webAccess ? next() : refuse(c, 'agentDisabled')));
  app.use('/v1/sessions/*', async (c, next) => (config.webAccess ? next() : refuse(c, 'agentDisabled')));

  app.post(agentPaths.pairings, async (c) => {
    const request = await jsonBody(c, pairingRequestSchema);
    if (!request) return refuse(c, 'malformedRequest');
    if (request.protocol !== TRUST_AGENT_PROTOCOL) return refuse(c, 'unsupportedProtocol');
    try {
      return c.json(await pairings.request(c.get('origin'), request), 202);
    } catch (error) {
      if (error instanceof PairingRefusedError) return refuse(c, 'tooManyRequests');
      throw error;
    }
  });

  app.get('/v1/pairings/:id', (c) => {
    const status = pairings.status(c.get('origin'), c.req.param('id'));
    return status === null ? refuse(c, 'pairingNotFound') : c.json({ status });
  });

  app.post(agentPaths.sessions, async (c) => {
    const request = await jsonBody(c, sessionRequestSchema);
    if (!request) return refuse(c, 'malformedRequest');
    if (request.protocol !== TRUST_AGENT_PROTOCOL) return refuse(c, 'unsupportedProtocol');
    if (!pairings.isPaired(c.get('origin'), request.clientKey)) return refuse(c, 'unpaired');
    try {
      return c.json(await sessions.open(c.get('origin'), request), 201);
    } catch {
      // Keys that are not points of the curve, for instance.
      return refuse(c, 'handshakeFailed');
    }
  });

  app.post('/v1/sessions/:id/confirm', async (c) => {
    const request = await jsonBody(c, confirmRequestSchema);
    if (!request) return refuse(c, 'malformedRequest');
    try {
      await sessions.confirm(c.get('origin'), c.req.param('id'), request.clientSignature);
      return c.body(null, 204);
    } catch (error) {
      if (error instanceof SessionError)
        return refuse(c, error.code === 'messageRejected' ? 'handshakeFailed' : error.code);
      throw error;
    }
  });

  app.post('/v1/sessions/:id/messages', async (c) => {
    const message = await jsonBody(c, envelopeSchema);
    if (!message) return refuse(c, 'malformedRequest');
    try {
      const answer = await sessions.handle(c.get('origin'), c.req.param('id'), message, (command, request) =>
        service.run(context, command, request),
      );
      return c.json(answer);
    } catch (error) {
      if (error instanceof SessionError) return refuse(c, error.code);
      throw error;
    }
  });

  return { app, close: () => sessions.close() };
}

/**
 * The agent program: the trust agent and, unless switched off, the desktop client (decision 021
 * §5), sharing the identity key, the pairings and the keystores.
 */
export async function createAgentApp(config: AgentConfig, options: AgentOptions = {}) {
  const identity = await loadAgentIdentity(config.dataDir);
  const keystores = await openKeystores(config);
  const pairings = await Pairings.open({
    dataDir: config.dataDir,
    agentKey: identity.publicKey,
    preapprovedOrigins: config.preapprovedOrigins,
    prompts: options.prompts ?? pairingPrompts(config),
  });
  const program: AgentProgram = { config, identity, keystores, pairings, startedAt: Date.now() };
  const agent = createServiceApp(program, {
    product: TRUST_AGENT_PRODUCT,
    version: config.version,
    port: config.port,
    run: runCommand,
  });
  const profiles = new DesktopClientProfiles(config.dataDir);
  const desktopClient =
    config.desktopClientPort === null
      ? null
      : createServiceApp(program, {
          product: DESKTOP_CLIENT_PRODUCT,
          version: DESKTOP_CLIENT_VERSION,
          port: config.desktopClientPort,
          run: (context, command, request) =>
            runDesktopClientCommand({ ...context, profiles }, command, request),
        });
  return {
    app: agent.app,
    desktopClientApp: desktopClient?.app ?? null,
    pairings,
    async close() {
      agent.close();
      desktopClient?.close();
      await keystores.close();
    },
  };
}

type Server = ReturnType<typeof serve>;

function listen(app: Hono<AgentEnv>, port: number): Promise<Server> {
  return new Promise<Server>((resolve, reject) => {
    const listening = serve({ fetch: app.fetch, hostname: '127.0.0.1', port }, () => resolve(listening));
    listening.once('error', reject);
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    // Browsers keep connections open; the agent stops now, not when they time out.
    if ('closeAllConnections' in server) server.closeAllConnections();
  });
}

/** Serves the agent (and the desktop client) on 127.0.0.1 only, with the desktop user's control channel. */
export async function startAgent(config: AgentConfig, options: AgentOptions = {}): Promise<RunningAgent> {
  const agent = await createAgentApp(config, options);
  const servers: Server[] = [];
  try {
    servers.push(await listen(agent.app, config.port));
    if (agent.desktopClientApp && config.desktopClientPort !== null)
      servers.push(await listen(agent.desktopClientApp, config.desktopClientPort));
  } catch (error) {
    await Promise.all(servers.map(closeServer));
    await agent.close();
    throw error;
  }
  const control = await startControlChannel(config.dataDir, agent.pairings);
  return {
    url: `http://127.0.0.1:${config.port}`,
    desktopClientUrl:
      config.desktopClientPort === null ? null : `http://127.0.0.1:${config.desktopClientPort}`,
    async stop() {
      await control.close();
      await Promise.all(servers.map(closeServer));
      await agent.close();
    },
  };
}
