import { trustAgentUrl } from '../../contract/trust-agent/constants.ts';
import { AgentConnection } from './agent-connection.ts';
import { indexedDbStore } from './identity-store.ts';
import type { FromWorker, ToWorker } from './shared.ts';

/**
 * The agent worker: the console's identity key, the pinned agent keys and the session keys live
 * here and never cross to the page, which gets only statuses, entities and command outcomes.
 */
/** The parts of a dedicated worker's global scope used here (the app compiles against the DOM's types). */
interface WorkerScope {
  location: Location;
  postMessage(message: FromWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
}
const scope = self as unknown as WorkerScope;
const agentUrl = trustAgentUrl();
const origin = scope.location.origin;
const connection = new AgentConnection({
  agentUrl,
  fetch: (input, init) => fetch(input, init),
  origin,
  store: indexedDbStore(),
  emit: (event: FromWorker) => scope.postMessage(event),
});

scope.addEventListener('message', (event: MessageEvent<ToWorker>) => {
  const message = event.data;
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
      void connection.run(message.command, message.request).then((result) => {
        scope.postMessage({ type: 'result', id: message.id, result } satisfies FromWorker);
      });
      break;
  }
});
