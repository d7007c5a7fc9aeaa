import * as v from 'valibot';
import { HANDSHAKE_NONCE_BYTES, MESSAGE_IV_BYTES } from './constants.ts';
import { OPERATING_SYSTEMS } from './entities.ts';

/**
 * The agent's HTTP surface (docs/agent-protocol.md §3–§5): every body is JSON, every request
 * carries `PROTOCOL_HEADER`, so a browser always preflights it and a plain form or image cannot
 * reach the agent.
 */
export const agentPaths = {
  hello: '/v1/hello',
  pairings: '/v1/pairings',
  pairing: (id: string) => `/v1/pairings/${id}`,
  sessions: '/v1/sessions',
  confirm: (sessionId: string) => `/v1/sessions/${sessionId}/confirm`,
  messages: (sessionId: string) => `/v1/sessions/${sessionId}/messages`,
} as const;
export const PROTOCOL_HEADER = 'X-Trust-Agent-Protocol';

/** Unpadded base64url of exactly `bytes` bytes. */
function base64UrlOf(bytes: number) {
  return v.pipe(v.string(), v.length(Math.ceil((bytes * 4) / 3)), v.regex(/^[A-Za-z0-9_-]+$/));
}
/** An uncompressed P-256 point: 65 bytes. */
export const publicKeySchema = base64UrlOf(65);
export const nonceSchema = base64UrlOf(HANDSHAKE_NONCE_BYTES);
/** An ECDSA P-256 signature in IEEE P1363 form: 64 bytes. */
export const signatureSchema = base64UrlOf(64);
export const idSchema = v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{22}$/));

export const helloResponseSchema = v.object({
  product: v.string(),
  version: v.string(),
  protocol: v.string(),
  os: v.picklist(OPERATING_SYSTEMS),
  arch: v.string(),
  enabled: v.boolean(),
  agentKey: publicKeySchema,
});
export type HelloResponse = v.InferOutput<typeof helloResponseSchema>;

export const pairingRequestSchema = v.strictObject({
  protocol: v.string(),
  clientKey: publicKeySchema,
  clientNonce: nonceSchema,
});
export type PairingRequest = v.InferOutput<typeof pairingRequestSchema>;
export const pairingResponseSchema = v.object({
  pairingId: idSchema,
  agentKey: publicKeySchema,
  agentNonce: nonceSchema,
  expiresAt: v.string(),
});
export type PairingResponse = v.InferOutput<typeof pairingResponseSchema>;
export const PAIRING_STATUSES = ['pending', 'approved', 'refused', 'expired'] as const;
export const pairingStatusSchema = v.object({ status: v.picklist(PAIRING_STATUSES) });

export const sessionRequestSchema = v.strictObject({
  protocol: v.string(),
  clientKey: publicKeySchema,
  clientEphemeralKey: publicKeySchema,
  clientNonce: nonceSchema,
});
export type SessionRequest = v.InferOutput<typeof sessionRequestSchema>;
export const sessionResponseSchema = v.object({
  sessionId: idSchema,
  agentKey: publicKeySchema,
  agentEphemeralKey: publicKeySchema,
  agentNonce: nonceSchema,
  agentSignature: signatureSchema,
});
export type SessionResponse = v.InferOutput<typeof sessionResponseSchema>;
export const confirmRequestSchema = v.strictObject({ clientSignature: signatureSchema });

/** One encrypted message; the same shape both ways (docs/agent-protocol.md §5). */
export const envelopeSchema = v.strictObject({
  seq: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(Number.MAX_SAFE_INTEGER)),
  // Letters, then letters or digits: the desktop client's `pkcs7` is a command name too.
  command: v.pipe(v.string(), v.regex(/^[A-Za-z][A-Za-z0-9]{0,31}$/)),
  iv: base64UrlOf(MESSAGE_IV_BYTES),
  ciphertext: v.pipe(v.string(), v.minLength(22), v.maxLength(2_000_000), v.regex(/^[A-Za-z0-9_-]+$/)),
});
export type Envelope = v.InferOutput<typeof envelopeSchema>;

/** The agent's clear-text refusals share the platform's error shape. */
export const transportErrorSchema = v.object({
  error: v.object({ status: v.number(), message: v.string(), code: v.optional(v.string()) }),
});
