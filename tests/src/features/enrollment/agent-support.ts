import { act } from '@testing-library/react';
import type { CommandTable, TableOutcome } from '../../../../contract/trust-agent/commands.ts';
import type { Token } from '../../../../contract/trust-agent/entities.ts';
import { TrustAgentClient, type WorkerPort } from '../../../../src/trust-agent/client.ts';
import type { AgentCommands } from '../../../../src/trust-agent/helpers.ts';
import type { FromWorker, ToWorker } from '../../../../src/trust-agent/shared.ts';

/** The trust agent as the worker reports it, for the enrollment pages' tests. */
export const AGENT = {
  product: 'trust-assistant',
  version: '1.1.4',
  protocol: 'trust-agent/1',
  os: 'linux',
  arch: 'x64',
  enabled: true,
} as const;

export const RSA = [{ algorithm: 'RSA' as const, minKeySize: 1024, maxKeySize: 4096 }];
export const PIN_OK = { initialized: true, locked: false, retriesLeft: 5, finalTry: false };
/** An initialized token with its user PIN set: one a key can be made on. */
export const hardwareToken: Token = {
  keystoreId: 'softhsm:1',
  initialized: true,
  label: 'Field token',
  type: 'HWToken',
  manufacturer: 'SoftHSM project',
  model: 'SoftHSM v2',
  serial: '42',
  mechanisms: RSA,
  pin: PIN_OK,
};
/** A token not initialized, as SoftHSM2's free slot and a fresh smart card report it: no label, serial or PIN. */
export const uninitializedToken: Token = {
  ...hardwareToken,
  keystoreId: 'softhsm:slot-1',
  initialized: false,
  label: '',
  serial: '',
  pin: { ...PIN_OK, initialized: false, retriesLeft: null },
};

type Answer = (request: Record<string, unknown>) => TableOutcome<CommandTable, string>;

/** The worker's side played by the test: it reports the helper of `T`'s commands and answers them by name. */
export function fakeHelper<T extends CommandTable>(answers: Partial<Record<keyof T & string, Answer>>) {
  const byName: Partial<Record<string, Answer>> = answers;
  let listener: ((event: MessageEvent<FromWorker>) => void) | null = null;
  const commands: { command: string; request: Record<string, unknown> }[] = [];
  const emit = (data: FromWorker) => act(() => listener?.({ data } as MessageEvent<FromWorker>));
  const port: WorkerPort = {
    postMessage(message: ToWorker) {
      if (message.type !== 'command') return;
      const request = message.request as Record<string, unknown>;
      commands.push({ command: message.command, request });
      const answer = byName[message.command];
      const result = answer
        ? answer(request)
        : { ok: false as const, error: { code: 'unsupportedCommand' as const, message: '' } };
      queueMicrotask(() =>
        listener?.({ data: { type: 'result', id: message.id, result } } as MessageEvent<FromWorker>),
      );
    },
    addEventListener(_type, added) {
      listener = added;
    },
  };
  return { client: new TrustAgentClient<T>(port), emit, commands };
}

/** The trust agent played by the test. */
export function fakeAgent(answers: Partial<Record<keyof AgentCommands, Answer>>) {
  return fakeHelper<AgentCommands>(answers);
}

export const ok = <R>(result: R): TableOutcome<CommandTable, string> => ({ ok: true, result });
