import { createServer } from 'node:http';

/**
 * The floor the platform API is compared with: Node's own HTTP server answering a small JSON body,
 * in a process of its own like the real server. Prints its port once it listens.
 */
const body = JSON.stringify({ id: 'baseline', first_name: 'Ada', last_name: 'Lovelace', permissions: [] });

const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  response.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
