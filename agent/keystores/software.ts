import { createPrivateKey, randomBytes, sign as signData } from 'node:crypto';
import path from 'node:path';
import {
  AGENT_EC_CURVES,
  type Keystore,
  type Mechanism,
  type Token,
} from '../../contract/trust-agent/entities.ts';
import { CommandFailure } from '../failure.ts';
import { readOptionalFile, removeTemporaries, writePrivateFile } from '../files.ts';
import type { KeystoreBackend } from './backend.ts';
import { checkKeyRequest, checkSignatureKey } from './mechanisms.ts';
import { type PinAttempts, WrongPin } from './pin-attempts.ts';
import {
  decryptKey,
  type KeystoreInfo,
  openPkcs12,
  type Pkcs12Contents,
  Pkcs12MacMismatch,
  readPkcs12WithoutPin,
  reencrypt,
  sealPkcs12,
  shroudKey,
} from './pkcs12.ts';
import { SerialQueue } from './queue.ts';
import {
  createCsr,
  describeCertificate,
  keyAlgorithmOf,
  keyAlgorithms,
  keyIdOf,
  nodeCrypto,
  parseCertificatePem,
  serialHex,
  type WebCryptoKeyPair,
  x509,
} from './x509.ts';

export const SOFTWARE_KEYSTORE_ID = 'software';
const DEFAULT_LABEL = 'Software keystore';
/**
 * What the software keystore makes: RSA from 2048 bits (below is no longer safe) to 4096 (above
 * takes minutes), and EC on every curve of the contract.
 */
export const SOFTWARE_MECHANISMS: readonly Mechanism[] = [
  { algorithm: 'RSA', minKeySize: 2048, maxKeySize: 4096 },
  { algorithm: 'EC', curves: [...AGENT_EC_CURVES] },
];

/**
 * The software keystore: one PIN-protected PKCS#12 file (pkcs12.ts) in `<dataDir>/keystore/`. Every
 * change is read, changed and written again as a whole, one at a time, through a temporary file and a
 * rename.
 */
export function softwareKeystore(dataDir: string, attempts: PinAttempts): KeystoreBackend {
  const file = path.join(dataDir, 'keystore', 'software.p12');
  const queue = new SerialQueue();
  // Leftovers of a crashed write are only clutter: failing to remove them stops nothing.
  queue.run(() => removeTemporaries(file)).catch(() => undefined);

  /** The label and serial, which are not secret: read without the PIN. */
  const info = async (): Promise<KeystoreInfo> => {
    const bytes = await readOptionalFile(file);
    return bytes === null
      ? { label: DEFAULT_LABEL, serial: '' }
      : (await readPkcs12WithoutPin(new Uint8Array(bytes))).info;
  };

  async function stored(): Promise<Uint8Array<ArrayBuffer>> {
    const bytes = await readOptionalFile(file);
    if (bytes === null) {
      throw new CommandFailure(
        'keystoreUninitialized',
        'The software keystore is not created yet; initialize it with a PIN',
      );
    }
    return new Uint8Array(bytes);
  }

  /** The keystore's contents, if the PIN opens it (counted against the agent's attempt limit). */
  async function open(pin: string): Promise<{ bytes: Uint8Array<ArrayBuffer>; contents: Pkcs12Contents }> {
    const bytes = await stored();
    const contents = await attempts.check(SOFTWARE_KEYSTORE_ID, async () => {
      try {
        return await openPkcs12(bytes, pin);
      } catch (error) {
        if (error instanceof Pkcs12MacMismatch) throw new WrongPin();
        throw error;
      }
    });
    return { bytes, contents };
  }

  async function save(contents: Pkcs12Contents, pin: string): Promise<void> {
    await writePrivateFile(file, await sealPkcs12(contents, pin));
  }

  async function status(): Promise<Keystore['status']> {
    if ((await readOptionalFile(file)) === null) return 'UNINITIALIZED';
    return (await attempts.remaining(SOFTWARE_KEYSTORE_ID)) === 0 ? 'LOCKED' : 'INITIALIZED';
  }

  async function keystore(): Promise<Keystore> {
    return {
      id: SOFTWARE_KEYSTORE_ID,
      name: (await info()).label,
      type: 'PFX',
      status: await status(),
      slot: null,
      library: null,
    };
  }

  function findCertificate(contents: Pkcs12Contents, serial: string) {
    const found = contents.certificates.find(
      (item) => serialHex(new x509.X509Certificate(item.der)) === serial,
    );
    if (found === undefined) {
      throw new CommandFailure(
        'certificateNotFound',
        `The software keystore holds no certificate with serial ${serial}`,
      );
    }
    return found;
  }

  function certificateOf(contents: Pkcs12Contents, der: Uint8Array<ArrayBuffer>, keyId: string | null) {
    return {
      keystoreId: SOFTWARE_KEYSTORE_ID,
      ...describeCertificate(new x509.X509Certificate(der)),
      hasPrivateKey: keyId !== null && contents.keys.some((key) => key.keyId === keyId),
    };
  }

  return {
    owns: (keystoreId) => keystoreId === SOFTWARE_KEYSTORE_ID,
    list: async () => [await keystore()],
    async tokens() {
      const created = (await status()) !== 'UNINITIALIZED';
      const remaining = await attempts.remaining(SOFTWARE_KEYSTORE_ID);
      const { label, serial } = await info();
      const token: Token = {
        keystoreId: SOFTWARE_KEYSTORE_ID,
        initialized: created,
        label,
        type: 'SWToken',
        manufacturer: 'Trust Assistant',
        model: 'PKCS#12',
        serial,
        mechanisms: [...SOFTWARE_MECHANISMS],
        pin: {
          initialized: created,
          locked: remaining === 0,
          retriesLeft: remaining,
          finalTry: remaining === 1,
        },
      };
      return [token];
    },
    refresh: async () => undefined,

    verifyPin: (request) =>
      queue.run(async () => {
        await open(request.pin);
        return { verified: true as const };
      }),

    changePin: (request) =>
      queue.run(async () => {
        const { contents } = await open(request.pin);
        await save(await reencrypt(contents, request.pin, request.newPin), request.newPin);
        return { changed: true as const };
      }),

    resetPin: async () => {
      throw new CommandFailure(
        'unsupportedCommand',
        'The software keystore has no security officer PIN to reset its PIN with; restore a backup or create it again',
      );
    },

    initToken: (request) =>
      queue.run(async () => {
        if ((await readOptionalFile(file)) !== null) {
          throw new CommandFailure(
            'unsupportedCommand',
            'The software keystore exists already; it is never created again over its keys',
          );
        }
        await save(
          {
            info: { label: request.label, serial: randomBytes(8).toString('hex') },
            keys: [],
            certificates: [],
          },
          request.pin,
        );
        await attempts.reset(SOFTWARE_KEYSTORE_ID);
        return { keystore: await keystore() };
      }),

    generate: (request) =>
      queue.run(async () => {
        checkKeyRequest(SOFTWARE_MECHANISMS, request);
        const { contents } = await open(request.pin);
        const algorithms = keyAlgorithms(request);
        const keys = (await nodeCrypto.subtle.generateKey(algorithms.generate, true, [
          'sign',
          'verify',
        ])) as WebCryptoKeyPair;
        const keyId = await keyIdOf(await nodeCrypto.subtle.exportKey('spki', keys.publicKey));
        const csr = await createCsr(request.subject.commonName, keys, algorithms.csr, nodeCrypto);
        const pkcs8 = new Uint8Array(await nodeCrypto.subtle.exportKey('pkcs8', keys.privateKey));
        const key = await shroudKey(pkcs8, keyId, request.subject.commonName, request.pin);
        pkcs8.fill(0);
        await save({ ...contents, keys: [...contents.keys, key] }, request.pin);
        return { keyId, csr };
      }),

    importCertificate: (request) =>
      queue.run(async () => {
        const certificate = parseCertificatePem(request.certificate);
        if (certificate === null)
          throw new CommandFailure('certificateInvalid', 'The text is not one X.509 certificate');
        const { contents } = await open(request.pin);
        // The key identifier is a hash of the public key: equal identifiers, equal public keys.
        const keyId = await keyIdOf(certificate.publicKey.rawData);
        if (!contents.keys.some((key) => key.keyId === keyId)) {
          throw new CommandFailure(
            'certificateKeyMismatch',
            "The certificate's public key belongs to no private key in the software keystore",
          );
        }
        const serial = serialHex(certificate);
        const der = new Uint8Array(certificate.rawData);
        const others = contents.certificates.filter(
          (item) => serialHex(new x509.X509Certificate(item.der)) !== serial,
        );
        const updated = { ...contents, certificates: [...others, { keyId, der }] };
        await save(updated, request.pin);
        return { certificate: certificateOf(updated, der, keyId) };
      }),

    certificates: () =>
      queue.run(async () => {
        const contents = await readPkcs12WithoutPin(await stored());
        return {
          certificates: contents.certificates.map((item) => certificateOf(contents, item.der, item.keyId)),
        };
      }),

    exportCertificate: (request) =>
      queue.run(async () => {
        const contents = await readPkcs12WithoutPin(await stored());
        const { der } = findCertificate(contents, request.serial);
        const data =
          request.format === 'der'
            ? Buffer.from(der).toString('base64')
            : describeCertificate(new x509.X509Certificate(der)).pem;
        return { data };
      }),

    deleteCertificate: (request) =>
      queue.run(async () => {
        const { contents } = await open(request.pin);
        const certificate = findCertificate(contents, request.serial);
        const certificates = contents.certificates.filter((item) => item !== certificate);
        const keys =
          request.withKey && certificate.keyId !== null
            ? contents.keys.filter((key) => key.keyId !== certificate.keyId)
            : contents.keys;
        await save({ ...contents, keys, certificates }, request.pin);
        return { deleted: true as const };
      }),

    sign: (request) =>
      queue.run(async () => {
        const { contents } = await open(request.pin);
        const certificate = findCertificate(contents, request.serial);
        const key = contents.keys.find((item) => item.keyId === certificate.keyId);
        if (key === undefined) {
          throw new CommandFailure(
            'keyNotFound',
            `The software keystore holds no private key for certificate ${request.serial}`,
          );
        }
        checkSignatureKey(
          request.algorithm,
          keyAlgorithmOf(new x509.X509Certificate(certificate.der)),
          request.serial,
        );
        const pkcs8 = await decryptKey(key, request.pin);
        const privateKey = createPrivateKey({ key: Buffer.from(pkcs8), format: 'der', type: 'pkcs8' });
        pkcs8.fill(0);
        // Both algorithms hash with SHA-256; the encoding option is ECDSA's and RSA ignores it.
        const signature = signData('sha256', Buffer.from(request.data, 'base64'), {
          key: privateKey,
          dsaEncoding: 'ieee-p1363',
        });
        return { signature: signature.toString('base64') };
      }),

    backup: (request) =>
      queue.run(async () => {
        const { bytes } = await open(request.pin);
        return { pkcs12: Buffer.from(bytes).toString('base64') };
      }),

    restore: (request) =>
      queue.run(async () => {
        const bytes = new Uint8Array(Buffer.from(request.pkcs12, 'base64'));
        if ((await readOptionalFile(file)) !== null) {
          // A page may replace the user's keys only with the keystore's PIN: the same PIN must open
          // both the keystore now and the backup.
          await open(request.pin);
        }
        try {
          await openPkcs12(bytes, request.pin);
        } catch (error) {
          if (error instanceof Pkcs12MacMismatch) {
            throw new CommandFailure('pinIncorrect', 'The PIN does not open this backup', {
              retriesLeft: null,
            });
          }
          throw new CommandFailure('invalidRequest', 'The backup is not a PKCS#12 file');
        }
        await writePrivateFile(file, bytes);
        await attempts.reset(SOFTWARE_KEYSTORE_ID);
        return { keystore: await keystore() };
      }),

    close: async () => undefined,
  };
}
