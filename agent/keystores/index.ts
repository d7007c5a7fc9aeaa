import type { CommandRequest, CommandResponse } from '../../contract/trust-agent/commands.ts';
import type { Keystore, Token } from '../../contract/trust-agent/entities.ts';
import type { AgentConfig } from '../config.ts';
import { CommandFailure } from '../failure.ts';
import type { KeystoreBackend } from './backend.ts';
import { PinAttempts } from './pin-attempts.ts';
import { pkcs11Backend } from './pkcs11.ts';
import { softwareKeystore } from './software.ts';

/**
 * The keystores the agent offers: the software keystore (PIN-protected PKCS#12 in the data
 * directory) and the tokens of the configured PKCS#11 modules.
 */
export interface Keystores {
  list(): Promise<Keystore[]>;
  tokens(keystoreId?: string): Promise<Token[]>;
  /** Looks for tokens inserted or removed since the last look. */
  refresh(): Promise<void>;
  verifyPin(request: CommandRequest<'verifypin'>): Promise<CommandResponse<'verifypin'>>;
  changePin(request: CommandRequest<'changepin'>): Promise<CommandResponse<'changepin'>>;
  resetPin(request: CommandRequest<'resetpin'>): Promise<CommandResponse<'resetpin'>>;
  initToken(request: CommandRequest<'initToken'>): Promise<CommandResponse<'initToken'>>;
  generate(request: CommandRequest<'generate'>): Promise<CommandResponse<'generate'>>;
  importCertificate(request: CommandRequest<'importCert'>): Promise<CommandResponse<'importCert'>>;
  certificates(request: CommandRequest<'certificate'>): Promise<CommandResponse<'certificate'>>;
  exportCertificate(request: CommandRequest<'exportCert'>): Promise<CommandResponse<'exportCert'>>;
  deleteCertificate(request: CommandRequest<'deleteCert'>): Promise<CommandResponse<'deleteCert'>>;
  sign(request: CommandRequest<'sign'>): Promise<CommandResponse<'sign'>>;
  backup(request: CommandRequest<'backupToken'>): Promise<CommandResponse<'backupToken'>>;
  restore(request: CommandRequest<'restoreToken'>): Promise<CommandResponse<'restoreToken'>>;
  /** Availability of each configured PKCS#11 module (for `config`). */
  modules(): { name: string; available: boolean }[];
  close(): Promise<void>;
}

/**
 * The keystores of the configuration: the software keystore (unless switched off) and the tokens of
 * each configured PKCS#11 module. Each command goes to the keystore its id names; an id no source
 * knows is `keystoreNotFound`.
 */
export async function openKeystores(
  config: AgentConfig,
  log: (line: string) => void = console.warn,
): Promise<Keystores> {
  const attempts = new PinAttempts(config.dataDir);
  const modules = config.pkcs11Modules.map((module) => pkcs11Backend(module, attempts, log));
  const backends: KeystoreBackend[] = [
    ...(config.softwareKeystore ? [softwareKeystore(config.dataDir, attempts)] : []),
    ...modules,
  ];
  const backendOf = (keystoreId: string): KeystoreBackend => {
    const backend = backends.find((item) => item.owns(keystoreId));
    if (backend === undefined)
      throw new CommandFailure('keystoreNotFound', `No keystore "${keystoreId}" is known`);
    return backend;
  };
  return {
    list: async () => (await Promise.all(backends.map((backend) => backend.list()))).flat(),
    async tokens(keystoreId) {
      if (keystoreId === undefined)
        return (await Promise.all(backends.map((backend) => backend.tokens()))).flat();
      const tokens = (await backendOf(keystoreId).tokens()).filter(
        (token) => token.keystoreId === keystoreId,
      );
      if (tokens.length === 0) {
        // The id is of a known form; the token is either gone or was never there.
        const known = (await backendOf(keystoreId).list()).some((keystore) => keystore.id === keystoreId);
        throw known
          ? new CommandFailure('keystoreNotAvailable', 'The token of this keystore was removed')
          : new CommandFailure('keystoreNotFound', `No keystore "${keystoreId}" is known`);
      }
      return tokens;
    },
    refresh: async () => {
      await Promise.all(backends.map((backend) => backend.refresh()));
    },
    verifyPin: async (request) => backendOf(request.keystoreId).verifyPin(request),
    changePin: async (request) => backendOf(request.keystoreId).changePin(request),
    resetPin: async (request) => backendOf(request.keystoreId).resetPin(request),
    initToken: async (request) => backendOf(request.keystoreId).initToken(request),
    generate: async (request) => backendOf(request.keystoreId).generate(request),
    importCertificate: async (request) => backendOf(request.keystoreId).importCertificate(request),
    certificates: async (request) => backendOf(request.keystoreId).certificates(request),
    exportCertificate: async (request) => backendOf(request.keystoreId).exportCertificate(request),
    deleteCertificate: async (request) => backendOf(request.keystoreId).deleteCertificate(request),
    sign: async (request) => backendOf(request.keystoreId).sign(request),
    backup: async (request) => backendOf(request.keystoreId).backup(request),
    restore: async (request) => backendOf(request.keystoreId).restore(request),
    modules: () => modules.map((module) => ({ name: module.name, available: module.available })),
    close: async () => {
      await Promise.all(backends.map((backend) => backend.close()));
    },
  };
}
