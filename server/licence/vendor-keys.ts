import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ServerConfig } from '../config.ts';
import { keyFingerprint } from './format.ts';
import type { TrustedLicenceKeys } from './verify.ts';

export const VENDOR_PRIVATE_KEY_FILE = 'licence-vendor.key.pem';
export const VENDOR_PUBLIC_KEY_FILE = 'licence-vendor.pub.pem';

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') return null;
    throw error;
  }
}

function ed25519PublicKey(pem: string, source: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${source} is not an Ed25519 public key.`);
  return key;
}

/**
 * The vendor keys this installation accepts: the one beside the data (written by `npm run licence`)
 * and the one named by LICENCE_PUBLIC_KEY_FILE. Read on every verification, so a key added while the
 * server runs counts at once. A configured file that is missing is an error, not silently ignored.
 */
export async function loadTrustedLicenceKeys(
  config: Pick<ServerConfig, 'dataDir' | 'licencePublicKeyFile'>,
): Promise<TrustedLicenceKeys> {
  const keys = new Map<string, KeyObject>();
  const local = path.join(config.dataDir, VENDOR_PUBLIC_KEY_FILE);
  const localPem = await readIfPresent(local);
  if (localPem !== null) {
    const key = ed25519PublicKey(localPem, local);
    keys.set(keyFingerprint(key), key);
  }
  if (config.licencePublicKeyFile !== null) {
    const key = ed25519PublicKey(
      await readFile(config.licencePublicKeyFile, 'utf8'),
      config.licencePublicKeyFile,
    );
    keys.set(keyFingerprint(key), key);
  }
  return keys;
}

export interface VendorKeyPair {
  privateKey: KeyObject;
  publicKey: KeyObject;
  created: boolean;
}

/** The signing key pair in `dataDir`, created (private key readable by its owner only) when absent. */
export async function loadOrCreateVendorKeys(dataDir: string): Promise<VendorKeyPair> {
  const privateFile = path.join(dataDir, VENDOR_PRIVATE_KEY_FILE);
  const publicFile = path.join(dataDir, VENDOR_PUBLIC_KEY_FILE);
  const existing = await readIfPresent(privateFile);
  if (existing !== null) {
    const privateKey = createPrivateKey(existing);
    if (privateKey.asymmetricKeyType !== 'ed25519') throw new Error(`${privateFile} is not an Ed25519 key.`);
    const publicKey = createPublicKey(privateKey);
    if ((await readIfPresent(publicFile)) === null) {
      await writeFile(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
    }
    return { privateKey, publicKey, created: false };
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  // `wx`: never overwrite a key another process wrote in the meantime.
  await writeFile(privateFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), {
    mode: 0o600,
    flag: 'wx',
  });
  await writeFile(publicFile, publicKey.export({ type: 'spki', format: 'pem' }), { mode: 0o644 });
  return { privateKey, publicKey, created: true };
}
