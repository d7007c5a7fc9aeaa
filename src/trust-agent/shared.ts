import type {
  AgentCommand,
  CommandTable,
  commandSchemas,
  TableOutcome,
} from '../../contract/trust-agent/commands.ts';
import type { AgentCertificate, AgentInfo, Keystore, Token } from '../../contract/trust-agent/entities.ts';
import type { HelperName } from './helpers.ts';

/**
 * The messages between the UI thread (client.ts) and the agent worker (agent.worker.ts). The worker
 * owns the identity key, the pins and the session keys; nothing here carries any of them. One worker
 * talks to both local helpers: each message names its helper (`Addressed`).
 */

/** Why a handshake with the agent did not complete (gate code 3). */
export type HandshakeFailure =
  /** The agent's key is not the pinned one: another program on the port, or a reinstalled agent. */
  | 'agentKeyChanged'
  /** The agent's transcript signature does not verify, or it speaks another protocol. */
  | 'agentNotAuthentic'
  /** The user refused the pairing in the agent, or let it expire. */
  | 'pairingRefused'
  | 'pairingExpired'
  /** The agent takes no more pairing requests while several wait for the desktop user. */
  | 'tooManyPairings'
  /** The agent refused the handshake itself. */
  | 'refused';

/** The worker's view of the agent; the gate (gate.ts) turns it into what a screen shows. */
export type AgentStatus =
  /** Looking for the agent: the page's first probe, and the retries of a probe nobody answered. */
  | { phase: 'detecting' }
  /**
   * No answer on the agent's port. `pinned`: this browser has paired with an agent here before.
   * `waiting`: the worker is still polling for it (install detection and its retries).
   */
  | { phase: 'unreachable'; pinned: boolean; waiting: boolean }
  /** The agent answered; pairing, handshake and `initialize` are under way. */
  | { phase: 'connecting'; agent: AgentInfo }
  /** The user must approve the pairing in the agent, which shows the same code. */
  | { phase: 'pairing'; agent: AgentInfo; code: string }
  | { phase: 'ready'; agent: AgentInfo }
  /**
   * The agent's version is below what any page accepts (or not a version): the worker does not
   * talk to it. Here and below, `waiting`: the worker tries again by itself in a few seconds; once
   * its round of retries has passed, only when the user asks.
   */
  | { phase: 'unsupportedAgent'; agent: AgentInfo; waiting: boolean }
  | { phase: 'handshakeFailed'; agent: AgentInfo | null; reason: HandshakeFailure; waiting: boolean }
  | { phase: 'initializeFailed'; agent: AgentInfo; waiting: boolean }
  | { phase: 'disabled'; agent: AgentInfo | null; waiting: boolean }
  | { phase: 'error'; agent: AgentInfo | null; waiting: boolean };

export type ToWorker =
  /** Start looking for the agent (the first screen that needs it sends this). */
  | { type: 'start' }
  /** Look again now, resetting the install wait and its retries. */
  | { type: 'retry' }
  /** Forget the pinned agent key and pair again (needs the desktop user's approval). */
  | { type: 'pairAgain' }
  /** Poll the tokens every TOKEN_POLL_INTERVAL_MS while at least one screen watches them. */
  | { type: 'watchTokens'; watching: boolean }
  | { type: 'refresh' }
  | { type: 'command'; id: number; command: string; request: unknown };

/** A command the worker could not deliver: no session with the agent, or the agent went away. */
export interface UndeliveredCommand {
  ok: false;
  undelivered: true;
  reason: 'notConnected' | 'agentUnreachable' | 'refused';
}

export type TableResult<T extends CommandTable, C extends keyof T> = TableOutcome<T, C> | UndeliveredCommand;
export type CommandResult<C extends AgentCommand> = TableResult<typeof commandSchemas, C>;

/** What one helper's connection reports. */
export type FromHelper =
  | { type: 'status'; status: AgentStatus }
  | { type: 'keystores'; keystores: Keystore[] }
  | { type: 'tokens'; tokens: Token[] }
  | { type: 'certificates'; keystoreId: string; certificates: AgentCertificate[] };

export type FromWorker =
  | FromHelper
  | { type: 'result'; id: number; result: TableResult<CommandTable, string> };

/** A message between the page and the worker, with the helper it is for or from. */
export type Addressed<M> = M & { helper: HelperName };
