import { act } from '@testing-library/react';
import type { AgentCommand, CommandOutcome } from '../../../../contract/trust-agent/commands.ts';
import { TrustAgentClient, type WorkerPort } from '../../../../src/trust-agent/client.ts';
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

type Answer = (request: Record<string, unknown>) => CommandOutcome<AgentCommand>;

/** The worker's side played by the test: it reports the agent and answers commands by name. */
export function fakeAgent(answers: Partial<Record<AgentCommand, Answer>>) {
  let listener: ((event: MessageEvent<FromWorker>) => void) | null = null;
  const commands: { command: AgentCommand; request: Record<string, unknown> }[] = [];
  const emit = (data: FromWorker) => act(() => listener?.({ data } as MessageEvent<FromWorker>));
  const port: WorkerPort = {
    postMessage(message: ToWorker) {
      if (message.type !== 'command') return;
      const request = message.request as Record<string, unknown>;
      commands.push({ command: message.command, request });
      const answer = answers[message.command];
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
  return { client: new TrustAgentClient(port), emit, commands };
}

export const ok = <T>(result: T) => ({ ok: true as const, result }) as CommandOutcome<AgentCommand>;
