import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import type { CaKeyAlgorithm } from '../../contract/certificate-policy.ts';
import type { CaCustodyConfig } from '../config.ts';
import type { CertificateAuthoritiesTable } from '../db/schema.ts';
import { caAlgorithmParams } from './algorithms.ts';
import { KEY_ENCRYPTION_KEY_LENGTH, sealPrivateKey, unsealPrivateKey } from './seal.ts';
import { nodeCrypto, type WebCrypto, type WebCryptoKey, type WebCryptoKeyPair } from './x509.ts';

/** A CA's private key and the WebCrypto that signs with it (Node's, or the PKCS#11 token's). */
export interface CaSigner {
  privateKey: WebCryptoKey;
  crypto: WebCrypto;
}

/** A freshly generated CA key pair and what its row keeps of it. */
export interface GeneratedCaKey extends CaSigner {
  publicKey: WebCryptoKey;
  custody: CaCustodyConfig['kind'];
  /** encrypted custody: the sealed PKCS#8. */
  sealedPrivateKey: Uint8Array | null;
  /** pkcs11 custody: the label of the key pair on the token. */
  keyLabel: string | null;
}

type CaKeyRow = Pick<
  CertificateAuthoritiesTable,
  'id' | 'key_algorithm' | 'key_custody' | 'sealed_private_key' | 'key_label'
>;

/** Where this process keeps and finds the CA private keys (decision 019, custody). */
export interface CaKeyStore {
  readonly kind: CaCustodyConfig['kind'];
  generate(caId: string, algorithm: CaKeyAlgorithm): Promise<GeneratedCaKey>;
  /** The signing key of a stored CA; cached for the life of the process. */
  signer(row: CaKeyRow): Promise<CaSigner>;
  /** Deletes a generated key whose CA was never stored (another process won the bootstrap). */
  discard(key: GeneratedCaKey): Promise<void>;
  close(): Promise<void>;
}

/** The 32-byte key-encryption key of a file holding it raw or in base64. */
export function parseKeyEncryptionKey(content: Uint8Array, file: string): Uint8Array {
  if (content.length === KEY_ENCRYPTION_KEY_LENGTH) return content;
  const text = Buffer.from(content).toString('utf8').trim();
  const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (decoded.length !== KEY_ENCRYPTION_KEY_LENGTH) {
    throw new Error(
      `${file} must hold 32 random bytes, raw or base64 (e.g. \`openssl rand -base64 32\`); its content is not shown.`,
    );
  }
  return decoded;
}

async function readOrCreateKeyEncryptionKey(
  custody: Extract<CaCustodyConfig, { kind: 'encrypted' }>,
  log: (line: string) => void,
): Promise<Uint8Array> {
  if (custody.generated) {
    try {
      // `wx`: of several processes starting at once on one data directory, one creates the file.
      await writeFile(custody.keyFile, `${randomBytes(KEY_ENCRYPTION_KEY_LENGTH).toString('base64')}\n`, {
        mode: 0o600,
        flag: 'wx',
      });
      log(
        `Created the CA key-encryption key ${custody.keyFile} (mode 0600). It sits beside the database it protects, which is fine for trying the platform out but unfit for production: set CA_KEY_ENCRYPTION_KEY_FILE or CA_PKCS11_* (README, "Configuration").`,
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  let content: Buffer;
  try {
    content = await readFile(custody.keyFile);
  } catch (error) {
    throw new Error(
      `CA_KEY_ENCRYPTION_KEY_FILE ${custody.keyFile} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
  return parseKeyEncryptionKey(content, custody.generated ? custody.keyFile : 'CA_KEY_ENCRYPTION_KEY_FILE');
}

function custodyMismatch(row: CaKeyRow, kind: string): Error {
  return new Error(
    `CA ${row.id} keeps its key in ${row.key_custody} custody but this server is configured for ${kind}; configure the custody the CA was created with.`,
  );
}

function encryptedKeyStore(
  custody: Extract<CaCustodyConfig, { kind: 'encrypted' }>,
  log: (line: string) => void,
): CaKeyStore {
  let kek: Promise<Uint8Array> | null = null;
  const keyEncryptionKey = () => {
    kek ??= readOrCreateKeyEncryptionKey(custody, log);
    kek.catch(() => {
      kek = null;
    });
    return kek;
  };
  const signers = new Map<string, Promise<CaSigner>>();
  return {
    kind: 'encrypted',
    async generate(caId, algorithm) {
      const params = caAlgorithmParams(algorithm);
      const pair = (await nodeCrypto.subtle.generateKey(params.generate, true, [
        'sign',
        'verify',
      ])) as WebCryptoKeyPair;
      const pkcs8 = new Uint8Array(await nodeCrypto.subtle.exportKey('pkcs8', pair.privateKey));
      const sealed = sealPrivateKey(await keyEncryptionKey(), caId, pkcs8);
      pkcs8.fill(0);
      // The signing key is a non-extractable copy: nothing in this process can export it again.
      const privateKey = await nodeCrypto.subtle.importKey(
        'pkcs8',
        unsealPrivateKey(await keyEncryptionKey(), caId, sealed),
        params.import,
        false,
        ['sign'],
      );
      return {
        privateKey,
        publicKey: pair.publicKey,
        crypto: nodeCrypto,
        custody: 'encrypted',
        sealedPrivateKey: sealed,
        keyLabel: null,
      };
    },
    signer(row) {
      if (row.key_custody !== 'encrypted' || row.sealed_private_key === null) {
        return Promise.reject(custodyMismatch(row, 'an encrypted key file'));
      }
      const sealed = row.sealed_private_key;
      let signer = signers.get(row.id);
      if (signer === undefined) {
        signer = (async () => {
          const pkcs8 = unsealPrivateKey(await keyEncryptionKey(), row.id, sealed);
          const privateKey = await nodeCrypto.subtle.importKey(
            'pkcs8',
            pkcs8,
            caAlgorithmParams(row.key_algorithm as CaKeyAlgorithm).import,
            false,
            ['sign'],
          );
          pkcs8.fill(0);
          return { privateKey, crypto: nodeCrypto };
        })();
        signers.set(row.id, signer);
        signer.catch(() => signers.delete(row.id));
      }
      return signer;
    },
    discard: async () => undefined,
    close: async () => undefined,
  };
}

/**
 * The token's WebCrypto with one operation at a time: node-webcrypto-p11 starts a signature on the
 * shared session (C_SignInit) and finishes it after an await, so two concurrent signatures would
 * collide on the session (CKR_OPERATION_ACTIVE). Every `subtle` call waits for the one before it.
 */
export function serializedCrypto(crypto: WebCrypto): WebCrypto {
  let queue: Promise<unknown> = Promise.resolve();
  const subtle = new Proxy(crypto.subtle, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = queue.then(() => (value as (...rest: unknown[]) => unknown).apply(target, args));
        queue = result.catch(() => undefined);
        return result;
      };
    },
  });
  return new Proxy(crypto, {
    get: (target, property) => (property === 'subtle' ? subtle : Reflect.get(target, property)),
  });
}

/** The label of a CA's key pair on the token. */
export function pkcs11KeyLabel(caId: string): string {
  return `trust-console-ca-${caId}`;
}

function pkcs11KeyStore(custody: Extract<CaCustodyConfig, { kind: 'pkcs11' }>): CaKeyStore {
  type P11 = typeof import('node-webcrypto-p11');
  type Graphene = typeof import('graphene-pk11');
  let opened: Promise<{
    crypto: InstanceType<P11['Crypto']>;
    serial: WebCrypto;
    graphene: Graphene;
    close: () => void;
  }> | null = null;
  const open = () => {
    opened ??= (async () => {
      const [p11, graphene] = await Promise.all([import('node-webcrypto-p11'), import('graphene-pk11')]);
      const pin = (await readFile(custody.pinFile, 'utf8')).trim();
      const module = graphene.Module.load(custody.module, 'CA token');
      module.initialize();
      try {
        const slots = module.getSlots(true);
        let slot: InstanceType<Graphene['Slot']> | null = null;
        for (let index = 0; index < slots.length; index++) {
          const candidate = slots.items(index);
          if (candidate.getToken().label.trim() === custody.tokenLabel) slot = candidate;
        }
        if (slot === null) {
          throw new Error(
            `No PKCS#11 token labelled "${custody.tokenLabel}" is present in ${custody.module} (CA_PKCS11_TOKEN_LABEL).`,
          );
        }
        const session = slot.open(graphene.SessionFlag.SERIAL_SESSION | graphene.SessionFlag.RW_SESSION);
        try {
          session.login(pin, graphene.UserType.USER);
        } catch (error) {
          session.close();
          throw new Error(
            `The PIN in CA_PKCS11_PIN_FILE does not open token "${custody.tokenLabel}" (${(error as Error).message.split('\n')[0]}).`,
          );
        }
        const crypto = new p11.Crypto({ session });
        return {
          crypto,
          serial: serializedCrypto(crypto as unknown as WebCrypto),
          graphene,
          close: () => {
            try {
              session.logout();
              session.close();
            } finally {
              module.finalize();
            }
          },
        };
      } catch (error) {
        module.finalize();
        throw error;
      }
    })();
    opened.catch(() => {
      opened = null;
    });
    return opened;
  };
  const signers = new Map<string, Promise<CaSigner>>();
  return {
    kind: 'pkcs11',
    async generate(caId, algorithm) {
      const { serial } = await open();
      const params = caAlgorithmParams(algorithm);
      const label = pkcs11KeyLabel(caId);
      // On the token, sensitive and not extractable: the private key never exists outside it.
      const pair = (await serial.subtle.generateKey(
        { ...params.generate, token: true, sensitive: true, label } as unknown as typeof params.generate,
        false,
        ['sign', 'verify'],
      )) as WebCryptoKeyPair;
      return {
        privateKey: pair.privateKey,
        publicKey: pair.publicKey,
        crypto: serial,
        custody: 'pkcs11',
        sealedPrivateKey: null,
        keyLabel: label,
      };
    },
    signer(row) {
      if (row.key_custody !== 'pkcs11' || row.key_label === null) {
        return Promise.reject(custodyMismatch(row, 'a PKCS#11 token'));
      }
      const label = row.key_label;
      let signer = signers.get(row.id);
      if (signer === undefined) {
        signer = (async () => {
          const { crypto, serial, graphene } = await open();
          const p11 = await import('node-webcrypto-p11');
          const found = crypto.session.find({
            class: graphene.ObjectClass.PRIVATE_KEY,
            token: true,
            label,
          });
          if (found.length !== 1) {
            throw new Error(
              `Token "${custody.tokenLabel}" holds ${found.length} private keys labelled "${label}" (CA ${row.id}); it needs exactly one.`,
            );
          }
          const id = p11.CryptoKey.getID(found.items(0).toType());
          const privateKey = (await crypto.keyStorage.getItem(
            id,
            caAlgorithmParams(row.key_algorithm as CaKeyAlgorithm).import,
            false,
            ['sign'],
          )) as unknown as WebCryptoKey;
          return { privateKey, crypto: serial };
        })();
        signers.set(row.id, signer);
        signer.catch(() => signers.delete(row.id));
      }
      return signer;
    },
    async discard(key) {
      if (key.keyLabel === null) return;
      const { crypto, graphene } = await open();
      for (const objectClass of [graphene.ObjectClass.PRIVATE_KEY, graphene.ObjectClass.PUBLIC_KEY]) {
        const found = crypto.session.find({ class: objectClass, token: true, label: key.keyLabel });
        for (let index = 0; index < found.length; index++) found.items(index).destroy();
      }
    },
    async close() {
      const current = opened;
      opened = null;
      signers.clear();
      if (current !== null) (await current.catch(() => null))?.close();
    },
  };
}

const stores = new Map<string, CaKeyStore>();

/**
 * The key store of a custody configuration, one per process and configuration (a PKCS#11 module is
 * initialised once; unsealed keys are imported once).
 */
export function caKeyStore(custody: CaCustodyConfig, log: (line: string) => void = console.info): CaKeyStore {
  const cacheKey = JSON.stringify(custody);
  let store = stores.get(cacheKey);
  if (store === undefined) {
    store = custody.kind === 'encrypted' ? encryptedKeyStore(custody, log) : pkcs11KeyStore(custody);
    stores.set(cacheKey, store);
  }
  return store;
}

/** Closes and forgets every key store (server stop, tests). */
export async function closeCaKeyStores(): Promise<void> {
  const all = [...stores.values()];
  stores.clear();
  await Promise.all(all.map((store) => store.close()));
}
