import { DESKTOP_CLIENT_PORT, TRUST_AGENT_PORT } from '../constants.ts';

/**
 * Constants of the desktop trust agent and the console's side of it (overview §5 and §9;
 * docs/agent-protocol.md).
 */
export { DESKTOP_CLIENT_PORT, TRUST_AGENT_PORT };

/** The agent's product name, as `hello` and `service` report it. */
export const TRUST_AGENT_PRODUCT = 'trust-assistant';
/** The wire protocol this contract speaks; a peer offering another one is refused at the handshake. */
export const TRUST_AGENT_PROTOCOL = 'trust-agent/1';

/** Hosts the agent answers to: anything else is a DNS-rebinding attempt (docs/agent-protocol.md §2). */
export function trustAgentHosts(port: number = TRUST_AGENT_PORT): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}
export function trustAgentUrl(port: number = TRUST_AGENT_PORT): string {
  return `http://127.0.0.1:${port}`;
}

/** Session crypto sizes (overview §9): nonces of 64 bytes from each side, AES-GCM IVs of 16 bytes. */
export const HANDSHAKE_NONCE_BYTES = 64;
export const MESSAGE_IV_BYTES = 16;
/** An idle session is forgotten after this long; the worker then shakes hands again. */
export const SESSION_IDLE_TIMEOUT_MS = 15 * 60 * 1000;

/** Install detection: every 2 s, for 30 s overall (overview §9); errors are not retried by themselves after it either. */
export const INSTALL_POLL_INTERVAL_MS = 2000;
export const INSTALL_WAIT_MS = 30_000;
/** How long one probe of the agent may take before it counts as unreachable (the "protocol check"). */
export const PROTOCOL_CHECK_TIMEOUT_MS = 2000;
/** Tokens are listed again every 5 s while a page watches them (overview §9). */
export const TOKEN_POLL_INTERVAL_MS = 5000;
/** A not-installed result is retried this many times before the page reports it (overview §4). */
export const NOT_INSTALLED_RETRIES = 3;
/**
 * Other gate errors are retried after this delay. The spec names the retry but not its delay
 * (requirements, "not specified"): 5 s, the desktop client's retry interval, so a user who starts
 * the agent sees the page recover within a few seconds without the console polling hard.
 */
export const GATE_ERROR_RETRY_DELAY_MS = 5000;
/** A command may take this long (key generation on a slow smart card takes several seconds). */
export const COMMAND_TIMEOUT_MS = 120_000;

/** Versions (overview §5 and §9). */
export const TRUST_ASSISTANT_MIN_VERSION = '1.0.0';
export const TRUST_ASSISTANT_MIN_VERSION_SOFTWARE_KEYSTORE = '1.0.2';
export const DESKTOP_CLIENT_MIN_VERSION = '3.3.1';
export const TRUST_ASSISTANT_DOWNLOAD_VERSION = '1.1.4';

/**
 * The desktop client (decision 021 §5), the second service of the agent program: its product name,
 * the version it reports (the catalogue's, checked against DESKTOP_CLIENT_MIN_VERSION) and the
 * console's timing for it (overview §9): 15 s per request, a waiting pairing polled every 500 ms,
 * a missing client looked for again every 5 s, and the environment it is initialized for.
 */
export const DESKTOP_CLIENT_PRODUCT = 'desktop-client';
export const DESKTOP_CLIENT_VERSION = '3.3.1';
export const DESKTOP_CLIENT_TIMEOUT_MS = 15_000;
export const DESKTOP_CLIENT_POLL_MS = 500;
export const DESKTOP_CLIENT_RETRY_MS = 5000;
export const DESKTOP_CLIENT_ENVIRONMENT = 'production';

/** Hardware-token key generation (overview §5 and §9). */
export const HARDWARE_TOKEN_KEY_ALGORITHM = 'RSA';
export const HARDWARE_TOKEN_KEY_SIZE = 2048;
/** CSRs are PEM with lines of 64 characters (overview §3). */
export const CSR_PEM_LINE_LENGTH = 64;

/** A PIN the agent accepts: 4 to 64 characters (PKCS#11 tokens commonly take 4–8 minimum). */
export const PIN_MIN_LENGTH = 4;
export const PIN_MAX_LENGTH = 64;
/**
 * Wrong PINs in a row before the agent locks a keystore itself, whatever the token's own counter
 * says: a page that got past pairing still cannot guess a PIN.
 */
export const PIN_ATTEMPT_LIMIT = 5;

/** The custom URL scheme that starts the agent on a desktop where it is installed (overview §7). */
export const TRUST_AGENT_LAUNCH_URL = 'trust-assistant://start';
