import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * A CA private key at rest: its PKCS#8 sealed with AES-256-GCM under the operator's 32-byte
 * key-encryption key, with the CA's id as associated data, so a sealed key moved to another CA's row
 * fails to open. Layout: version (1) ‖ IV (12) ‖ ciphertext ‖ tag (16).
 */
const VERSION = 1;
const IV_LENGTH = 12;
const TAG_LENGTH = 16;

export const KEY_ENCRYPTION_KEY_LENGTH = 32;

export function sealPrivateKey(kek: Uint8Array, caId: string, pkcs8: Uint8Array): Uint8Array {
  const iv = randomBytes(IV_LENGTH);
  const cipher = createCipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_LENGTH });
  cipher.setAAD(Buffer.from(caId, 'utf8'));
  const body = Buffer.concat([cipher.update(pkcs8), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, body, cipher.getAuthTag()]);
}

/** The PKCS#8 of a sealed key; throws when the key-encryption key or the CA id is not the sealing one. */
export function unsealPrivateKey(kek: Uint8Array, caId: string, sealed: Uint8Array): Uint8Array<ArrayBuffer> {
  const data = Buffer.from(sealed);
  if (data.length < 1 + IV_LENGTH + TAG_LENGTH || data[0] !== VERSION) {
    throw new Error(`The sealed key of CA ${caId} is not in a format this server reads.`);
  }
  const iv = data.subarray(1, 1 + IV_LENGTH);
  const tag = data.subarray(data.length - TAG_LENGTH);
  const body = data.subarray(1 + IV_LENGTH, data.length - TAG_LENGTH);
  const decipher = createDecipheriv('aes-256-gcm', kek, iv, { authTagLength: TAG_LENGTH });
  decipher.setAAD(Buffer.from(caId, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return new Uint8Array(Buffer.concat([decipher.update(body), decipher.final()]));
  } catch {
    throw new Error(
      `The key of CA ${caId} does not unseal under CA_KEY_ENCRYPTION_KEY_FILE: is it the key-encryption key the CA was created with?`,
    );
  }
}
