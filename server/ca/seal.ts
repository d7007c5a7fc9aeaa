import { SEALING_KEY_LENGTH, seal, unseal } from '../sealed-box.ts';

/**
 * A CA private key at rest: its PKCS#8 sealed (server/sealed-box.ts) under the operator's 32-byte
 * key-encryption key, with the CA's id as associated data, so a sealed key moved to another CA's row
 * fails to open.
 */
export const KEY_ENCRYPTION_KEY_LENGTH = SEALING_KEY_LENGTH;

export function sealPrivateKey(kek: Uint8Array, caId: string, pkcs8: Uint8Array): Uint8Array {
  return seal(kek, caId, pkcs8);
}

/** The PKCS#8 of a sealed key; throws when the key-encryption key or the CA id is not the sealing one. */
export function unsealPrivateKey(kek: Uint8Array, caId: string, sealed: Uint8Array): Uint8Array<ArrayBuffer> {
  const pkcs8 = unseal(kek, caId, sealed);
  if (pkcs8 === null) {
    throw new Error(
      `The key of CA ${caId} does not unseal under CA_KEY_ENCRYPTION_KEY_FILE: is it the key-encryption key the CA was created with?`,
    );
  }
  return pkcs8;
}
