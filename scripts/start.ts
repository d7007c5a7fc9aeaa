import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { loadAgentConfig } from '../agent/config.ts';
import { startAgent } from '../agent/server.ts';
import { CONSOLE_BASE_PATH } from '../contract/paths.ts';
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
  // Its few hundred lines of chunk sizes would scroll away the addresses printed next: they are
  // shown only when the build fails.
  console.info('Building the console into', config.consoleDistDir, '(about half a minute the first time)…');
  const started = performance.now();
  const build = spawnSync(
    process.execPath,
    [
      path.resolve('node_modules/vite/bin/vite.js'),
      'build',
      '--outDir',
      config.consoleDistDir,
      '--emptyOutDir',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (build.status !== 0) {
    process.stdout.write(build.stdout ?? '');
    process.stderr.write(build.stderr ?? '');
    console.error('The console build failed; see the output above.');
    process.exit(build.status ?? 1);
  }
  console.info(`Console built (${((performance.now() - started) / 1000).toFixed(1)} s).`);
}

await runServer();

/**
 * The trust assistant's packages for the Client tools page: the server publishes only what is
 * built, so `npm start` builds what is missing (about a minute the first time, Node.js for each
 * system from the npm registry) in a process of its own once the server answers, and the page lists
 * each package as it lands. Built packages are kept by their inputs, so later starts take a second.
 */
const consoleUrl = `${config.publicUrl}${CONSOLE_BASE_PATH}`;
const packaging = spawn(process.execPath, ['--import', 'tsx', 'scripts/package-agent.ts'], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, CLIENT_TOOLS_DIR: config.clientToolsDir },
});
let packagingOutput = '';
packaging.stdout.on('data', (chunk: Buffer) => {
  packagingOutput += chunk.toString();
});
packaging.stderr.on('data', (chunk: Buffer) => {
  packagingOutput += chunk.toString();
});
packaging.once('exit', (code) => {
  if (code === 0) {
    console.info(`The Client tools page offers the trust agent's packages. The console: ${consoleUrl}`);
  } else {
    process.stderr.write(packagingOutput);
    console.warn('The trust agent packages were not built; the Client tools page lists none.');
  }
});
process.once('exit', () => packaging.exitCode === null && packaging.kill());

/**
 * The trust agent beside the server: `npm start` is the whole product on one machine. It trusts this
 * console's own origins, keeps its data under DATA_DIR, and asks on this terminal before it pairs a
 * browser. TRUST_AGENT=off leaves it out (an agent of the user's own already runs, say).
 */
if (process.env.TRUST_AGENT !== 'off') {
  const consoleOrigins = [
    config.publicUrl,
    `http://localhost:${config.port}`,
    `http://127.0.0.1:${config.port}`,
  ];
  const agentConfig = loadAgentConfig({
    TRUST_AGENT_DATA_DIR: path.join(config.dataDir, 'trust-agent'),
    ...process.env,
    TRUST_AGENT_ALLOWED_ORIGINS: [process.env.TRUST_AGENT_ALLOWED_ORIGINS, ...consoleOrigins]
      .filter(Boolean)
      .join(','),
  });
  try {
    const agent = await startAgent(agentConfig);
    console.info(`Trust agent ${agentConfig.version} at ${agent.url} (data in ${agentConfig.dataDir})`);
    console.info(
      'When a browser first asks to use it, this terminal shows a code to compare with the page: answer y to allow it, or run the approve command it prints.',
    );
    if (agent.desktopClientUrl) console.info(`Desktop client at ${agent.desktopClientUrl}`);
  } catch (error) {
    const busy = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
    console.warn(
      busy
        ? `Port ${agentConfig.port} or ${agentConfig.desktopClientPort} is taken (another trust agent?): the console uses whatever agent answers there.`
        : `The trust agent did not start: ${error instanceof Error ? error.message : error}`,
    );
  }
}
