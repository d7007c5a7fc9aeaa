import type { CommandTable } from '../../contract/trust-agent/commands.ts';
import { AgentConnection } from './agent-connection.ts';
import { DESKTOP_CLIENT_HELPER, type HelperName, type LocalHelper, TRUST_AGENT_HELPER } from './helpers.ts';
import { indexedDbStore } from './identity-store.ts';
import type { Addressed, FromWorker, ToWorker } from './shared.ts';

/**
 * The agent worker: the console's identity key, the pinned keys of the local helpers (the trust
 * agent and the desktop client) and the session keys live here and never cross to the page, which
 * gets only statuses, entities and command outcomes, each named by its helper.
 */
/** The parts of a dedicated worker's global scope used here (the app compiles against the DOM's types). */
interface WorkerScope {
  location: Location;
  postMessage(message: Addressed<FromWorker>): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<Addressed<ToWorker>>) => void): void;
}
const scope = self as unknown as WorkerScope;
const origin = scope.location.origin;
const store = indexedDbStore();

function connect<T extends CommandTable>(name: HelperName, helper: LocalHelper<T>) {
  return new AgentConnection({
    helper,
    fetch: (input, init) => fetch(input, init),
    origin,
    store,
    emit: (event) => scope.postMessage({ ...event, helper: name }),
  });
}
// A helper a page never asks for is never looked for: each starts on its first `start`.
const connections = {
  agent: connect('agent', TRUST_AGENT_HELPER),
  desktopClient: connect('desktopClient', DESKTOP_CLIENT_HELPER),
};

scope.addEventListener('message', (event) => {
  const message = event.data;
  const connection = connections[message.helper];
  switch (message.type) {
    case 'start':
      connection.start();
      break;
    case 'retry':
      connection.retry();
      break;
    case 'pairAgain':
      void connection.pairAgain();
      break;
    case 'watchTokens':
      connection.watchTokens(message.watching);
      break;
    case 'refresh':
      void connection.refresh();
      break;
    case 'command':
      void connection.runUnchecked(message.command, message.request).then((result) => {
        scope.postMessage({ type: 'result', id: message.id, result, helper: message.helper });
      });
      break;
  }
});
