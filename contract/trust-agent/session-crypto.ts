import { HANDSHAKE_NONCE_BYTES, MESSAGE_IV_BYTES, TRUST_AGENT_PROTOCOL } from './constants.ts';

/**
 * The session cryptography of the trust-agent protocol (docs/agent-protocol.md §4–§5), written
 * once on WebCrypto: the console's agent worker and the agent (Node) run this same code.
 *
 * - Long-term identities: ECDSA P-256 keys, pinned by both sides at pairing.
 * - Handshake: ephemeral ECDH P-256 keys and a 64-byte nonce from each side; each side signs the
 *   transcript with its identity key, so a process squatting on the port without the pinned key
 *   cannot complete it.
 * - Keys: HKDF-SHA-256 over the ECDH secret, salted with both nonces and bound to the transcript's
 *   hash; one AES-256-GCM key per direction.
 * - Messages: a fresh random 16-byte IV each; the associated data binds the protocol, the session,
 *   the direction, the sequence number and the command, so a message cannot be replayed, reflected
 *   or moved to another command or session.
 */

const subtle = globalThis.crypto.subtle;
/** WebCrypto's key type, named through the API so the file compiles under the DOM and Node's types alike. */
export type CryptoKey = Awaited<ReturnType<typeof subtle.importKey>>;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const ECDH = { name: 'ECDH', namedCurve: 'P-256' } as const;
const SIGNATURE = { name: 'ECDSA', hash: 'SHA-256' } as const;

export type Direction = 'client-to-agent' | 'agent-to-client';
export type SignerRole = 'client' | 'agent';

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TypeError('Not base64url');
  const padded = text.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  return globalThis.crypto.getRandomValues(new Uint8Array(length));
}

export function newNonce(): string {
  return toBase64Url(randomBytes(HANDSHAKE_NONCE_BYTES));
}

/** A 128-bit random identifier (sessions, pairings), 22 base64url characters. */
export function newId(): string {
  return toBase64Url(randomBytes(16));
}

/**
 * Unambiguous concatenation: each part as a 4-byte big-endian length and its bytes, so no two
 * different lists of parts encode alike.
 */
export function encodeParts(parts: readonly (string | Uint8Array)[]): Uint8Array<ArrayBuffer> {
  const encoded = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const total = encoded.reduce((sum, part) => sum + 4 + part.length, 0);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  let offset = 0;
  for (const part of encoded) {
    view.setUint32(offset, part.length);
    out.set(part, offset + 4);
    offset += 4 + part.length;
  }
  return out;
}

/** A P-256 key pair (ECDSA for identities, ECDH for a handshake's ephemeral keys). */
export interface IdentityKeys {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
}

/** A long-term identity key pair; the console keeps its private key non-extractable in IndexedDB. */
export async function generateIdentityKeys(extractable = false): Promise<IdentityKeys> {
  return (await subtle.generateKey(ECDSA, extractable, ['sign', 'verify'])) as IdentityKeys;
}

export async function generateEphemeralKeys(): Promise<IdentityKeys> {
  return (await subtle.generateKey(ECDH, false, ['deriveBits'])) as IdentityKeys;
}

/** A P-256 public key as the wire carries it: the uncompressed point, base64url. */
export async function exportPublicKey(key: CryptoKey): Promise<string> {
  return toBase64Url(new Uint8Array(await subtle.exportKey('raw', key)));
}

export async function importIdentityPublicKey(encoded: string): Promise<CryptoKey> {
  return subtle.importKey('raw', fromBase64Url(encoded), ECDSA, true, ['verify']);
}

async function importEphemeralPublicKey(encoded: string): Promise<CryptoKey> {
  return subtle.importKey('raw', fromBase64Url(encoded), ECDH, true, []);
}

export interface PairingTranscript {
  origin: string;
  clientKey: string;
  clientNonce: string;
  agentKey: string;
  agentNonce: string;
}

/**
 * The short code both the console and the agent's prompt show for a pairing: six digits from the
 * hash of everything both sides saw. A process answering in the agent's place has another key, so
 * its code differs from the one the real agent shows.
 */
export async function pairingCode(transcript: PairingTranscript): Promise<string> {
  const bytes = encodeParts([
    `${TRUST_AGENT_PROTOCOL} pairing`,
    transcript.origin,
    transcript.clientKey,
    transcript.clientNonce,
    transcript.agentKey,
    transcript.agentNonce,
  ]);
  const digest = new DataView(await subtle.digest('SHA-256', bytes));
  const number = (digest.getUint32(0) % 1_000_000).toString().padStart(6, '0');
  return `${number.slice(0, 3)} ${number.slice(3)}`;
}

export interface HandshakeTranscript {
  origin: string;
  sessionId: string;
  clientKey: string;
  clientEphemeralKey: string;
  clientNonce: string;
  agentKey: string;
  agentEphemeralKey: string;
  agentNonce: string;
}

export function encodeHandshakeTranscript(transcript: HandshakeTranscript): Uint8Array<ArrayBuffer> {
  return encodeParts([
    `${TRUST_AGENT_PROTOCOL} handshake`,
    transcript.origin,
    transcript.sessionId,
    transcript.clientKey,
    transcript.clientEphemeralKey,
    transcript.clientNonce,
    transcript.agentKey,
    transcript.agentEphemeralKey,
    transcript.agentNonce,
  ]);
}

function signedContent(role: SignerRole, transcript: HandshakeTranscript) {
  return encodeParts([role, encodeHandshakeTranscript(transcript)]);
}

export async function signTranscript(
  privateKey: CryptoKey,
  role: SignerRole,
  transcript: HandshakeTranscript,
): Promise<string> {
  const signature = await subtle.sign(SIGNATURE, privateKey, signedContent(role, transcript));
  return toBase64Url(new Uint8Array(signature));
}

export async function verifyTranscript(
  publicKey: CryptoKey,
  role: SignerRole,
  transcript: HandshakeTranscript,
  signature: string,
): Promise<boolean> {
  return subtle.verify(SIGNATURE, publicKey, fromBase64Url(signature), signedContent(role, transcript));
}

export interface SessionKeys {
  clientToAgent: CryptoKey;
  agentToClient: CryptoKey;
}

/**
 * Both directions' AES-256-GCM keys: HKDF-SHA-256 with the ECDH secret as input, both nonces as
 * salt and the transcript's hash in the info. Non-extractable: neither end can hand them on.
 */
export async function deriveSessionKeys(
  ownEphemeralPrivateKey: CryptoKey,
  peerEphemeralKey: string,
  transcript: HandshakeTranscript,
): Promise<SessionKeys> {
  const peer = await importEphemeralPublicKey(peerEphemeralKey);
  const secret = await subtle.deriveBits({ name: 'ECDH', public: peer }, ownEphemeralPrivateKey, 256);
  const hkdfKey = await subtle.importKey('raw', secret, 'HKDF', false, ['deriveBits']);
  const salt = new Uint8Array([
    ...fromBase64Url(transcript.clientNonce),
    ...fromBase64Url(transcript.agentNonce),
  ]);
  const transcriptHash = new Uint8Array(
    await subtle.digest('SHA-256', encodeHandshakeTranscript(transcript)),
  );
  const info = encodeParts([`${TRUST_AGENT_PROTOCOL} session keys`, transcriptHash]);
  const material = new Uint8Array(
    await subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt, info }, hkdfKey, 512),
  );
  const aes = (bytes: Uint8Array<ArrayBuffer>) =>
    subtle.importKey('raw', bytes, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  return {
    clientToAgent: await aes(material.slice(0, 32)),
    agentToClient: await aes(material.slice(32, 64)),
  };
}

export interface MessageBinding {
  sessionId: string;
  direction: Direction;
  seq: number;
  command: string;
}

function associatedData(binding: MessageBinding) {
  return encodeParts([
    TRUST_AGENT_PROTOCOL,
    binding.sessionId,
    binding.direction,
    String(binding.seq),
    binding.command,
  ]);
}

export interface SealedMessage {
  seq: number;
  command: string;
  iv: string;
  ciphertext: string;
}

/** Encrypts a JSON value for one message of a session. */
export async function sealMessage(
  key: CryptoKey,
  binding: MessageBinding,
  value: unknown,
): Promise<SealedMessage> {
  const iv = randomBytes(MESSAGE_IV_BYTES);
  const plaintext = encoder.encode(JSON.stringify(value));
  const ciphertext = await subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: associatedData(binding), tagLength: 128 },
    key,
    plaintext,
  );
  return {
    seq: binding.seq,
    command: binding.command,
    iv: toBase64Url(iv),
    ciphertext: toBase64Url(new Uint8Array(ciphertext)),
  };
}

/** Raised for any message that does not authenticate: tampered, truncated, replayed elsewhere. */
export class MessageRejectedError extends Error {
  constructor() {
    super('The message does not authenticate under this session');
    this.name = 'MessageRejectedError';
  }
}

/** Decrypts and parses one message; any change to its bytes or its binding is refused. */
export async function openMessage(
  key: CryptoKey,
  binding: MessageBinding,
  message: SealedMessage,
): Promise<unknown> {
  if (message.seq !== binding.seq || message.command !== binding.command) throw new MessageRejectedError();
  let plaintext: ArrayBuffer;
  try {
    plaintext = await subtle.decrypt(
      {
        name: 'AES-GCM',
        iv: fromBase64Url(message.iv),
        additionalData: associatedData(binding),
        tagLength: 128,
      },
      key,
      fromBase64Url(message.ciphertext),
    );
  } catch {
    throw new MessageRejectedError();
  }
  try {
    return JSON.parse(decoder.decode(plaintext)) as unknown;
  } catch {
    throw new MessageRejectedError();
  }
}
