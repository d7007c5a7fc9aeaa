import * as v from 'valibot';
import type { CommandTable, commandSchemas, TableOutcome, TableRequest } from './commands.ts';
import { TRUST_AGENT_PROTOCOL } from './constants.ts';
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
  pairingCode,
  type SessionKeys,
  sealMessage,
  signTranscript,
  verifyTranscript,
} from './session-crypto.ts';
import {
  agentPaths,
  envelopeSchema,
  helloResponseSchema,
  type PairingResponse,
  PROTOCOL_HEADER,
  pairingResponseSchema,
  pairingStatusSchema,
  sessionResponseSchema,
  transportErrorSchema,
} from './wire.ts';

/**
 * The console's side of the protocol (docs/agent-protocol.md §3–§5), on WebCrypto and `fetch`: the
 * console's agent worker runs it in the browser, the agent's tests and benchmark in Node.
 */

export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** A refusal of the agent, in clear (`code` from TRANSPORT_ERROR_CODES), or a broken answer. */
export class AgentTransportError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentTransportError';
  }
}

/** The agent signed with another key than the pinned one, or not at all: not our agent. */
export class AgentImpersonationError extends Error {
  constructor() {
    super('The agent on this port does not hold the key paired with this console');
    this.name = 'AgentImpersonationError';
  }
}

interface Connection {
  baseUrl: string;
  fetch: Fetch;
  /** Abort a request that takes longer (ms). */
  timeoutMs?: number;
}

async function call<S extends v.GenericSchema>(
  connection: Connection,
  path: string,
  schema: S | null,
  body?: unknown,
): Promise<v.InferOutput<S>> {
  const response = await connection.fetch(`${connection.baseUrl}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: 'omit',
    ...(connection.timeoutMs ? { signal: AbortSignal.timeout(connection.timeoutMs) } : {}),
  });
  if (!response.ok) {
    const refusal = v.safeParse(transportErrorSchema, await response.json().catch(() => null));
    const error = refusal.success ? refusal.output.error : null;
    throw new AgentTransportError(
      response.status,
      error?.code ?? 'malformedRequest',
      error?.message ?? response.statusText,
    );
  }
  if (schema === null) return undefined as v.InferOutput<S>;
  const parsed = v.safeParse(schema, await response.json().catch(() => null));
  if (!parsed.success)
    throw new AgentTransportError(response.status, 'malformedRequest', 'The agent answered out of protocol');
  return parsed.output;
}

export function hello(connection: Connection) {
  return call(connection, agentPaths.hello, helloResponseSchema);
}

export interface PairingStart {
  response: PairingResponse;
  /** The code the agent's prompt shows too. */
  code: string;
}

export async function requestPairing(
  connection: Connection,
  origin: string,
  identity: IdentityKeys,
): Promise<PairingStart> {
  const clientKey = await exportPublicKey(identity.publicKey);
  const clientNonce = newNonce();
  const response = await call(connection, agentPaths.pairings, pairingResponseSchema, {
    protocol: TRUST_AGENT_PROTOCOL,
    clientKey,
    clientNonce,
  });
  const code = await pairingCode({
    origin,
    clientKey,
    clientNonce,
    agentKey: response.agentKey,
    agentNonce: response.agentNonce,
  });
  return { response, code };
}

export function pairingStatus(connection: Connection, pairingId: string) {
  return call(connection, agentPaths.pairing(pairingId), pairingStatusSchema);
}

/** A session with one service of the agent program: the trust agent's commands unless told otherwise. */
export interface ClientSession<T extends CommandTable = typeof commandSchemas> {
  readonly sessionId: string;
  /** Sends one command and returns its outcome; commands go one at a time, in order. */
  send<C extends keyof T & string>(command: C, request: TableRequest<T, C>): Promise<TableOutcome<T, C>>;
}

/**
 * Shakes hands with the agent whose identity key is `pinnedAgentKey`, proves the console's own
 * identity, and returns the session. Refuses an agent that answers with any other key.
 */
export async function openSession<T extends CommandTable = typeof commandSchemas>(
  connection: Connection,
  origin: string,
  identity: IdentityKeys,
  pinnedAgentKey: string,
): Promise<ClientSession<T>> {
  const ephemeral = await generateEphemeralKeys();
  const clientKey = await exportPublicKey(identity.publicKey);
  const clientEphemeralKey = await exportPublicKey(ephemeral.publicKey);
  const clientNonce = newNonce();
  const answer = await call(connection, agentPaths.sessions, sessionResponseSchema, {
    protocol: TRUST_AGENT_PROTOCOL,
    clientKey,
    clientEphemeralKey,
    clientNonce,
  });
  if (answer.agentKey !== pinnedAgentKey) throw new AgentImpersonationError();
  const transcript: HandshakeTranscript = {
    origin,
    sessionId: answer.sessionId,
    clientKey,
    clientEphemeralKey,
    clientNonce,
    agentKey: answer.agentKey,
    agentEphemeralKey: answer.agentEphemeralKey,
    agentNonce: answer.agentNonce,
  };
  const agentIdentity: CryptoKey = await importIdentityPublicKey(pinnedAgentKey);
  if (!(await verifyTranscript(agentIdentity, 'agent', transcript, answer.agentSignature))) {
    throw new AgentImpersonationError();
  }
  const keys: SessionKeys = await deriveSessionKeys(
    ephemeral.privateKey,
    answer.agentEphemeralKey,
    transcript,
  );
  const clientSignature = await signTranscript(identity.privateKey, 'client', transcript);
  await call(connection, agentPaths.confirm(answer.sessionId), null, { clientSignature });

  let seq = 0;
  let queue: Promise<unknown> = Promise.resolve();
  const sessionId = answer.sessionId;
  return {
    sessionId,
    send<C extends keyof T & string>(command: C, request: TableRequest<T, C>): Promise<TableOutcome<T, C>> {
      const sent = queue.then(async () => {
        seq += 1;
        const binding = { sessionId, seq, command };
        const sealed = await sealMessage(
          keys.clientToAgent,
          { ...binding, direction: 'client-to-agent' },
          request,
        );
        const envelope = await call(connection, agentPaths.messages(sessionId), envelopeSchema, sealed);
        return (await openMessage(
          keys.agentToClient,
          { ...binding, direction: 'agent-to-client' },
          envelope,
        )) as TableOutcome<T, C>;
      });
      queue = sent.catch(() => undefined);
      return sent;
    },
  };
}
