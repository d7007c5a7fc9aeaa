import { SESSION_IDLE_TIMEOUT_MS } from '../contract/trust-agent/constants.ts';
import {
  type CryptoKey,
  deriveSessionKeys,
  exportPublicKey,
  generateEphemeralKeys,
  type HandshakeTranscript,
  importIdentityPublicKey,
  MessageRejectedError,
  newId,
  newNonce,
  openMessage,
  type SealedMessage,
  type SessionKeys,
  sealMessage,
  signTranscript,
  verifyTranscript,
} from '../contract/trust-agent/session-crypto.ts';
import type { SessionRequest, SessionResponse } from '../contract/trust-agent/wire.ts';

/** Open sessions at most: the oldest idle one goes when a new one needs room. */
export const MAX_SESSIONS = 16;
/** A handshake the console does not confirm within this time is dropped. */
export const CONFIRM_TIMEOUT_MS = 30_000;

export type SessionFailure = 'sessionNotFound' | 'sequenceNotIncreasing' | 'messageRejected';

export class SessionError extends Error {
  constructor(readonly code: SessionFailure) {
    super(code);
  }
}

interface Session {
  id: string;
  origin: string;
  transcript: HandshakeTranscript;
  clientIdentity: CryptoKey;
  keys: SessionKeys;
  confirmed: boolean;
  lastSeq: number;
  lastUsed: number;
  createdAt: number;
  /** Messages of one session are handled one after another, in arrival order. */
  queue: Promise<unknown>;
}

/**
 * The agent's side of the handshake and of the encrypted messages (docs/agent-protocol.md §4–§5).
 * A session belongs to the origin that opened it, is usable only after the console proved its
 * paired identity key, accepts only increasing sequence numbers, and ends at the first message
 * that does not authenticate.
 */
export class Sessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly agentPrivateKey: CryptoKey,
    private readonly agentKey: string,
    private readonly now: () => number = Date.now,
  ) {}

  async open(origin: string, request: SessionRequest): Promise<SessionResponse> {
    this.sweep();
    const ephemeral = await generateEphemeralKeys();
    const transcript: HandshakeTranscript = {
      origin,
      sessionId: newId(),
      clientKey: request.clientKey,
      clientEphemeralKey: request.clientEphemeralKey,
      clientNonce: request.clientNonce,
      agentKey: this.agentKey,
      agentEphemeralKey: await exportPublicKey(ephemeral.publicKey),
      agentNonce: newNonce(),
    };
    const [keys, clientIdentity, agentSignature] = await Promise.all([
      deriveSessionKeys(ephemeral.privateKey, request.clientEphemeralKey, transcript),
      importIdentityPublicKey(request.clientKey),
      signTranscript(this.agentPrivateKey, 'agent', transcript),
    ]);
    this.makeRoom();
    const at = this.now();
    this.sessions.set(transcript.sessionId, {
      id: transcript.sessionId,
      origin,
      transcript,
      clientIdentity,
      keys,
      confirmed: false,
      lastSeq: 0,
      lastUsed: at,
      createdAt: at,
      queue: Promise.resolve(),
    });
    return {
      sessionId: transcript.sessionId,
      agentKey: this.agentKey,
      agentEphemeralKey: transcript.agentEphemeralKey,
      agentNonce: transcript.agentNonce,
      agentSignature,
    };
  }

  /** The console's proof that it holds the paired identity key; a wrong one ends the session. */
  async confirm(origin: string, sessionId: string, clientSignature: string): Promise<void> {
    const session = this.find(origin, sessionId);
    if (session.confirmed) throw new SessionError('messageRejected');
    const valid = await verifyTranscript(
      session.clientIdentity,
      'client',
      session.transcript,
      clientSignature,
    );
    if (!valid) {
      this.sessions.delete(sessionId);
      throw new SessionError('messageRejected');
    }
    session.confirmed = true;
    session.lastUsed = this.now();
  }

  /**
   * Decrypts one request, runs it and seals the answer under the same sequence number. The
   * sequence number is checked before decrypting and advanced only after it authenticated.
   */
  handle(
    origin: string,
    sessionId: string,
    message: SealedMessage,
    run: (command: string, request: unknown) => Promise<unknown>,
  ): Promise<SealedMessage> {
    const session = this.find(origin, sessionId);
    if (!session.confirmed) throw new SessionError('sessionNotFound');
    const next = session.queue.then(async () => {
      if (!this.sessions.has(sessionId)) throw new SessionError('sessionNotFound');
      if (message.seq <= session.lastSeq) throw new SessionError('sequenceNotIncreasing');
      const binding = { sessionId, seq: message.seq, command: message.command };
      let request: unknown;
      try {
        request = await openMessage(
          session.keys.clientToAgent,
          { ...binding, direction: 'client-to-agent' },
          message,
        );
      } catch (error) {
        if (!(error instanceof MessageRejectedError)) throw error;
        // Someone holds the session id but not its key, or the bytes were changed on the way.
        this.sessions.delete(sessionId);
        throw new SessionError('messageRejected');
      }
      session.lastSeq = message.seq;
      session.lastUsed = this.now();
      const outcome = await run(message.command, request);
      return sealMessage(session.keys.agentToClient, { ...binding, direction: 'agent-to-client' }, outcome);
    });
    session.queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.sessions.clear();
  }

  get size(): number {
    return this.sessions.size;
  }

  private find(origin: string, sessionId: string): Session {
    this.sweep();
    const session = this.sessions.get(sessionId);
    // Another origin's session id is answered like an unknown one.
    if (!session || session.origin !== origin) throw new SessionError('sessionNotFound');
    return session;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, session] of this.sessions) {
      const idle = now - session.lastUsed >= SESSION_IDLE_TIMEOUT_MS;
      const unconfirmed = !session.confirmed && now - session.createdAt >= CONFIRM_TIMEOUT_MS;
      if (idle || unconfirmed) this.sessions.delete(id);
    }
  }

  private makeRoom(): void {
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = [...this.sessions.values()].sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (!oldest) return;
      this.sessions.delete(oldest.id);
    }
  }
}
