import { type CommandTable, commandSchemas, type TableRequest } from '../../contract/trust-agent/commands.ts';
import {
  COMMAND_TIMEOUT_MS,
  DESKTOP_CLIENT_ENVIRONMENT,
  DESKTOP_CLIENT_POLL_MS,
  DESKTOP_CLIENT_PORT,
  DESKTOP_CLIENT_RETRY_MS,
  DESKTOP_CLIENT_TIMEOUT_MS,
  INSTALL_POLL_INTERVAL_MS,
  INSTALL_WAIT_MS,
  NOT_INSTALLED_RETRIES,
  trustAgentUrl,
} from '../../contract/trust-agent/constants.ts';
import {
  type DesktopClientCommands,
  desktopClientCommandSchemas,
} from '../../contract/trust-agent/desktop-client.ts';
import { checkDesktopClientVersion, checkTrustAssistantVersion, type VersionCheck } from './gate.ts';

/** The local helpers the agent worker talks to: the trust agent and the desktop client (decision 021 §5). */
export type HelperName = 'agent' | 'desktopClient';

/**
 * What tells one local helper from the other: where it listens, the commands it answers, how it is
 * initialized, the version the console accepts, and the timing the spec gives it (overview §9).
 */
export interface LocalHelper<T extends CommandTable> {
  url: string;
  commands: T;
  initialize: TableRequest<T, 'initialize'>;
  /** The lowest version any page accepts; a screen may ask for more (the software keystore). */
  checkVersion: (version: string) => VersionCheck;
  commandTimeoutMs: number;
  /** How often a pairing waiting for the desktop user's approval is asked about. */
  pairingPollMs: number;
  /**
   * Looking for a helper that does not answer, and retrying other errors: a probe every
   * `intervalMs`, the first `retries` of them before the page says nothing answers, and nothing by
   * itself once `waitMs` has passed since the round began (the page's start or the user's Try again).
   */
  detection: { intervalMs: number; waitMs: number; retries: number };
  /** Whether the helper lists tokens (the trust agent's `token`), which screens may poll. */
  listsTokens: boolean;
}

export type AgentCommands = typeof commandSchemas;

/** The trust agent: a probe every 2 s, three retries before the install banner, 30 s in all (overview §4, §9). */
export const TRUST_AGENT_HELPER: LocalHelper<AgentCommands> = {
  url: trustAgentUrl(),
  commands: commandSchemas,
  initialize: {},
  checkVersion: (version) => checkTrustAssistantVersion(version),
  // Key generation on a slow smart card takes several seconds.
  commandTimeoutMs: COMMAND_TIMEOUT_MS,
  // The agent shows its approval prompt; asking once a second feels immediate once the user clicks.
  pairingPollMs: 1000,
  detection: {
    intervalMs: INSTALL_POLL_INTERVAL_MS,
    waitMs: INSTALL_WAIT_MS,
    retries: NOT_INSTALLED_RETRIES,
  },
  listsTokens: true,
};

/**
 * The desktop client: 15 s per request, a pairing polled every 500 ms, initialized for the
 * production environment, and looked for again every 5 s for as long as a page needs it.
 */
export const DESKTOP_CLIENT_HELPER: LocalHelper<DesktopClientCommands> = {
  url: trustAgentUrl(DESKTOP_CLIENT_PORT),
  commands: desktopClientCommandSchemas,
  initialize: { environment: DESKTOP_CLIENT_ENVIRONMENT },
  checkVersion: checkDesktopClientVersion,
  commandTimeoutMs: DESKTOP_CLIENT_TIMEOUT_MS,
  pairingPollMs: DESKTOP_CLIENT_POLL_MS,
  detection: { intervalMs: DESKTOP_CLIENT_RETRY_MS, waitMs: Number.POSITIVE_INFINITY, retries: 0 },
  listsTokens: false,
};
