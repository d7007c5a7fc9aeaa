import * as v from 'valibot';
import {
  AgentImpersonationError,
  AgentTransportError,
  type ClientSession,
  type Fetch,
  hello,
  openSession,
  pairingStatus,
  requestPairing,
} from '../../contract/trust-agent/client-session.ts';
import {
  type CommandRequest,
  type CommandResponse,
  type CommandTable,
  commandErrorSchema,
  type TableOutcome,
  type TableRequest,
  type TableResponse,
} from '../../contract/trust-agent/commands.ts';
import {
  GATE_ERROR_RETRY_DELAY_MS,
  PROTOCOL_CHECK_TIMEOUT_MS,
  TOKEN_POLL_INTERVAL_MS,
  TRUST_AGENT_PROTOCOL,
} from '../../contract/trust-agent/constants.ts';
import type { AgentInfo } from '../../contract/trust-agent/entities.ts';
import {
  generateIdentityKeys,
  type IdentityKeys,
  MessageRejectedError,
} from '../../contract/trust-agent/session-crypto.ts';
import type { HelloResponse } from '../../contract/trust-agent/wire.ts';
import type { LocalHelper } from './helpers.ts';
import type { TrustAgentStore } from './identity-store.ts';
import type { AgentStatus, FromHelper, HandshakeFailure, TableResult } from './shared.ts';

export interface AgentConnectionOptions<T extends CommandTable> {
  /** The local helper this connection talks to: the trust agent or the desktop client. */
  helper: LocalHelper<T>;
  fetch: Fetch;
  origin: string;
  store: TrustAgentStore;
  emit: (event: FromHelper) => void;
}

function agentInfo(hello: HelloResponse): AgentInfo {
  const { product, version, protocol, os, arch, enabled } = hello;
  return { product, version, protocol, os, arch, enabled };
}

/** An answer that opened under the session keys but is not what the command returns. */
class AgentAnswerError extends Error {}

function parseOutcome<T extends CommandTable, C extends keyof T & string>(
  commands: T,
  command: C,
  plaintext: unknown,
): TableOutcome<T, C> {
  const response = commands[command]?.response;
  if (response === undefined) throw new AgentAnswerError(`Unexpected answer to ${command}`);
  const outcome = v.safeParse(
    v.variant('ok', [
      v.object({ ok: v.literal(true), result: response }),
      v.object({ ok: v.literal(false), error: commandErrorSchema }),
    ]),
    plaintext,
  );
  if (!outcome.success) throw new AgentAnswerError(`Unexpected answer to ${command}`);
  return outcome.output as TableOutcome<T, C>;
}

/** A fetch that never got an answer: nothing listens on the port, or it did not answer in time. */
function isUnreachable(error: unknown): boolean {
  return error instanceof TypeError || (error instanceof DOMException && /Abort|Timeout/.test(error.name));
}

function delay(ms: number) {
  return new Promise<void>((resolve) => setTimeout(resolve, ms));
}

/**
 * The agent worker's whole job for one local helper, apart from the message port: finding it
 * (install detection with its retries), pairing, the handshake and `initialize`, one command at a
 * time on the session, and token polling. It reports only statuses, entities and command outcomes.
 * The trust agent and the desktop client are two instances, told apart by their `LocalHelper`.
 */
export class AgentConnection<T extends CommandTable> {
  private status: AgentStatus = { phase: 'detecting' };
  private session: ClientSession<T> | null = null;
  private identityKeys: IdentityKeys | null = null;
  private pinnedKey: string | null = null;
  /** Bumped whenever an attempt is superseded (retry, pair again): a stale attempt stops at its next step. */
  private generation = 0;
  private attemptTimer: ReturnType<typeof setTimeout> | null = null;
  private tokenTimer: ReturnType<typeof setTimeout> | null = null;
  private tokenWatchers = 0;
  private queue: Promise<unknown> = Promise.resolve();
  private started = false;
  /**
   * The current round of automatic retries: when it began (the page's start, Try again, Pair
   * again, or the first failure after a ready session) and how many probes found nothing. Nothing
   * is retried by itself once the helper's wait has passed since the round began.
   */
  private roundStartedAt: number | null = null;
  private unanswered = 0;

  /** The protocol check gets 2 s (overview §9); a command gets the helper's own timeout. */
  private readonly probe;
  private readonly channel;
  private readonly agentUrl;

  constructor(private readonly options: AgentConnectionOptions<T>) {
    const { helper, fetch } = options;
    this.agentUrl = helper.url;
    this.probe = { baseUrl: helper.url, fetch, timeoutMs: PROTOCOL_CHECK_TIMEOUT_MS };
    this.channel = { baseUrl: helper.url, fetch, timeoutMs: helper.commandTimeoutMs };
  }

  start(): void {
    if (this.started) {
      this.setStatus(this.status);
      return;
    }
    this.started = true;
    this.setStatus({ phase: 'detecting' });
    this.schedule(0);
  }

  retry(): void {
    this.started = true;
    this.roundStartedAt = null;
    this.unanswered = 0;
    this.schedule(0);
  }

  async pairAgain(): Promise<void> {
    this.session = null;
    this.pinnedKey = null;
    this.generation += 1;
    await this.options.store.unpin(this.agentUrl);
    this.retry();
  }

  watchTokens(watching: boolean): void {
    this.tokenWatchers = Math.max(0, this.tokenWatchers + (watching ? 1 : -1));
    this.pollTokens();
  }

  async refresh(): Promise<void> {
    if (Object.hasOwn(this.options.helper.commands, 'refresh')) await this.runUnchecked('refresh', {});
  }

  run<C extends keyof T & string>(command: C, request: TableRequest<T, C>): Promise<TableResult<T, C>> {
    const task = this.queue.then(() => this.deliver(command, request));
    this.queue = task.catch(() => undefined);
    return task;
  }

  stop(): void {
    this.generation += 1;
    if (this.attemptTimer) clearTimeout(this.attemptTimer);
    if (this.tokenTimer) clearTimeout(this.tokenTimer);
  }

  private setStatus(status: AgentStatus) {
    this.status = status;
    this.options.emit({ type: 'status', status });
  }

  private schedule(ms: number) {
    if (this.attemptTimer) clearTimeout(this.attemptTimer);
    this.generation += 1;
    const generation = this.generation;
    this.attemptTimer = setTimeout(() => {
      this.attemptTimer = null;
      void this.attempt(generation);
    }, ms);
  }

  private async identity(): Promise<IdentityKeys> {
    if (this.identityKeys) return this.identityKeys;
    let keys = await this.options.store.identity();
    if (!keys) {
      keys = await generateIdentityKeys(false);
      await this.options.store.saveIdentity(keys);
    }
    this.identityKeys = keys;
    return keys;
  }

  /** One try from hello to a ready session; every failure decides whether and when to try again. */
  private async attempt(generation: number): Promise<void> {
    const stale = () => generation !== this.generation;
    const { store, helper } = this.options;
    const agentUrl = this.agentUrl;
    this.session = null;
    let agent: AgentInfo | null = null;
    try {
      const answer = await hello(this.probe);
      if (stale()) return;
      agent = agentInfo(answer);
      this.unanswered = 0;
      if (answer.protocol !== TRUST_AGENT_PROTOCOL)
        return this.failHandshake(agent, 'agentNotAuthentic', true);
      if (!answer.enabled) return this.retryLater({ phase: 'disabled', agent, waiting: true });
      // An agent no page may use is not paired with; it is looked at again in case it gets updated.
      if (!helper.checkVersion(agent.version).ok)
        return this.retryLater({ phase: 'unsupportedAgent', agent, waiting: true });
      const pinned = await store.pinnedKey(agentUrl);
      if (stale()) return;
      if (pinned && pinned !== answer.agentKey) return this.failHandshake(agent, 'agentKeyChanged', false);
      this.setStatus({ phase: 'connecting', agent });
      const identity = await this.identity();
      const agentKey = pinned ?? (await this.pair(agent, answer.agentKey, identity, stale));
      if (agentKey === null || stale()) return;
      this.pinnedKey = agentKey;
      const session = await this.openSession(identity, agentKey);
      if (stale()) return;
      if (!session) return this.retryLater({ phase: 'initializeFailed', agent, waiting: true });
      this.session = session.session;
      this.roundStartedAt = null;
      this.options.emit({ type: 'keystores', keystores: session.keystores });
      this.setStatus({ phase: 'ready', agent: session.agent });
      this.pollTokens();
    } catch (error) {
      if (!stale()) await this.handleFailure(error, agent, generation);
    }
  }

  /** The handshake and `initialize`, which moves the session from UNINITIALIZED to INITIALIZED. */
  private async openSession(identity: IdentityKeys, agentKey: string) {
    const { commands, initialize } = this.options.helper;
    const session = await openSession<T>(this.channel, this.options.origin, identity, agentKey);
    const initialized = parseOutcome(commands, 'initialize', await session.send('initialize', initialize));
    // Both helpers' initialize answers the program's info and the keystores (the commands' contract).
    const result = initialized.ok ? (initialized.result as CommandResponse<'initialize'>) : null;
    return result ? { session, ...result } : null;
  }

  /** Pairing: the user compares the code with the agent's prompt and approves there. */
  private async pair(
    agent: AgentInfo,
    helloKey: string,
    identity: IdentityKeys,
    stale: () => boolean,
  ): Promise<string | null> {
    const { store, origin, helper } = this.options;
    const agentUrl = this.agentUrl;
    const { response: answer, code } = await requestPairing(this.channel, origin, identity);
    if (answer.agentKey !== helloKey) throw new AgentImpersonationError();
    if (stale()) return null;
    this.setStatus({ phase: 'pairing', agent, code });
    for (;;) {
      const { status } = await pairingStatus(this.channel, answer.pairingId);
      if (stale()) return null;
      if (status === 'approved') {
        await store.pin(agentUrl, answer.agentKey);
        this.setStatus({ phase: 'connecting', agent });
        return answer.agentKey;
      }
      if (status === 'refused' || status === 'expired') {
        this.failHandshake(agent, status === 'refused' ? 'pairingRefused' : 'pairingExpired', false);
        return null;
      }
      await delay(helper.pairingPollMs);
      if (stale()) return null;
    }
  }

  private async handleFailure(error: unknown, agent: AgentInfo | null, generation: number) {
    if (isUnreachable(error)) return this.unreachable();
    if (
      error instanceof AgentImpersonationError ||
      error instanceof MessageRejectedError ||
      error instanceof AgentAnswerError
    ) {
      return this.failHandshake(agent, 'agentNotAuthentic', true);
    }
    if (error instanceof AgentTransportError) {
      if (error.code === 'agentDisabled') return this.retryLater({ phase: 'disabled', agent, waiting: true });
      // More pairings wait in the agent than it takes: the user has to look at them there.
      if (error.code === 'tooManyRequests') return this.failHandshake(agent, 'tooManyPairings', false);
      if (error.code === 'unpaired') {
        // The agent forgot this browser (its pairings were reset): pair afresh.
        await this.options.store.unpin(this.agentUrl);
        this.pinnedKey = null;
        if (generation === this.generation) this.schedule(0);
        return;
      }
      return this.failHandshake(agent, 'refused', true);
    }
    return this.retryLater({ phase: 'error', agent, waiting: true });
  }

  private failHandshake(agent: AgentInfo | null, reason: HandshakeFailure, retry: boolean) {
    // A changed key or a refused pairing needs the user ("Pair again"); asking again alone would not help.
    if (retry) this.retryLater({ phase: 'handshakeFailed', agent, reason, waiting: true });
    else this.setStatus({ phase: 'handshakeFailed', agent, reason, waiting: false });
  }

  /** Whether the round of automatic retries is still on (starting one if none is). */
  private stillRetrying(): boolean {
    const now = Date.now();
    this.roundStartedAt ??= now;
    return now - this.roundStartedAt < this.options.helper.detection.waitMs;
  }

  /** An error shown with a retry after a delay, as long as the round lasts (overview §4). */
  private retryLater(status: Extract<AgentStatus, { waiting: boolean }>) {
    const retrying = this.stillRetrying();
    this.setStatus({ ...status, waiting: retrying });
    if (retrying) this.schedule(GATE_ERROR_RETRY_DELAY_MS);
  }

  /**
   * Nothing answers: the probe is retried every 2 s, the first `retries` times while the page still
   * says it is looking (an agent that is starting answers within them), then with the install
   * banner, until 30 s after the round began; then only when the user asks (overview §4, §9).
   */
  private async unreachable() {
    const { intervalMs, retries } = this.options.helper.detection;
    const pinned = (await this.options.store.pinnedKey(this.agentUrl)) !== null;
    this.unanswered += 1;
    if (!this.stillRetrying()) {
      this.setStatus({ phase: 'unreachable', pinned, waiting: false });
      return;
    }
    if (this.unanswered > retries) this.setStatus({ phase: 'unreachable', pinned, waiting: true });
    else if (this.status.phase !== 'detecting') this.setStatus({ phase: 'detecting' });
    this.schedule(intervalMs);
  }

  /** A command by name, for the worker's messages and the commands only some helpers have. */
  runUnchecked(command: string, request: unknown): Promise<TableResult<T, keyof T & string>> {
    return this.run(command as keyof T & string, request as TableRequest<T, keyof T & string>);
  }

  private async deliver<C extends keyof T & string>(
    command: C,
    request: TableRequest<T, C>,
  ): Promise<TableResult<T, C>> {
    // A command the helper does not have is refused here: its answer could not be checked.
    if (!Object.hasOwn(this.options.helper.commands, command))
      return { ok: false, error: { code: 'unsupportedCommand', message: `Unknown command "${command}"` } };
    if (!this.session || this.status.phase !== 'ready')
      return { ok: false, undelivered: true, reason: 'notConnected' };
    const generation = this.generation;
    try {
      const { commands } = this.options.helper;
      let outcome: TableOutcome<T, C>;
      try {
        outcome = parseOutcome(commands, command, await this.session.send(command, request));
      } catch (error) {
        // The agent forgot the session (restarted, or it idled out): shake hands again once and resend.
        if (!(error instanceof AgentTransportError && error.code === 'sessionNotFound') || !this.pinnedKey)
          throw error;
        const reopened = await this.openSession(await this.identity(), this.pinnedKey);
        if (!reopened) throw error;
        this.session = reopened.session;
        outcome = parseOutcome(commands, command, await this.session.send(command, request));
      }
      if (outcome.ok) this.publish(command, request, outcome.result);
      return outcome;
    } catch (error) {
      this.session = null;
      if (generation === this.generation) await this.handleFailure(error, this.agentOfStatus(), generation);
      return {
        ok: false,
        undelivered: true,
        reason: isUnreachable(error) ? 'agentUnreachable' : 'refused',
      };
    }
  }

  private agentOfStatus(): AgentInfo | null {
    return 'agent' in this.status ? this.status.agent : null;
  }

  /**
   * Entities a command returned go to every screen, not only to the one that asked. The commands are
   * told by name: the desktop client's `keystore` and `certificate` answer as the agent's do.
   */
  private publish(command: string, request: unknown, result: TableResponse<T, keyof T & string>) {
    const { emit } = this.options;
    if (command === 'refresh') {
      const { keystores, tokens } = result as CommandResponse<'refresh'>;
      emit({ type: 'keystores', keystores });
      emit({ type: 'tokens', tokens });
    } else if (command === 'keystore' || command === 'registerProvider') {
      emit({ type: 'keystores', keystores: (result as CommandResponse<'keystore'>).keystores });
    } else if (command === 'token' && !(request as CommandRequest<'token'>).keystoreId) {
      emit({ type: 'tokens', tokens: (result as CommandResponse<'token'>).tokens });
    } else if (command === 'certificate') {
      const { keystoreId } = request as CommandRequest<'certificate'>;
      emit({
        type: 'certificates',
        keystoreId,
        certificates: (result as CommandResponse<'certificate'>).certificates,
      });
    }
  }

  /** Tokens every 5 s while a screen watches them and a session is up (overview §9). */
  private pollTokens() {
    if (this.tokenTimer) clearTimeout(this.tokenTimer);
    this.tokenTimer = null;
    if (this.tokenWatchers === 0 || this.status.phase !== 'ready' || !this.options.helper.listsTokens) return;
    void this.runUnchecked('token', {}).then(() => {
      if (this.tokenWatchers > 0 && this.status.phase === 'ready' && !this.tokenTimer) {
        this.tokenTimer = setTimeout(() => {
          this.tokenTimer = null;
          this.pollTokens();
        }, TOKEN_POLL_INTERVAL_MS);
      }
    });
  }
}
