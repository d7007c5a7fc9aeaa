import semverGte from 'semver/functions/gte.js';
import semverValid from 'semver/functions/valid.js';
import {
  DESKTOP_CLIENT_MIN_VERSION,
  TRUST_ASSISTANT_MIN_VERSION,
  TRUST_ASSISTANT_MIN_VERSION_SOFTWARE_KEYSTORE,
} from '../../contract/trust-agent/constants.ts';
import type { AgentInfo } from '../../contract/trust-agent/entities.ts';
import { GATE_ERROR_CODES } from '../../contract/trust-agent/errors.ts';
import type { DesktopSystem, PlatformInfo } from '../lib/platform.ts';
import type { AgentStatus, HandshakeFailure } from './shared.ts';

/**
 * The desktop helper gate (overview §4, §5 and §8): what a screen that needs the trust agent shows,
 * from the worker's status, the keystore location the screen works with and the user's system.
 */

/** Where the screen's keys live: the agent's software keystore needs a newer agent (overview §5). */
export type KeystoreLocation = 'software' | 'hardware';

/**
 * `waiting` on the error states: the page tries again by itself in a few seconds; false once the
 * round of automatic retries has passed, when the banner offers Try again instead.
 */
export type GateState =
  | { kind: 'initializing' }
  | { kind: 'pairing'; code: string }
  | { kind: 'ready'; agent: AgentInfo }
  | { kind: 'notInstalled'; code: typeof GATE_ERROR_CODES.notInstalled; waiting: boolean }
  | { kind: 'notRunning'; code: typeof GATE_ERROR_CODES.notRunning; waiting: boolean }
  | {
      kind: 'handshakeFailed';
      code: typeof GATE_ERROR_CODES.handshakeFailed;
      reason: HandshakeFailure;
      waiting: boolean;
    }
  | { kind: 'initializeFailed'; code: typeof GATE_ERROR_CODES.initializeFailed; waiting: boolean }
  | { kind: 'outdated'; version: string; minimum: string; waiting: boolean }
  | { kind: 'invalidVersion'; version: string; waiting: boolean }
  | { kind: 'unsupportedSystem' }
  | { kind: 'disabled'; waiting: boolean }
  | { kind: 'error'; waiting: boolean };

export type VersionCheck =
  | { ok: true }
  | { ok: false; reason: 'invalid' }
  | { ok: false; reason: 'outdated'; minimum: string };

function atLeast(version: string, minimum: string): VersionCheck {
  if (semverValid(version) === null) return { ok: false, reason: 'invalid' };
  return semverGte(version, minimum) ? { ok: true } : { ok: false, reason: 'outdated', minimum };
}

/** The trust assistant: valid semver, at least 1.0.0, and 1.0.2 for the software keystore. */
export function checkTrustAssistantVersion(version: string, location?: KeystoreLocation): VersionCheck {
  return atLeast(
    version,
    location === 'software' ? TRUST_ASSISTANT_MIN_VERSION_SOFTWARE_KEYSTORE : TRUST_ASSISTANT_MIN_VERSION,
  );
}

/** The desktop client, the other local helper of the platform: at least 3.3.1. */
export function checkDesktopClientVersion(version: string): VersionCheck {
  return atLeast(version, DESKTOP_CLIENT_MIN_VERSION);
}

/**
 * The spec supports Mac and Windows; the reference agent also runs on Linux, where the
 * console is developed and tested, so Linux desktops are let through too. Mobile never.
 */
const SUPPORTED_SYSTEMS: readonly DesktopSystem[] = ['mac', 'windows', 'linux'];

export function isSupportedPlatform(platform: PlatformInfo): boolean {
  return !platform.mobile && (SUPPORTED_SYSTEMS as readonly string[]).includes(platform.system);
}

function agentOf(status: AgentStatus): AgentInfo | null {
  return 'agent' in status ? status.agent : null;
}

/**
 * The gate's state. The system comes first (nothing to install on a phone), then the version of an
 * agent that answered (no point pairing with one the screen cannot use), then the worker's phase.
 * `checkVersion` is the helper's version rule: the trust assistant's for the screen's keystore
 * location by default, `checkDesktopClientVersion` for the desktop client.
 */
export function gateState(
  status: AgentStatus,
  platform: PlatformInfo,
  location?: KeystoreLocation,
  checkVersion: (version: string) => VersionCheck = (version) =>
    checkTrustAssistantVersion(version, location),
): GateState {
  if (!isSupportedPlatform(platform)) return { kind: 'unsupportedSystem' };
  const agent = agentOf(status);
  if (agent) {
    const version = checkVersion(agent.version);
    if (!version.ok) {
      const waiting = 'waiting' in status && status.waiting;
      return version.reason === 'invalid'
        ? { kind: 'invalidVersion', version: agent.version, waiting }
        : { kind: 'outdated', version: agent.version, minimum: version.minimum, waiting };
    }
  }
  switch (status.phase) {
    case 'detecting':
    case 'connecting':
      return { kind: 'initializing' };
    case 'unreachable':
      // A failed fetch cannot tell "not installed" from "not running": a pin means this browser has
      // talked to an agent here before, so it is installed and merely stopped.
      return status.pinned
        ? { kind: 'notRunning', code: GATE_ERROR_CODES.notRunning, waiting: status.waiting }
        : { kind: 'notInstalled', code: GATE_ERROR_CODES.notInstalled, waiting: status.waiting };
    case 'pairing':
      return { kind: 'pairing', code: status.code };
    case 'ready':
      return { kind: 'ready', agent: status.agent };
    case 'handshakeFailed':
      return {
        kind: 'handshakeFailed',
        code: GATE_ERROR_CODES.handshakeFailed,
        reason: status.reason,
        waiting: status.waiting,
      };
    case 'initializeFailed':
      return { kind: 'initializeFailed', code: GATE_ERROR_CODES.initializeFailed, waiting: status.waiting };
    case 'disabled':
      return { kind: 'disabled', waiting: status.waiting };
    case 'unsupportedAgent':
    case 'error':
      return { kind: 'error', waiting: status.waiting };
  }
}
