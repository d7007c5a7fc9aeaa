import { homedir, platform } from 'node:os';
import path from 'node:path';
import { DESKTOP_CLIENT_PORT, TRUST_AGENT_PORT } from '../contract/trust-agent/constants.ts';
import { AGENT_VERSION } from './version.ts';

/** A PKCS#11 module the agent may load: only modules named here, never one a web page names. */
export interface Pkcs11Module {
  name: string;
  path: string;
}

export interface AgentConfig {
  port: number;
  /** The desktop client's loopback port (decision 021 §5); null: the program runs no desktop client. */
  desktopClientPort: number | null;
  /** Where the agent keeps its identity key, its pairings and the software keystore. */
  dataDir: string;
  /** Origins (scheme, host and port) that may talk to the agent at all. */
  allowedOrigins: string[];
  /** Origins paired without asking the desktop user: for tests and managed installs. */
  preapprovedOrigins: string[];
  pkcs11Modules: Pkcs11Module[];
  softwareKeystore: boolean;
  /** Off: the agent answers every page with `agentDisabled` (the gate's "disabled" state). */
  webAccess: boolean;
  /** Reported to the console's version gate. */
  version: string;
  /**
   * Ask the desktop user about new pairings on this terminal. Without one (a service) a pairing
   * waits for `approve CODE` on the control channel, announced in the log.
   */
  interactive: boolean;
  /** Show each pairing's code in a desktop notification as well (TRUST_AGENT_NOTIFICATIONS). */
  desktopNotifications: boolean;
}

/** The agent's data directory where the operating system keeps per-user application data. */
export function defaultDataDir(): string {
  switch (platform()) {
    case 'darwin':
      return path.join(homedir(), 'Library', 'Application Support', 'Trust Assistant');
    case 'win32':
      return path.join(process.env.APPDATA ?? path.join(homedir(), 'AppData', 'Roaming'), 'Trust Assistant');
    default:
      return path.join(
        process.env.XDG_DATA_HOME ?? path.join(homedir(), '.local', 'share'),
        'trust-assistant',
      );
  }
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

/** An origin as browsers send it: scheme, host and port, nothing else. */
export function normalizeOrigin(value: string): string {
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`Not a web origin: ${value}`);
  return url.origin;
}

function modules(value: string | undefined): Pkcs11Module[] {
  return list(value).map((entry) => {
    const separator = entry.indexOf('=');
    if (separator <= 0)
      throw new Error(`TRUST_AGENT_PKCS11_MODULES: expected name=/path/to/module.so, got "${entry}"`);
    return { name: entry.slice(0, separator).trim(), path: entry.slice(separator + 1).trim() };
  });
}

function portOf(value: string | number, name: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`${name} must be a port number`);
  return port;
}

/**
 * The agent's settings from its environment (docs/agent-protocol.md §8):
 * TRUST_AGENT_PORT, TRUST_AGENT_DATA_DIR, TRUST_AGENT_ALLOWED_ORIGINS (comma-separated),
 * TRUST_AGENT_PREAPPROVED_ORIGINS, TRUST_AGENT_PKCS11_MODULES (name=path, comma-separated),
 * TRUST_AGENT_SOFTWARE_KEYSTORE (on unless "off"), TRUST_AGENT_WEB_ACCESS (on unless "off"),
 * TRUST_AGENT_DESKTOP_CLIENT (on unless "off"), TRUST_AGENT_DESKTOP_CLIENT_PORT (20404),
 * TRUST_AGENT_NOTIFICATIONS (on unless "off").
 */
export function loadAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const port = portOf(env.TRUST_AGENT_PORT ?? TRUST_AGENT_PORT, 'TRUST_AGENT_PORT');
  const desktopClientPort =
    env.TRUST_AGENT_DESKTOP_CLIENT === 'off'
      ? null
      : portOf(env.TRUST_AGENT_DESKTOP_CLIENT_PORT ?? DESKTOP_CLIENT_PORT, 'TRUST_AGENT_DESKTOP_CLIENT_PORT');
  const preapprovedOrigins = list(env.TRUST_AGENT_PREAPPROVED_ORIGINS).map(normalizeOrigin);
  const allowedOrigins = [
    ...new Set([...list(env.TRUST_AGENT_ALLOWED_ORIGINS).map(normalizeOrigin), ...preapprovedOrigins]),
  ];
  return {
    port,
    desktopClientPort,
    dataDir: path.resolve(env.TRUST_AGENT_DATA_DIR ?? defaultDataDir()),
    allowedOrigins,
    preapprovedOrigins,
    pkcs11Modules: modules(env.TRUST_AGENT_PKCS11_MODULES),
    softwareKeystore: env.TRUST_AGENT_SOFTWARE_KEYSTORE !== 'off',
    webAccess: env.TRUST_AGENT_WEB_ACCESS !== 'off',
    version: AGENT_VERSION,
    interactive: Boolean(process.stdin.isTTY),
    desktopNotifications: env.TRUST_AGENT_NOTIFICATIONS !== 'off',
  };
}
