import type { CommandRequest, CommandResponse } from '../../contract/trust-agent/commands.ts';
import type { Keystore, Token } from '../../contract/trust-agent/entities.ts';
import type { AgentConfig } from '../config.ts';
import { CommandFailure } from '../failure.ts';

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

/** Placeholder until the keystores land: every keystore command fails with `noKeystore`. */
export async function openKeystores(_config: AgentConfig): Promise<Keystores> {
  const none = async (): Promise<never> => {
    throw new CommandFailure('noKeystore', 'No keystore is available on this computer');
  };
  return {
    list: async () => [],
    tokens: async () => [],
    refresh: async () => {},
    verifyPin: none,
    changePin: none,
    resetPin: none,
    initToken: none,
    generate: none,
    importCertificate: none,
    certificates: none,
    exportCertificate: none,
    deleteCertificate: none,
    sign: none,
    backup: none,
    restore: none,
    modules: () => [],
    close: async () => {},
  };
}
