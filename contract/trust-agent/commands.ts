import * as v from 'valibot';
import {
  agentCertificateSchema,
  agentInfoSchema,
  ecKeySchema,
  keystoreSchema,
  mechanismSchema,
  pinSchema,
  rsaKeySchema,
  SIGNATURE_KEY_ALGORITHMS,
  type SignatureAlgorithm,
  tokenSchema,
} from './entities.ts';
import type { CommandErrorCode } from './errors.ts';

/**
 * The commands of the trust agent (overview §7) with their request and answer bodies, which travel
 * encrypted inside a session (docs/agent-protocol.md §5). Every command of the spec is here; the
 * agent answers those a software keystore or a PKCS#11 token cannot honour with
 * `unsupportedCommand`, and the reason.
 */

export const keystoreIdSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(200));
export const base64Schema = v.pipe(v.string(), v.maxLength(1_000_000), v.base64());
const pemSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(64_000));
const serialSchema = v.pipe(v.string(), v.regex(/^[0-9a-f]{1,64}$/));
const labelSchema = v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(32));

const empty = v.strictObject({});

/** Where `generate` makes the key and the CSR's subject; the key's own fields follow its algorithm. */
const generateEntries = {
  keystoreId: keystoreIdSchema,
  pin: pinSchema,
  subject: v.strictObject({ commonName: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) }),
};
const SIGNATURE_ALGORITHMS = Object.keys(SIGNATURE_KEY_ALGORITHMS) as SignatureAlgorithm[];

export const commandSchemas = {
  initialize: {
    request: empty,
    response: v.object({ agent: agentInfoSchema, keystores: v.array(keystoreSchema) }),
  },
  service: {
    request: empty,
    response: v.object({ agent: agentInfoSchema, uptimeSeconds: v.number() }),
  },
  config: {
    request: empty,
    response: v.object({
      allowedOrigins: v.array(v.string()),
      modules: v.array(v.object({ name: v.string(), available: v.boolean() })),
      softwareKeystore: v.boolean(),
      pinAttemptLimit: v.number(),
    }),
  },
  keystore: {
    request: empty,
    response: v.object({ keystores: v.array(keystoreSchema) }),
  },
  token: {
    request: v.strictObject({ keystoreId: v.optional(keystoreIdSchema) }),
    response: v.object({ tokens: v.array(tokenSchema) }),
  },
  refresh: {
    request: empty,
    response: v.object({ keystores: v.array(keystoreSchema), tokens: v.array(tokenSchema) }),
  },
  verifypin: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, pin: pinSchema }),
    response: v.object({ verified: v.literal(true) }),
  },
  changepin: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, pin: pinSchema, newPin: pinSchema }),
    response: v.object({ changed: v.literal(true) }),
  },
  resetpin: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, soPin: pinSchema, newPin: pinSchema }),
    response: v.object({ reset: v.literal(true) }),
  },
  initToken: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, label: labelSchema, pin: pinSchema }),
    response: v.object({ keystore: keystoreSchema }),
  },
  generate: {
    request: v.variant('algorithm', [
      v.strictObject({ ...generateEntries, ...rsaKeySchema.entries }),
      v.strictObject({ ...generateEntries, ...ecKeySchema.entries }),
    ]),
    response: v.object({ keyId: v.string(), csr: v.string() }),
  },
  importCert: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, pin: pinSchema, certificate: pemSchema }),
    response: v.object({ certificate: agentCertificateSchema }),
  },
  certificate: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, pin: v.optional(pinSchema) }),
    response: v.object({ certificates: v.array(agentCertificateSchema) }),
  },
  exportCert: {
    request: v.strictObject({
      keystoreId: keystoreIdSchema,
      serial: serialSchema,
      pin: v.optional(pinSchema),
      format: v.picklist(['pem', 'der']),
    }),
    response: v.object({ data: v.string() }),
  },
  deleteCert: {
    request: v.strictObject({
      keystoreId: keystoreIdSchema,
      pin: pinSchema,
      serial: serialSchema,
      /** Also delete the private key that belongs to the certificate. */
      withKey: v.boolean(),
    }),
    response: v.object({ deleted: v.literal(true) }),
  },
  sign: {
    request: v.strictObject({
      keystoreId: keystoreIdSchema,
      pin: pinSchema,
      serial: serialSchema,
      algorithm: v.picklist(SIGNATURE_ALGORITHMS),
      data: base64Schema,
    }),
    response: v.object({ signature: v.string() }),
  },
  backupToken: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, pin: pinSchema }),
    response: v.object({ pkcs12: v.string() }),
  },
  restoreToken: {
    request: v.strictObject({ keystoreId: keystoreIdSchema, pin: pinSchema, pkcs12: base64Schema }),
    response: v.object({ keystore: keystoreSchema }),
  },
  registerProvider: {
    request: v.strictObject({ library: v.string() }),
    response: v.object({ keystores: v.array(keystoreSchema) }),
  },
  parseFile: {
    request: v.strictObject({ data: base64Schema }),
    response: v.object({
      certificates: v.array(v.omit(agentCertificateSchema, ['keystoreId', 'hasPrivateKey'])),
    }),
  },
} as const;

/**
 * The commands one service of the agent program answers: the trust agent's (`commandSchemas`) or
 * the desktop client's (`desktopClientCommandSchemas`). Both travel in the same sessions.
 */
export type CommandTable = Readonly<
  Record<string, { readonly request: v.GenericSchema; readonly response: v.GenericSchema }>
>;
export type TableRequest<T extends CommandTable, C extends keyof T> = v.InferOutput<T[C]['request']>;
export type TableResponse<T extends CommandTable, C extends keyof T> = v.InferOutput<T[C]['response']>;

export type AgentCommand = keyof typeof commandSchemas;
export const AGENT_COMMANDS = Object.keys(commandSchemas) as AgentCommand[];
export type CommandRequest<C extends AgentCommand> = TableRequest<typeof commandSchemas, C>;
export type CommandResponse<C extends AgentCommand> = TableResponse<typeof commandSchemas, C>;

/** A command's error, inside the encrypted answer. */
export const commandErrorSchema = v.object({
  code: v.string(),
  message: v.string(),
  /** pinIncorrect: what the token or the agent still allows. */
  retriesLeft: v.optional(v.nullable(v.number())),
  /** keySizeBelowMinimum, keySizeAboveMaximum: the token's range; invalidKeyType: the curves it makes. */
  mechanism: v.optional(mechanismSchema),
  /** noCertificateWithSerialNumber: the certificate's serial and the keystore's name. */
  serial: v.optional(v.string()),
  keystoreName: v.optional(v.string()),
});
export interface CommandError {
  code: CommandErrorCode;
  message: string;
  retriesLeft?: number | null;
  mechanism?: v.InferOutput<typeof mechanismSchema>;
  serial?: string;
  keystoreName?: string;
}

/** The plaintext of an answer: the command's response or its error. */
export type TableOutcome<T extends CommandTable, C extends keyof T> =
  | { ok: true; result: TableResponse<T, C> }
  | { ok: false; error: CommandError };
export type CommandOutcome<C extends AgentCommand> = TableOutcome<typeof commandSchemas, C>;
