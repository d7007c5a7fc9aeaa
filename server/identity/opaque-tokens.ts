import { createHash, randomBytes } from 'node:crypto';

/**
 * Random bearer secrets that the server looks up rather than verifies (refresh tokens, trusted-device
 * tokens): 256 bits from the system's generator, sent as base64url, stored only as their SHA-256,
 * so a copy of the database lets nobody present one.
 */
const OPAQUE_TOKEN_BYTES = 32;
/** base64url of 32 bytes, unpadded. */
const OPAQUE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newOpaqueToken(): string {
  return randomBytes(OPAQUE_TOKEN_BYTES).toString('base64url');
}

/** Whether `token` could be one of ours: anything else is refused before the database is asked. */
export function isOpaqueToken(token: string): boolean {
  return OPAQUE_TOKEN_PATTERN.test(token);
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
