import * as v from 'valibot';
import {
  type AgentCommand,
  type CommandOutcome,
  type CommandRequest,
  commandErrorSchema,
  commandSchemas,
} from '../../contract/trust-agent/commands.ts';
import { PROTOCOL_CHECK_TIMEOUT_MS, TRUST_AGENT_PROTOCOL } from '../../contract/trust-agent/constants.ts';
import {
  agentPaths,
  envelopeSchema,
  type HelloResponse,
  helloResponseSchema,
  PROTOCOL_HEADER,
  type PairingResponse,
  pairingResponseSchema,
  pairingStatusSchema,
  sessionResponseSchema,
  transportErrorSchema,
} from '../../contract/trust-agent/wire.ts';
import {
  type CryptoKey,
  deriveSessionKeys,
  exportPublicKey,
  generateEphemeralKeys,
  type HandshakeTranscript,
  type IdentityKeys,
  importIdentityPublicKey,
  newNonce,
  openMessage,
  type SessionKeys,
  sealMessage,
  signTranscript,
  verifyTranscript,
} from '../../contract/trust-agent/session-crypto.ts';

/**
 * The agent's HTTP protocol from the console's side (docs/agent-protocol.md): hello, pairing, the
 * handshake and encrypted commands. Runs in the agent worker only.
 */

/** Nothing answered on the agent's port (or not within the protocol check's time). */
export class AgentUnreachableError extends Error {
  constructor(cause?: unknown) {
    super('The trust agent does not answer', { cause });
    this.name = 'AgentUnreachableError';
  }
}

/** The agent answered with one of its clear-text refusals (errors.ts TRANSPORT_ERROR_CODES). */
export class AgentRefusalError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = 'AgentRefusalError';
  }
}

/** The agent's answer is not what the protocol allows, or it failed to prove it holds the pinned key. */
export class AgentNotAuthenticError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentNotAuthenticError';
  }
}

export interface PendingPairing {
  pairingId: string;
  agentKey: string;
  code: string;
}

export interface AgentSession {
  id: string;
  keys: SessionKeys;
  /** The last sequence number sent; the next message uses the one after it. */
  seq: number;
}

export class AgentHttp {
  constructor(
    private readonly agentUrl: string,
    /** The console's origin, which the agent binds pairings and sessions to. */
    private readonly origin: string,
    private readonly fetchImpl: typeof fetch = (...args) => fetch(...args),
  ) {}

  private async request<T>(
    path: string,
    schema: v.GenericSchema<unknown, T> | null,
    init: { method?: string; body?: unknown; timeoutMs?: number } = {},
  ): Promise<T> {
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.agentUrl}${path}`, {
        method: init.method ?? 'GET',
        headers: { [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL, 'Content-Type': 'application/json' },
        body: init.body === undefined ? null : JSON.stringify(init.body),
        signal: init.timeoutMs ? AbortSignal.timeout(init.timeoutMs) : null,
        // The agent is another origin; the console's cookies are none of its business.
        credentials: 'omit',
      });
    } catch (error) {
      throw new AgentUnreachableError(error);
    }
    if (!response.ok) {
      const body = v.safeParse(transportErrorSchema, await response.json().catch(() => null));
      throw body.success
        ? new AgentRefusalError(body.output.error.status, body.output.error.code, body.output.error.message)
        : new AgentRefusalError(response.status, undefined, response.statusText);
    }
    if (schema === null) return undefined as T;
    const parsed = v.safeParse(schema, await response.json().catch(() => null));
    if (!parsed.success) throw new AgentNotAuthenticError(`Unexpected answer from ${path}`);
    return parsed.output;
  }

  /** The protocol check (overview §9): who answers on the port, within 2 s. */
  hello(): Promise<HelloResponse> {
    return this.request(agentPaths.hello, helloResponseSchema, { timeoutMs: PROTOCOL_CHECK_TIMEOUT_MS });
  }

  startPairing(clientKey: string, clientNonce: string): Promise<PairingResponse> {
    return this.request(agentPaths.pairings, pairingResponseSchema, {
      method: 'POST',
      body: { protocol: TRUST_AGENT_PROTOCOL, clientKey, clientNonce },
    });
  }

  async pairingStatus(pairingId: string) {
    return (await this.request(agentPaths.pairing(pairingId), pairingStatusSchema)).status;
  }

  /**
   * The handshake: ephemeral ECDH keys and nonces, the agent's signature checked against the
   * pinned key, then the console's own signature to confirm.
   */
  async handshake(identity: IdentityKeys, pinnedAgentKey: string): Promise<AgentSession> {
    const clientKey = await exportPublicKey(identity.publicKey);
    const ephemeral = await generateEphemeralKeys();
    const clientEphemeralKey = await exportPublicKey(ephemeral.publicKey);
    const clientNonce = newNonce();
    const answer = await this.request(agentPaths.sessions, sessionResponseSchema, {
      method: 'POST',
      body: { protocol: TRUST_AGENT_PROTOCOL, clientKey, clientEphemeralKey, clientNonce },
    });
    if (answer.agentKey !== pinnedAgentKey) throw new AgentNotAuthenticError('The agent answered with another key');
    const transcript: HandshakeTranscript = {
      origin: this.origin,
      sessionId: answer.sessionId,
      clientKey,
      clientEphemeralKey,
      clientNonce,
      agentKey: answer.agentKey,
      agentEphemeralKey: answer.agentEphemeralKey,
      agentNonce: answer.agentNonce,
    };
    const agentPublicKey: CryptoKey = await importIdentityPublicKey(pinnedAgentKey);
    if (!(await verifyTranscript(agentPublicKey, 'agent', transcript, answer.agentSignature))) {
      throw new AgentNotAuthenticError('The agent did not sign the handshake with its pinned key');
    }
    const keys = await deriveSessionKeys(ephemeral.privateKey, answer.agentEphemeralKey, transcript);
    await this.request(agentPaths.confirm(answer.sessionId), null, {
      method: 'POST',
      body: { clientSignature: await signTranscript(identity.privateKey, 'client', transcript) },
    });
    return { id: answer.sessionId, keys, seq: 0 };
  }

  /** One encrypted command; the session's sequence number moves on whether or not it is answered. */
  async send<C extends AgentCommand>(
    session: AgentSession,
    command: C,
    request: CommandRequest<C>,
  ): Promise<CommandOutcome<C>> {
    session.seq += 1;
    const seq = session.seq;
    const sealed = await sealMessage(
      session.keys.clientToAgent,
      { sessionId: session.id, direction: 'client-to-agent', seq, command },
      request,
    );
    const envelope = await this.request(agentPaths.messages(session.id), envelopeSchema, {
      method: 'POST',
      body: sealed,
    });
    const plaintext = await openMessage(
      session.keys.agentToClient,
      { sessionId: session.id, direction: 'agent-to-client', seq, command },
      envelope,
    );
    return parseOutcome(command, plaintext);
  }
}

function parseOutcome<C extends AgentCommand>(command: C, plaintext: unknown): CommandOutcome<C> {
  const outcome = v.safeParse(
    v.variant('ok', [
      v.object({ ok: v.literal(true), result: commandSchemas[command].response }),
      v.object({ ok: v.literal(false), error: commandErrorSchema }),
    ]),
    plaintext,
  );
  if (!outcome.success) throw new AgentNotAuthenticError(`Unexpected answer to ${command}`);
  return outcome.output as CommandOutcome<C>;
}
