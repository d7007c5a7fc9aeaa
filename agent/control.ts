import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Pairings } from './pairing.ts';

/**
 * The desktop user's channel to a running agent: a Unix socket in the data directory (owner-only)
 * or, on Windows, a named pipe of the user. `npm run agent -- pairings | approve CODE | refuse CODE`
 * settles pairings when the agent runs as a service without a terminal to ask on.
 */
export function controlPath(dataDir: string): string {
  return process.platform === 'win32'
    ? `\\\\.\\pipe\\trust-assistant-${userInfo().username}`
    : path.join(dataDir, 'control.sock');
}

export type ControlRequest = { action: 'pairings' } | { action: 'approve' | 'refuse'; code: string };
export type ControlAnswer =
  | { pairings: { origin: string; code: string }[] }
  | { settled: { origin: string; status: string } }
  | { error: string };

export async function startControlChannel(
  dataDir: string,
  pairings: Pairings,
): Promise<{ close(): Promise<void> }> {
  const socketPath = controlPath(dataDir);
  if (process.platform !== 'win32') await rm(socketPath, { force: true });
  const server = createServer((socket) => {
    const lines = createInterface({ input: socket });
    lines.once('line', async (line) => {
      let answer: ControlAnswer;
      try {
        const request = JSON.parse(line) as ControlRequest;
        if (request.action === 'pairings') {
          answer = { pairings: pairings.waiting().map(({ origin, code }) => ({ origin, code })) };
        } else if (request.action === 'approve' || request.action === 'refuse') {
          const settled = await pairings.settleByCode(String(request.code), request.action === 'approve');
          answer = settled
            ? { settled: { origin: settled.origin, status: settled.status } }
            : { error: 'No pairing waits with that code' };
        } else {
          answer = { error: 'Unknown action' };
        }
      } catch {
        answer = { error: 'Not a control request' };
      }
      socket.end(`${JSON.stringify(answer)}\n`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  if (process.platform !== 'win32') await chmod(socketPath, 0o600);
  return {
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Sends one request to the running agent's control channel and returns its answer. */
export function sendControlRequest(dataDir: string, request: ControlRequest): Promise<ControlAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(controlPath(dataDir));
    socket.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT' || error.code === 'ECONNREFUSED'
          ? new Error(`No trust agent runs with the data directory ${dataDir}.`)
          : error,
      ),
    );
    const lines = createInterface({ input: socket });
    lines.once('line', (line) => resolve(JSON.parse(line)));
    socket.write(`${JSON.stringify(request)}\n`);
  });
}
