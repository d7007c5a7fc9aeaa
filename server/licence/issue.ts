import { createPublicKey, type KeyObject } from 'node:crypto';
import { CompactSign } from 'jose';
import type { LicencePayload } from '../../contract/schemas/licence.ts';
import { armourLicence, keyFingerprint } from './format.ts';

/** Signs a licence payload with the vendor key and returns the armoured licence text. */
export async function issueLicence(payload: LicencePayload, privateKey: KeyObject): Promise<string> {
  const jws = await new CompactSign(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({
      alg: 'EdDSA',
      kid: keyFingerprint(createPublicKey(privateKey)),
      typ: 'trust-platform-license',
    })
    .sign(privateKey);
  return armourLicence(jws);
}
