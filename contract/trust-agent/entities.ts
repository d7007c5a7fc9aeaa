import * as v from 'valibot';
import { PIN_MAX_LENGTH, PIN_MIN_LENGTH } from './constants.ts';

/**
 * What the trust agent reports (overview §3, desktop helper entities and keystore vocabulary).
 * Field names are the spec's; the spec leaves the helper's response shapes open, so the rest is
 * ours (docs/agent-protocol.md §5).
 */

/** Keystore types of the vocabulary (overview §3), plus PKCS11 for a token of no known family. */
export const KEYSTORE_TYPES = [
  'safe_net_e_token',
  'yubikey_nfc_5',
  'all',
  'ETOKEN',
  'YUBIKEY',
  'MACOS',
  'WINOS',
  'EPASS',
  'PFX',
  'FF-NSS',
  'CSK',
  'WIN-ENH',
  'SAFESIGN',
  'ATHEIDP',
  'PKCS11',
] as const;
export type KeystoreType = (typeof KEYSTORE_TYPES)[number];

/**
 * The keystore types a trust agent reports: its software keystore, and a PKCS#11 token by its
 * manufacturer's family, or PKCS11 for any other. The platform's reference list of keystore types
 * holds these (migration `20270101T1000-keystore-types-the-agent-reports`); the operating systems'
 * own keystores (Windows, Keychain, Firefox) are not among them, since the agent keeps no key there.
 */
export const AGENT_KEYSTORE_TYPES = [
  'PFX',
  'ETOKEN',
  'YUBIKEY',
  'EPASS',
  'SAFESIGN',
  'ATHEIDP',
  'PKCS11',
] as const satisfies readonly KeystoreType[];
export type AgentKeystoreType = (typeof AGENT_KEYSTORE_TYPES)[number];

/** Keystore categories and the location codes they come from (overview §3). */
export const KEYSTORE_CATEGORIES = { OSKS: 'Platform', SOFTWARE: 'SWToken', HWTK: 'HWToken' } as const;
export const TOKEN_TYPES = ['SWToken', 'HWToken'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];
/** Readable names of the platform keystores (overview §3). */
export const PLATFORM_KEYSTORE_NAMES = {
  WINOS: 'Windows keystore',
  MACOS: 'Keychain Access',
  'FF-NSS': 'Firefox keystore',
} as const;
/** Certificate key usages of the vocabulary (overview §3). */
export const AGENT_KEY_USAGES = [
  'Authentication',
  'DigitalSignature',
  'KeyManagement',
  'CardAuthentication',
] as const;

/**
 * A keystore's state: UNINITIALIZED (a software keystore not created yet, or a token that is not
 * initialized or has no user PIN), INITIALIZED, LOCKED (the PIN tried too often), ABSENT (the slot's
 * token was removed).
 */
export const KEYSTORE_STATUSES = ['UNINITIALIZED', 'INITIALIZED', 'LOCKED', 'ABSENT'] as const;
export type KeystoreStatus = (typeof KEYSTORE_STATUSES)[number];

export const keystoreSchema = v.object({
  id: v.string(),
  name: v.string(),
  type: v.picklist(KEYSTORE_TYPES),
  status: v.picklist(KEYSTORE_STATUSES),
  /** The PKCS#11 slot id, null for the software keystore. */
  slot: v.nullable(v.number()),
  /** The configured name of the PKCS#11 module, null for the software keystore. */
  library: v.nullable(v.string()),
});
export type Keystore = v.InferOutput<typeof keystoreSchema>;

/** The curves a keystore may make EC keys on, by their WebCrypto names. */
export const AGENT_EC_CURVES = ['P-256', 'P-384'] as const;
export type AgentEcCurve = (typeof AGENT_EC_CURVES)[number];

/**
 * What a keystore makes: RSA keys in a range of sizes (bits; a PKCS#11 token's
 * CKM_RSA_PKCS_KEY_PAIR_GEN range), or EC keys on the curves listed. Curves are named, not ranged:
 * a keystore that makes P-256 and P-384 keys makes no curve "between" them.
 */
export const mechanismSchema = v.variant('algorithm', [
  v.object({ algorithm: v.literal('RSA'), minKeySize: v.number(), maxKeySize: v.number() }),
  v.object({ algorithm: v.literal('EC'), curves: v.array(v.picklist(AGENT_EC_CURVES)) }),
]);
export type Mechanism = v.InferOutput<typeof mechanismSchema>;

/**
 * The key `generate` asks for: RSA of a size in bits, or EC on a named curve. Sizes and curves the
 * schema allows are those a request may name at all; each keystore's mechanisms say what it makes.
 */
export const rsaKeySchema = v.object({
  algorithm: v.literal('RSA'),
  keySize: v.pipe(v.number(), v.integer(), v.minValue(512), v.maxValue(16384)),
});
export const ecKeySchema = v.object({ algorithm: v.literal('EC'), curve: v.picklist(AGENT_EC_CURVES) });
export type KeyParameters = v.InferOutput<typeof rsaKeySchema> | v.InferOutput<typeof ecKeySchema>;

/** The signature algorithms of `sign`, each with the key algorithm it signs with. */
export const SIGNATURE_KEY_ALGORITHMS = {
  'RSASSA-PKCS1-v1_5-SHA-256': 'RSA',
  /** The signature is IEEE P1363 (r ‖ s, each the curve's size), as WebCrypto and PKCS#11 write it. */
  'ECDSA-SHA-256': 'EC',
} as const satisfies Record<string, Mechanism['algorithm']>;
export type SignatureAlgorithm = keyof typeof SIGNATURE_KEY_ALGORITHMS;

/** The PIN's state as the token reports it; `retriesLeft` is null where the token does not count. */
export const pinStateSchema = v.object({
  initialized: v.boolean(),
  locked: v.boolean(),
  retriesLeft: v.nullable(v.number()),
  finalTry: v.boolean(),
});
export type PinState = v.InferOutput<typeof pinStateSchema>;

export const tokenSchema = v.object({
  keystoreId: v.string(),
  /**
   * Whether the token was initialized: PKCS#11's CKF_TOKEN_INITIALIZED, and for the software keystore
   * whether it was created. A token that is not (a fresh smart card, SoftHSM2's free slot) has no label,
   * serial, PIN or objects; the agent answers every command on it with `tokenUninitialized` until its
   * maker's tool initializes it.
   */
  initialized: v.boolean(),
  label: v.string(),
  type: v.picklist(TOKEN_TYPES),
  manufacturer: v.string(),
  model: v.string(),
  serial: v.string(),
  mechanisms: v.array(mechanismSchema),
  pin: pinStateSchema,
});
export type Token = v.InferOutput<typeof tokenSchema>;

export const agentCertificateSchema = v.object({
  keystoreId: v.string(),
  /** Hexadecimal, lower case, without separators. */
  serial: v.string(),
  subject: v.string(),
  issuer: v.string(),
  validity: v.object({ notBefore: v.string(), notAfter: v.string() }),
  pem: v.string(),
  /** Whether the keystore holds the certificate's private key. */
  hasPrivateKey: v.boolean(),
});
export type AgentCertificate = v.InferOutput<typeof agentCertificateSchema>;

export const OPERATING_SYSTEMS = ['linux', 'mac', 'windows'] as const;
export type OperatingSystem = (typeof OPERATING_SYSTEMS)[number];

export const agentInfoSchema = v.object({
  product: v.string(),
  version: v.string(),
  protocol: v.string(),
  os: v.picklist(OPERATING_SYSTEMS),
  arch: v.string(),
  /** False when the user switched web access off in the agent's configuration. */
  enabled: v.boolean(),
});
export type AgentInfo = v.InferOutput<typeof agentInfoSchema>;

export const pinSchema = v.pipe(v.string(), v.minLength(PIN_MIN_LENGTH), v.maxLength(PIN_MAX_LENGTH));
