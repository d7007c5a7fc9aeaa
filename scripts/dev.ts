import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

/**
 * The API under `tsx watch` (restarts on server changes) and Vite's dev server, which proxies the
 * API paths to it. Ending either, or this script, ends both.
 */
const children: ChildProcess[] = [
  spawn(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'watch', 'server/main.ts'], {
    stdio: 'inherit',
  }),
  spawn(process.execPath, [path.resolve('node_modules/vite/bin/vite.js')], { stdio: 'inherit' }),
];

let ending = false;
function endAll(code: number): void {
  if (ending) return;
  ending = true;
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }
  process.exitCode = code;
}

for (const child of children) child.once('exit', (code) => endAll(code ?? 0));
process.once('SIGINT', () => endAll(0));
process.once('SIGTERM', () => endAll(0));
