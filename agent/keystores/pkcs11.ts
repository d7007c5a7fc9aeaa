import { createPublicKey, randomBytes } from 'node:crypto';
import * as graphene from 'graphene-pk11';
import {
  type AgentKeystoreType,
  type Keystore,
  type Mechanism,
  SIGNATURE_KEY_ALGORITHMS,
  type Token,
} from '../../contract/trust-agent/entities.ts';
import type { Pkcs11Module } from '../config.ts';
import { CommandFailure } from '../failure.ts';
import type { KeystoreBackend } from './backend.ts';
import { checkKeyRequest } from './mechanisms.ts';
import { locked, type PinAttempts, WrongPin } from './pin-attempts.ts';
import { SerialQueue } from './queue.ts';
import {
  createCsr,
  describeCertificate,
  parseCertificatePem,
  pkijs,
  RSA_SHA256,
  serialHex,
  type WebCrypto,
  type WebCryptoKeyPair,
  x509,
} from './x509.ts';

/** PKCS#11 return values the agent answers in its own words (PKCS#11 v2.40 §3.6). */
const CKR = {
  SLOT_ID_INVALID: 0x03,
  DEVICE_REMOVED: 0x32,
  PIN_INCORRECT: 0xa0,
  PIN_INVALID: 0xa1,
  PIN_LEN_RANGE: 0xa2,
  PIN_EXPIRED: 0xa3,
  PIN_LOCKED: 0xa4,
  SESSION_HANDLE_INVALID: 0xb3,
  TOKEN_NOT_PRESENT: 0xe0,
  TOKEN_NOT_RECOGNIZED: 0xe1,
  USER_ALREADY_LOGGED_IN: 0x100,
  USER_PIN_NOT_INITIALIZED: 0x102,
} as const;

const TOKEN_GONE: ReadonlySet<number> = new Set([
  CKR.SLOT_ID_INVALID,
  CKR.DEVICE_REMOVED,
  CKR.SESSION_HANDLE_INVALID,
  CKR.TOKEN_NOT_PRESENT,
  CKR.TOKEN_NOT_RECOGNIZED,
]);

function pkcs11Code(error: unknown): number | null {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'number' && /^CKR_/.test(error.message) ? code : null;
}

/** Token families by the manufacturer their tokens name (CK_TOKEN_INFO.manufacturerID). */
const TOKEN_FAMILIES: readonly { manufacturer: RegExp; type: AgentKeystoreType }[] = [
  { manufacturer: /yubico/i, type: 'YUBIKEY' },
  { manufacturer: /safenet|gemalto|thales/i, type: 'ETOKEN' },
  { manufacturer: /feitian|ftsafe/i, type: 'EPASS' },
  { manufacturer: /a\.e\.t\.|safesign/i, type: 'SAFESIGN' },
  { manufacturer: /athena/i, type: 'ATHEIDP' },
];

/** The keystore type of the vocabulary a token's manufacturer stands for; PKCS11 for any other. */
export function keystoreTypeOf(manufacturer: string): AgentKeystoreType {
  return TOKEN_FAMILIES.find((family) => family.manufacturer.test(manufacturer))?.type ?? 'PKCS11';
}

function slotNumber(slot: graphene.Slot): number {
  const handle = slot.handle;
  return handle.length >= 8 ? Number(handle.readBigUInt64LE(0)) : handle.readUInt32LE(0);
}

function has(flags: number, flag: graphene.TokenFlag): boolean {
  return (flags & flag) !== 0;
}

/**
 * The RSA key sizes the token generates, from its CKM_RSA_PKCS_KEY_PAIR_GEN mechanism info. The
 * agent makes and signs with RSA keys only on a token (hardware tokens enroll with RSA 2048, overview
 * §5), so a token's EC mechanisms are not reported: an EC request is `invalidKeyType`.
 */
function mechanismsOf(slot: graphene.Slot): Extract<Mechanism, { algorithm: 'RSA' }>[] {
  const mechanisms = slot.getMechanisms();
  for (let index = 0; index < mechanisms.length; index++) {
    const mechanism = mechanisms.items(index);
    if (mechanism.type === graphene.MechanismEnum.RSA_PKCS_KEY_PAIR_GEN) {
      return [{ algorithm: 'RSA', minKeySize: mechanism.minKeySize, maxKeySize: mechanism.maxKeySize }];
    }
  }
  return [];
}

function objects(session: graphene.Session, template: graphene.ITemplate): graphene.SessionObject[] {
  const found = session.find(template);
  return Array.from({ length: found.length }, (_, index) => found.items(index));
}

function unsigned(value: Buffer): string {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  return value.subarray(start).toString('hex');
}

interface PresentToken {
  id: string;
  slot: graphene.Slot;
  token: graphene.Token;
}

export interface Pkcs11Backend extends KeystoreBackend {
  readonly name: string;
  readonly available: boolean;
}

/**
 * The tokens of one configured PKCS#11 module, one keystore per slot with a token present, id
 * `pkcs11:<module name>:<token serial>`. Every operation opens a session of its own and runs alone
 * (one queue per module): a module keeps one login state per application, and a signature started on
 * a session must finish before another starts on it.
 */
export function pkcs11Backend(
  module: Pkcs11Module,
  attempts: PinAttempts,
  log: (line: string) => void,
): Pkcs11Backend {
  const prefix = `pkcs11:${module.name}:`;
  const queue = new SerialQueue();
  /** Keystores seen since the agent started: one of them gone is "not available", not "not found". */
  const seen = new Map<string, Keystore>();
  let library: graphene.Module | null = null;
  try {
    library = graphene.Module.load(module.path, module.name);
    library.initialize();
  } catch (error) {
    library = null;
    log(`The PKCS#11 module "${module.name}" (${module.path}) did not load: ${(error as Error).message}`);
  }
  type P11 = typeof import('node-webcrypto-p11');
  let webcryptoP11: Promise<P11> | null = null;
  /** node-webcrypto-p11 (for the CSR, signed on the token), loaded when a key is first generated. */
  const loadWebcryptoP11 = (): Promise<P11> => {
    webcryptoP11 ??= import('node-webcrypto-p11');
    return webcryptoP11;
  };

  function present(): PresentToken[] {
    if (library === null) return [];
    const slots = library.getSlots(true);
    return Array.from({ length: slots.length }, (_, index) => {
      const slot = slots.items(index);
      const token = slot.getToken();
      const serial = token.serialNumber.trim() || `slot-${slotNumber(slot)}`;
      return { id: `${prefix}${serial}`, slot, token };
    });
  }

  async function keystoreOf({ id, slot, token }: PresentToken): Promise<Keystore> {
    const flags = token.flags;
    const lockedByAgent = (await attempts.remaining(id)) === 0;
    // Keys need both: an initialized token, and a user PIN its security officer set.
    const setUp =
      has(flags, graphene.TokenFlag.TOKEN_INITIALIZED) && has(flags, graphene.TokenFlag.USER_PIN_INITIALIZED);
    const status: Keystore['status'] = !setUp
      ? 'UNINITIALIZED'
      : has(flags, graphene.TokenFlag.USER_PIN_LOCKED) || lockedByAgent
        ? 'LOCKED'
        : 'INITIALIZED';
    return {
      id,
      name: token.label.trim(),
      type: keystoreTypeOf(token.manufacturerID),
      status,
      slot: slotNumber(slot),
      library: module.name,
    };
  }

  async function tokenOf(entry: PresentToken): Promise<Token> {
    const { id, slot, token } = entry;
    const flags = token.flags;
    const agentFailures = await attempts.failures(id);
    const agentLeft = await attempts.remaining(id);
    const finalTry =
      has(flags, graphene.TokenFlag.USER_PIN_FINAL_TRY) || (agentFailures > 0 && agentLeft === 1);
    const pinLocked = has(flags, graphene.TokenFlag.USER_PIN_LOCKED) || agentLeft === 0;
    // PKCS#11 tells no count, only "final try" and "locked"; the agent's own count where it has one.
    const retriesLeft = pinLocked
      ? 0
      : has(flags, graphene.TokenFlag.USER_PIN_FINAL_TRY)
        ? 1
        : agentFailures > 0
          ? agentLeft
          : null;
    return {
      keystoreId: id,
      initialized: has(flags, graphene.TokenFlag.TOKEN_INITIALIZED),
      label: token.label.trim(),
      type: 'HWToken',
      manufacturer: token.manufacturerID.trim(),
      model: token.model.trim(),
      serial: token.serialNumber.trim(),
      mechanisms: mechanismsOf(slot),
      pin: {
        initialized: has(flags, graphene.TokenFlag.USER_PIN_INITIALIZED),
        locked: pinLocked,
        retriesLeft,
        finalTry,
      },
    };
  }

  function resolve(keystoreId: string): PresentToken {
    const found = present().find((entry) => entry.id === keystoreId);
    if (found !== undefined) return found;
    if (seen.has(keystoreId)) {
      throw new CommandFailure('keystoreNotAvailable', 'The token of this keystore was removed');
    }
    throw new CommandFailure('keystoreNotFound', `No keystore "${keystoreId}" is known`);
  }

  /** Runs `work` on a fresh read-write session of the keystore's token, alone on this module. */
  function withSession<T>(
    keystoreId: string,
    work: (session: graphene.Session, entry: PresentToken) => Promise<T> | T,
  ) {
    return queue.run(async () => {
      const entry = resolve(keystoreId);
      // Refused in its own words before a session is tried: an uninitialized token opens none, and
      // SoftHSM2's CKR_TOKEN_NOT_RECOGNIZED would read as a removed token.
      if (!has(entry.token.flags, graphene.TokenFlag.TOKEN_INITIALIZED)) throw tokenUninitialized();
      let session: graphene.Session;
      try {
        session = entry.slot.open(graphene.SessionFlag.SERIAL_SESSION | graphene.SessionFlag.RW_SESSION);
      } catch (error) {
        throw translate(error);
      }
      try {
        return await work(session, entry);
      } catch (error) {
        throw translate(error);
      } finally {
        try {
          session.logout();
        } catch {
          // Not logged in: nothing to undo.
        }
        session.close();
      }
    });
  }

  function translate(error: unknown): unknown {
    const code = pkcs11Code(error);
    if (code === null) return error;
    if (TOKEN_GONE.has(code))
      return new CommandFailure('keystoreNotAvailable', 'The token of this keystore was removed');
    return new CommandFailure('tokenError', `The token refused the operation (${(error as Error).message})`);
  }

  /** Logs in with the user's (or the security officer's) PIN, through the agent's attempt limit. */
  async function login(
    session: graphene.Session,
    entry: PresentToken,
    pin: string,
    userType = graphene.UserType.USER,
  ) {
    const key = userType === graphene.UserType.SO ? `${entry.id}#so` : entry.id;
    const flags = entry.token.flags;
    if (userType === graphene.UserType.USER) {
      if (!has(flags, graphene.TokenFlag.USER_PIN_INITIALIZED)) throw pinNotInitialized();
      if (has(flags, graphene.TokenFlag.USER_PIN_LOCKED)) throw locked();
    } else if (has(flags, graphene.TokenFlag.SO_PIN_LOCKED)) {
      throw locked();
    }
    await attempts.check(key, async () => {
      try {
        session.login(pin, userType);
      } catch (error) {
        const code = pkcs11Code(error);
        if (code === CKR.USER_ALREADY_LOGGED_IN) return;
        if (code === CKR.PIN_INCORRECT) {
          const after = entry.slot.getToken().flags;
          const finalTry =
            graphene.TokenFlag[userType === graphene.UserType.SO ? 'SO_PIN_FINAL_TRY' : 'USER_PIN_FINAL_TRY'];
          const lockedFlag =
            graphene.TokenFlag[userType === graphene.UserType.SO ? 'SO_PIN_LOCKED' : 'USER_PIN_LOCKED'];
          throw new WrongPin(has(after, lockedFlag) ? 0 : has(after, finalTry) ? 1 : null);
        }
        if (code === CKR.PIN_LOCKED) throw locked();
        if (code === CKR.USER_PIN_NOT_INITIALIZED) throw pinNotInitialized();
        if (code === CKR.PIN_INVALID || code === CKR.PIN_LEN_RANGE) throw pinInvalid(entry.token);
        if (code === CKR.PIN_EXPIRED)
          throw new CommandFailure('pinInvalid', 'The PIN has expired; change it first');
        throw error;
      }
    });
  }

  function certificatesOn(session: graphene.Session) {
    return objects(session, {
      class: graphene.ObjectClass.CERTIFICATE,
      certType: graphene.CertificateType.X_509,
    }).map((object) => {
      const der = object.getAttribute({ value: null, id: null }) as { value: Buffer; id: Buffer | null };
      return {
        object,
        certificate: new x509.X509Certificate(new Uint8Array(der.value)),
        id: der.id ?? Buffer.alloc(0),
      };
    });
  }

  function certificateBySerial(session: graphene.Session, serial: string) {
    const found = certificatesOn(session).find((item) => serialHex(item.certificate) === serial);
    if (found === undefined) {
      throw new CommandFailure('certificateNotFound', `The token holds no certificate with serial ${serial}`);
    }
    return found;
  }

  function keysWithId(session: graphene.Session, objectClass: graphene.ObjectClass, id: Buffer) {
    return id.length === 0 ? [] : objects(session, { class: objectClass, id });
  }

  return {
    name: module.name,
    get available() {
      return library !== null;
    },
    owns: (keystoreId) => keystoreId.startsWith(prefix),

    list: () =>
      queue.run(async () => {
        const keystores = await Promise.all(present().map(keystoreOf));
        for (const keystore of keystores) seen.set(keystore.id, keystore);
        const gone = [...seen.values()]
          .filter((keystore) => !keystores.some((item) => item.id === keystore.id))
          .map((keystore) => ({ ...keystore, status: 'ABSENT' as const }));
        return [...keystores, ...gone];
      }),

    tokens: () => queue.run(() => Promise.all(present().map(tokenOf))),

    refresh: () =>
      queue.run(() => {
        // Modules list the readers they found at C_Initialize: start them again to see new ones.
        if (library === null) return;
        library.finalize();
        library.initialize();
      }),

    verifyPin: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        await login(session, entry, request.pin);
        return { verified: true as const };
      }),

    changePin: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        await login(session, entry, request.pin);
        try {
          session.setPin(request.pin, request.newPin);
        } catch (error) {
          const code = pkcs11Code(error);
          if (code === CKR.PIN_INVALID || code === CKR.PIN_LEN_RANGE) throw pinInvalid(entry.token);
          throw error;
        }
        return { changed: true as const };
      }),

    resetPin: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        await login(session, entry, request.soPin, graphene.UserType.SO);
        try {
          session.initPin(request.newPin);
        } catch (error) {
          const code = pkcs11Code(error);
          if (code === CKR.PIN_INVALID || code === CKR.PIN_LEN_RANGE) throw pinInvalid(entry.token);
          throw error;
        }
        // The security officer set a new PIN: the agent's count of wrong ones starts again.
        await attempts.reset(entry.id);
        return { reset: true as const };
      }),

    initToken: async () => {
      throw new CommandFailure(
        'unsupportedCommand',
        "Initializing a token erases everything on it; do it with the token's own tools, not from a web page",
      );
    },

    generate: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        // Checked before the PIN and before anything is made: a refused size costs no attempt.
        checkKeyRequest(mechanismsOf(entry.slot), request);
        await login(session, entry, request.pin);
        const id = randomBytes(20);
        const label = request.subject.commonName.slice(0, 32);
        const pair = session.generateKeyPair(
          graphene.KeyGenMechanism.RSA,
          {
            keyType: graphene.KeyType.RSA,
            token: true,
            private: false,
            id,
            label,
            verify: true,
            encrypt: false,
            wrap: false,
            modulusBits: request.keySize,
            publicExponent: Buffer.from([1, 0, 1]),
          },
          {
            keyType: graphene.KeyType.RSA,
            token: true,
            private: true,
            // The private key never leaves the token, in clear or wrapped.
            sensitive: true,
            extractable: false,
            id,
            label,
            sign: true,
            decrypt: false,
            unwrap: false,
            derive: false,
          },
        );
        try {
          const p11 = await loadWebcryptoP11();
          const crypto = new p11.Crypto({ session } as ConstructorParameters<P11['Crypto']>[0]);
          const privateKey = await crypto.keyStorage.getItem(
            p11.CryptoKey.getID(pair.privateKey),
            RSA_SHA256,
            false,
            ['sign'],
          );
          const publicKey = await crypto.keyStorage.getItem(
            p11.CryptoKey.getID(pair.publicKey),
            RSA_SHA256,
            true,
            ['verify'],
          );
          const csr = await createCsr(
            request.subject.commonName,
            { privateKey, publicKey } as unknown as WebCryptoKeyPair,
            RSA_SHA256,
            crypto as unknown as WebCrypto,
          );
          return { keyId: id.toString('hex'), csr };
        } catch (error) {
          // No key pair without its request on the token.
          pair.privateKey.destroy();
          pair.publicKey.destroy();
          throw error;
        }
      }),

    importCertificate: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        const certificate = parseCertificatePem(request.certificate);
        if (certificate === null)
          throw new CommandFailure('certificateInvalid', 'The text is not one X.509 certificate');
        await login(session, entry, request.pin);
        const jwk = createPublicKey({
          key: Buffer.from(certificate.publicKey.rawData),
          format: 'der',
          type: 'spki',
        }).export({
          format: 'jwk',
        });
        const modulus = jwk.n === undefined ? null : unsigned(Buffer.from(jwk.n, 'base64url'));
        const key = objects(session, {
          class: graphene.ObjectClass.PRIVATE_KEY,
          keyType: graphene.KeyType.RSA,
        }).find(
          (candidate) =>
            modulus !== null &&
            unsigned(candidate.getAttribute({ modulus: null }).modulus as Buffer) === modulus,
        );
        if (key === undefined) {
          throw new CommandFailure(
            'certificateKeyMismatch',
            "The certificate's public key belongs to no private key on the token",
          );
        }
        const { id, label } = key.getAttribute({ id: null, label: null }) as { id: Buffer; label: string };
        const serial = serialHex(certificate);
        for (const existing of certificatesOn(session)) {
          if (serialHex(existing.certificate) === serial) existing.object.destroy();
        }
        const parsed = pkijs.Certificate.fromBER(new Uint8Array(certificate.rawData));
        session.create({
          class: graphene.ObjectClass.CERTIFICATE,
          certType: graphene.CertificateType.X_509,
          token: true,
          private: false,
          id,
          label,
          subject: Buffer.from(parsed.subject.toSchema().toBER(false)),
          issuer: Buffer.from(parsed.issuer.toSchema().toBER(false)),
          serial: Buffer.from(parsed.serialNumber.toBER(false)),
          value: Buffer.from(certificate.rawData),
        });
        return {
          certificate: { keystoreId: entry.id, ...describeCertificate(certificate), hasPrivateKey: true },
        };
      }),

    certificates: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        // Private keys are private objects: seen only after a login; without the PIN, the public key
        // the agent stores beside each private key stands for it.
        if (request.pin !== undefined) await login(session, entry, request.pin);
        const keyClass =
          request.pin === undefined ? graphene.ObjectClass.PUBLIC_KEY : graphene.ObjectClass.PRIVATE_KEY;
        return {
          certificates: certificatesOn(session).map((item) => ({
            keystoreId: entry.id,
            ...describeCertificate(item.certificate),
            hasPrivateKey: keysWithId(session, keyClass, item.id).length > 0,
          })),
        };
      }),

    exportCertificate: (request) =>
      withSession(request.keystoreId, (session) => {
        const { certificate } = certificateBySerial(session, request.serial);
        const data =
          request.format === 'der'
            ? Buffer.from(certificate.rawData).toString('base64')
            : describeCertificate(certificate).pem;
        return { data };
      }),

    deleteCertificate: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        await login(session, entry, request.pin);
        const found = certificateBySerial(session, request.serial);
        found.object.destroy();
        if (request.withKey) {
          for (const objectClass of [graphene.ObjectClass.PRIVATE_KEY, graphene.ObjectClass.PUBLIC_KEY]) {
            for (const key of keysWithId(session, objectClass, found.id)) key.destroy();
          }
        }
        return { deleted: true as const };
      }),

    sign: (request) =>
      withSession(request.keystoreId, async (session, entry) => {
        // The agent makes and uses RSA keys only on a token (mechanismsOf): refused before the PIN.
        if (SIGNATURE_KEY_ALGORITHMS[request.algorithm] !== 'RSA') {
          throw new CommandFailure(
            'invalidKeyType',
            `The agent signs with RSA keys only on a hardware token, not ${request.algorithm}`,
          );
        }
        await login(session, entry, request.pin);
        const found = certificateBySerial(session, request.serial);
        const [key] = keysWithId(session, graphene.ObjectClass.PRIVATE_KEY, found.id);
        if (key === undefined) {
          throw new CommandFailure(
            'keyNotFound',
            `The token holds no private key for certificate ${request.serial}`,
          );
        }
        const signature = session
          .createSign('SHA256_RSA_PKCS', key.toType<graphene.PrivateKey>())
          .once(Buffer.from(request.data, 'base64'));
        return { signature: signature.toString('base64') };
      }),

    backup: async () => {
      throw new CommandFailure('unsupportedCommand', 'Keys never leave a hardware token: it has no backup');
    },
    restore: async () => {
      throw new CommandFailure(
        'unsupportedCommand',
        'Keys never leave a hardware token: it has no backup to restore',
      );
    },

    close: () =>
      queue.run(() => {
        library?.finalize();
        library = null;
      }),
  };
}

function tokenUninitialized(): CommandFailure {
  return new CommandFailure(
    'tokenUninitialized',
    "The token is not initialized; initialize it with its maker's tool, which erases it, then use it",
  );
}

function pinNotInitialized(): CommandFailure {
  return new CommandFailure('pinNotInitialized', "The token's user PIN is not initialized yet");
}

function pinInvalid(token: graphene.Token): CommandFailure {
  return new CommandFailure(
    'pinInvalid',
    `The PIN does not meet the token's rules (${token.minPinLen} to ${token.maxPinLen} characters)`,
  );
}
