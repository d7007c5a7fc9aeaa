import type { JsonWebKey } from 'node:crypto';
import path from 'node:path';
import { type CryptoKey, exportPublicKey } from '../contract/trust-agent/session-crypto.ts';
import { readJsonFile, writePrivateFile } from './files.ts';

const subtle = globalThis.crypto.subtle;
const ECDSA = { name: 'ECDSA', namedCurve: 'P-256' } as const;

export interface AgentIdentity {
  privateKey: CryptoKey;
  /** The public key as the wire carries it; consoles pin it at pairing. */
  publicKey: string;
}

/**
 * The agent's long-term ECDSA P-256 key, made at first start and kept in the data directory
 * (owner-only). Consoles pin its public key, so a process that takes port 8900 without this file
 * cannot finish a handshake.
 */
export async function loadAgentIdentity(dataDir: string): Promise<AgentIdentity> {
  const file = path.join(dataDir, 'identity.json');
  let jwk = await readJsonFile<JsonWebKey | null>(file, null);
  if (jwk === null) {
    const pair = (await subtle.generateKey(ECDSA, true, ['sign', 'verify'])) as { privateKey: CryptoKey };
    jwk = (await subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
    await writePrivateFile(file, `${JSON.stringify(jwk)}\n`);
  }
  const privateKey = await subtle.importKey('jwk', jwk, ECDSA, false, ['sign']);
  const { d: _private, ...publicJwk } = jwk;
  const publicKey = await subtle.importKey('jwk', { ...publicJwk, key_ops: ['verify'] }, ECDSA, true, [
    'verify',
  ]);
  return { privateKey, publicKey: await exportPublicKey(publicKey) };
}
