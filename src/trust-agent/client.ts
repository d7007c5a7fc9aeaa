import type { CommandTable, TableRequest } from '../../contract/trust-agent/commands.ts';
import type { DesktopClientCommands } from '../../contract/trust-agent/desktop-client.ts';
import type { AgentCertificate, Keystore, Token } from '../../contract/trust-agent/entities.ts';
import type { AgentCommands, HelperName } from './helpers.ts';
import type { Addressed, AgentStatus, FromWorker, TableResult, ToWorker } from './shared.ts';

/** What the page knows of the agent: the worker's last status and the entities it reported. */
export interface TrustAgentSnapshot {
  status: AgentStatus;
  keystores: Keystore[] | null;
  tokens: Token[] | null;
  certificates: Readonly<Record<string, AgentCertificate[]>>;
}

/** The worker's side of the channel, as the page sees it: a `Worker` or, in tests, a stand-in. */
export interface WorkerPort {
  postMessage(message: ToWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<FromWorker>) => void): void;
}

/**
 * The UI thread's typed channel to one local helper in the agent worker: requests (`command`,
 * answered by id) and the events the worker pushes, kept as one snapshot for React's
 * `useSyncExternalStore`. `T` is the helper's command table.
 */
export class TrustAgentClient<T extends CommandTable = AgentCommands> {
  private snapshot: TrustAgentSnapshot = {
    status: { phase: 'detecting' },
    keystores: null,
    tokens: null,
    certificates: {},
  };
  private readonly listeners = new Set<() => void>();
  private readonly pending = new Map<number, (result: TableResult<CommandTable, string>) => void>();
  private nextId = 1;

  constructor(private readonly port: WorkerPort) {
    port.addEventListener('message', (event) => this.receive(event.data));
  }

  private receive(event: FromWorker) {
    switch (event.type) {
      case 'status':
        this.update({ status: event.status });
        break;
      case 'keystores':
        this.update({ keystores: event.keystores });
        break;
      case 'tokens':
        this.update({ tokens: event.tokens });
        break;
      case 'certificates':
        this.update({
          certificates: { ...this.snapshot.certificates, [event.keystoreId]: event.certificates },
        });
        break;
      case 'result':
        this.pending.get(event.id)?.(event.result);
        this.pending.delete(event.id);
        break;
    }
  }

  private update(change: Partial<TrustAgentSnapshot>) {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): TrustAgentSnapshot => this.snapshot;

  start(): void {
    this.port.postMessage({ type: 'start' });
  }
  retry(): void {
    this.port.postMessage({ type: 'retry' });
  }
  pairAgain(): void {
    this.port.postMessage({ type: 'pairAgain' });
  }
  refresh(): void {
    this.port.postMessage({ type: 'refresh' });
  }

  /** Token polling while the caller watches; the returned function stops watching. */
  watchTokens(): () => void {
    this.port.postMessage({ type: 'watchTokens', watching: true });
    return () => this.port.postMessage({ type: 'watchTokens', watching: false });
  }

  command<C extends keyof T & string>(command: C, request: TableRequest<T, C>): Promise<TableResult<T, C>> {
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve) => {
      this.pending.set(id, resolve as (result: TableResult<CommandTable, string>) => void);
      this.port.postMessage({ type: 'command', id, command, request });
    });
  }
}

let worker: Worker | null = null;

/** One helper's side of the shared worker: messages to it carry its name, and only its events come back. */
function helperPort(helper: HelperName): WorkerPort {
  worker ??= new Worker(new URL('./agent.worker.ts', import.meta.url), {
    type: 'module',
    name: 'trust-agent',
  });
  const target = worker;
  return {
    postMessage: (message) => target.postMessage({ ...message, helper } satisfies Addressed<ToWorker>),
    addEventListener: (type, listener) =>
      target.addEventListener(type, (event: MessageEvent<Addressed<FromWorker>>) => {
        if (event.data.helper === helper) listener(event);
      }),
  };
}

let agent: TrustAgentClient | null = null;
let desktopClient: TrustAgentClient<DesktopClientCommands> | null = null;

/** One worker per page: every screen shares its sessions and its polling. */
export function trustAgentClient(): TrustAgentClient {
  agent ??= new TrustAgentClient(helperPort('agent'));
  return agent;
}

/** The desktop client (decision 021 §5), through the same worker. */
export function desktopClientClient(): TrustAgentClient<DesktopClientCommands> {
  desktopClient ??= new TrustAgentClient<DesktopClientCommands>(helperPort('desktopClient'));
  return desktopClient;
}
