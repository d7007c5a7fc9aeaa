import * as v from 'valibot';
import {
  type AgentCommand,
  type CommandOutcome,
  type CommandTable,
  commandSchemas,
  type TableOutcome,
  type TableRequest,
  type TableResponse,
} from '../contract/trust-agent/commands.ts';
import { PIN_ATTEMPT_LIMIT } from '../contract/trust-agent/constants.ts';
import type { AgentInfo } from '../contract/trust-agent/entities.ts';
import type { AgentConfig } from './config.ts';
import { CommandFailure } from './failure.ts';
import type { Keystores } from './keystores/index.ts';
import { describeCertificate, parseCertificates } from './keystores/x509.ts';

export interface CommandContext {
  config: AgentConfig;
  info: AgentInfo;
  startedAt: number;
  keystores: Keystores;
}

/** One service's command handlers: one per command of its table. */
export type Handlers<T extends CommandTable, X> = {
  [C in keyof T]: (context: X, request: TableRequest<T, C>) => Promise<TableResponse<T, C>>;
};

const handlers: Handlers<typeof commandSchemas, CommandContext> = {
  initialize: async (context) => ({ agent: context.info, keystores: await context.keystores.list() }),
  service: async (context) => ({
    agent: context.info,
    uptimeSeconds: Math.floor((Date.now() - context.startedAt) / 1000),
  }),
  config: async (context) => ({
    allowedOrigins: context.config.allowedOrigins,
    modules: context.keystores.modules(),
    softwareKeystore: context.config.softwareKeystore,
    pinAttemptLimit: PIN_ATTEMPT_LIMIT,
  }),
  keystore: async (context) => ({ keystores: await context.keystores.list() }),
  token: async (context, request) => ({ tokens: await context.keystores.tokens(request.keystoreId) }),
  refresh: async (context) => {
    await context.keystores.refresh();
    return { keystores: await context.keystores.list(), tokens: await context.keystores.tokens() };
  },
  verifypin: (context, request) => context.keystores.verifyPin(request),
  changepin: (context, request) => context.keystores.changePin(request),
  resetpin: (context, request) => context.keystores.resetPin(request),
  initToken: (context, request) => context.keystores.initToken(request),
  generate: (context, request) => context.keystores.generate(request),
  importCert: (context, request) => context.keystores.importCertificate(request),
  certificate: (context, request) => context.keystores.certificates(request),
  exportCert: (context, request) => context.keystores.exportCertificate(request),
  deleteCert: (context, request) => context.keystores.deleteCertificate(request),
  sign: (context, request) => context.keystores.sign(request),
  backupToken: (context, request) => context.keystores.backup(request),
  restoreToken: (context, request) => context.keystores.restore(request),
  registerProvider: async () => {
    // Loading a module runs its code in the agent: only the desktop user's configuration names one.
    throw new CommandFailure(
      'unsupportedCommand',
      'PKCS#11 modules are registered in the agent configuration (TRUST_AGENT_PKCS11_MODULES), not from a web page',
    );
  },
  parseFile: async (_context, request) => {
    let certificates: ReturnType<typeof parseCertificates>;
    try {
      certificates = parseCertificates(Buffer.from(request.data, 'base64'));
    } catch {
      certificates = [];
    }
    if (certificates.length === 0) {
      throw new CommandFailure(
        'certificateInvalid',
        'The file holds no X.509 certificate (PEM, DER or PKCS#7)',
      );
    }
    return { certificates: certificates.map(describeCertificate) };
  },
};

/**
 * Runs one decrypted command of a service's table. Whatever goes wrong (an unknown command, a
 * request that does not match its schema, a keystore refusal, a module crash) becomes an error
 * answer: a page cannot bring the agent down with a command.
 */
export async function runTableCommand<T extends CommandTable, X>(
  table: T,
  tableHandlers: Handlers<T, X>,
  context: X,
  command: string,
  request: unknown,
): Promise<TableOutcome<T, keyof T>> {
  // Own entries only: "toString" is no command.
  const schemas = Object.hasOwn(table, command) ? table[command] : undefined;
  if (schemas === undefined) {
    return { ok: false, error: { code: 'unsupportedCommand', message: `Unknown command "${command}"` } };
  }
  const parsed = v.safeParse(schemas.request, request);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    return {
      ok: false,
      error: { code: 'invalidRequest', message: field ? `${field}: ${issue.message}` : issue.message },
    };
  }
  try {
    const handler = tableHandlers[command as keyof T];
    return { ok: true, result: await handler(context, parsed.output as never) };
  } catch (error) {
    if (error instanceof CommandFailure) return { ok: false, error: error.toError() };
    console.error(`The ${command} command failed:`, error instanceof Error ? error.message : error);
    return {
      ok: false,
      error: { code: 'tokenError', message: `The ${command} command failed in the keystore` },
    };
  }
}

/** Runs one decrypted command of the trust agent. */
export function runCommand(
  context: CommandContext,
  command: string,
  request: unknown,
): Promise<CommandOutcome<AgentCommand>> {
  return runTableCommand(commandSchemas, handlers, context, command, request);
}
