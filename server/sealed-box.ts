import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM under a 32-byte key, bound to associated data, so that a box moved to another row
 * fails to open. Layout: version (1) ‖ IV (12) ‖ ciphertext ‖ tag (16). The CA's private keys at
 * rest and a spent refresh token's successor (server/identity/sessions.ts) are sealed this way.
 */
const VERSION = 1;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

export const SEALING_KEY_LENGTH = 32;

export function seal(key: Uint8Array, associatedData: string, plaintext: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]);
}

/**
 * The plaintext of a box, or null when it is not in this layout or does not open under this key and
 * associated data: callers say which of their secrets that was.
 */
export function unseal(
  key: Uint8Array,
  associatedData: string,
  sealed: Uint8Array,
): Uint8Array<ArrayBuffer> | null {
  const data = Buffer.from(sealed);
  if (data.length < 1 + IV_LENGTH + TAG_LENGTH || data[0] !== VERSION) return null;
  const iv = data.subarray(1, 1 + IV_LENGTH);
  const tag = data.subarray(data.length - TAG_LENGTH);
  const body = data.subarray(1 + IV_LENGTH, data.length - TAG_LENGTH);
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_LENGTH });
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return new Uint8Array(Buffer.concat([decipher.update(body), decipher.final()]));
  } catch {
    return null;
  }
}
