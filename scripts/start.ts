import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../server/config.ts';
import { runServer } from '../server/main.ts';

/** Inputs of the console build: a change in any of them makes the built console stale. */
const CONSOLE_SOURCES = [
  'src',
  'sw',
  'contract',
  'public',
  'index.html',
  'vite.config.ts',
  'lingui.config.ts',
];

async function newestMtime(target: string): Promise<number> {
  const info = await stat(target);
  if (!info.isDirectory()) return info.mtimeMs;
  const entries = await readdir(target, { withFileTypes: true });
  const times = await Promise.all(entries.map((entry) => newestMtime(path.join(target, entry.name))));
  return Math.max(info.mtimeMs, ...times);
}

async function consoleIsStale(distDir: string): Promise<boolean> {
  const index = path.join(distDir, 'index.html');
  if (!existsSync(index)) return true;
  const built = (await stat(index)).mtimeMs;
  const sources = await Promise.all(CONSOLE_SOURCES.filter((source) => existsSync(source)).map(newestMtime));
  return Math.max(...sources) > built;
}

const config = loadConfig();
if (await consoleIsStale(config.consoleDistDir)) {
  console.info('Building the console (vite build)…');
  const build = spawnSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build'], {
    stdio: 'inherit',
  });
  if (build.status !== 0) {
    console.error('The console build failed; see the output above.');
    process.exit(build.status ?? 1);
  }
}

await runServer();

// The trust agent runs beside the server once it exists; until then the console works without it.
const agentEntry = path.resolve('agent/main.ts');
if (existsSync(agentEntry)) await import(pathToFileURL(agentEntry).href);
