import * as v from 'valibot';
import {
  type AgentCommand,
  type CommandOutcome,
  type CommandResponse,
  commandSchemas,
} from '../contract/trust-agent/commands.ts';
import { PIN_ATTEMPT_LIMIT } from '../contract/trust-agent/constants.ts';
import type { AgentInfo } from '../contract/trust-agent/entities.ts';
import type { AgentConfig } from './config.ts';
import { CommandFailure } from './failure.ts';
import type { Keystores } from './keystores/index.ts';

export interface CommandContext {
  config: AgentConfig;
  info: AgentInfo;
  startedAt: number;
  keystores: Keystores;
}

type Handler<C extends AgentCommand> = (
  context: CommandContext,
  request: v.InferOutput<(typeof commandSchemas)[C]['request']>,
) => Promise<CommandResponse<C>>;

const handlers: { [C in AgentCommand]: Handler<C> } = {
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
  parseFile: async () => {
    throw new CommandFailure('unsupportedCommand', 'parseFile is not available yet');
  },
};

function isCommand(name: string): name is AgentCommand {
  return Object.hasOwn(commandSchemas, name);
}

/**
 * Runs one decrypted command. Whatever goes wrong (an unknown command, a request that does not
 * match its schema, a keystore refusal, a module crash) becomes an error answer: a page cannot
 * bring the agent down with a command.
 */
export async function runCommand(
  context: CommandContext,
  command: string,
  request: unknown,
): Promise<CommandOutcome<AgentCommand>> {
  if (!isCommand(command)) {
    return { ok: false, error: { code: 'unsupportedCommand', message: `Unknown command "${command}"` } };
  }
  const parsed = v.safeParse(commandSchemas[command].request, request);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = issue.path?.map((item) => String(item.key)).join('.') ?? '';
    return {
      ok: false,
      error: { code: 'invalidRequest', message: field ? `${field}: ${issue.message}` : issue.message },
    };
  }
  try {
    const handler = handlers[command] as Handler<AgentCommand>;
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
