import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hello,
  openSession,
  pairingStatus,
  requestPairing,
} from '../../../contract/trust-agent/client-session.ts';
import { TRUST_ASSISTANT_DOWNLOAD_VERSION as VERSION } from '../../../contract/trust-agent/constants.ts';
import { generateIdentityKeys } from '../../../contract/trust-agent/session-crypto.ts';
import { fetchFrom } from '../helpers.ts';
import { BUILD_TIMEOUT_MS, repositoryPackage } from './built.ts';

/** Ports of this suite's installed agent: never the browser stories' 8900 and 20404. */
const PORT = 8931;
const DESKTOP_CLIENT_PORT = 20431;
const ORIGIN = 'https://console.example';
const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';
const softhsm = existsSync(SOFTHSM_MODULE) && spawnSync('softhsm2-util', ['--version']).status === 0;

/**
 * What install.sh and the installed agent may use: the system's own tools, and not node or npm, which
 * this machine has (on /usr/bin) and a technician's computer need not.
 */
const SYSTEM_TOOLS = [
  'sh',
  'cat',
  'cp',
  'dirname',
  'grep',
  'id',
  'kill',
  'ln',
  'mkdir',
  'mv',
  'nohup',
  'printenv',
  'printf',
  'readlink',
  'rm',
  'sed',
  'sleep',
  'touch',
  'uname',
];

let home: string;
let bin: string;
let unpacked: string;
let softhsmConf: string;
const connection = { baseUrl: `http://127.0.0.1:${PORT}`, fetch: fetchFrom(ORIGIN) };

function environment(): NodeJS.ProcessEnv {
  return {
    HOME: home,
    PATH: bin,
    LANG: 'C.UTF-8',
    TRUST_AGENT_PORT: String(PORT),
    TRUST_AGENT_DESKTOP_CLIENT_PORT: String(DESKTOP_CLIENT_PORT),
    ...(softhsm
      ? { TRUST_AGENT_PKCS11_MODULES: `softhsm=${SOFTHSM_MODULE}`, SOFTHSM2_CONF: softhsmConf }
      : {}),
  };
}

const installed = () => path.join(home, '.local/lib/trust-assistant');
const state = () => path.join(home, '.local/state/trust-assistant');

/** The installed command, as the technician types it: `trust-assistant pairings`. */
/** The installed executable's own command against the running agent: what it printed, and whether it failed. */
function command(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(path.join(home, '.local/bin/trust-assistant'), args, {
    env: environment(),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function answering(): Promise<boolean> {
  try {
    await hello(connection);
    return true;
  } catch {
    return false;
  }
}

async function until(condition: () => Promise<boolean>, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}.`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function stopInstalledAgent(): Promise<void> {
  const pidFile = path.join(state(), 'agent.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number(await readFile(pidFile, 'utf8'));
  if (alive(pid)) process.kill(pid, 'SIGTERM');
  await until(async () => !alive(pid), 'the agent the installer started stopped');
}

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'trust-assistant-home-'));
  bin = path.join(home, 'system-bin');
  await mkdir(bin);
  for (const tool of SYSTEM_TOOLS) {
    const found = ['/usr/bin', '/bin'].map((dir) => path.join(dir, tool)).find((file) => existsSync(file));
    if (!found) throw new Error(`${tool} is not on this system.`);
    await symlink(found, path.join(bin, tool));
  }
  if (softhsm) {
    const tokens = path.join(home, 'softhsm-tokens');
    await mkdir(tokens);
    softhsmConf = path.join(home, 'softhsm2.conf');
    await writeFile(
      softhsmConf,
      `directories.tokendir = ${tokens}\nobjectstore.backend = file\nlog.level = ERROR\n`,
    );
    execFileSync(
      'softhsm2-util',
      ['--init-token', '--free', '--label', 'package test', '--so-pin', '87654321', '--pin', '123456'],
      { env: { ...process.env, SOFTHSM2_CONF: softhsmConf } },
    );
  }
  const built = await repositoryPackage('linux-x64');
  const downloads = path.join(home, 'Downloads');
  await mkdir(downloads);
  // Unpacked with the system's tar, as the README says.
  execFileSync('tar', ['-xzf', built.file, '-C', downloads]);
  unpacked = path.join(downloads, `trust-assistant-${VERSION}`);
}, BUILD_TIMEOUT_MS);

afterAll(async () => {
  if (home) {
    await stopInstalledAgent().catch(() => undefined);
    await rm(home, { recursive: true, force: true });
  }
});

describe('the Linux package, installed', () => {
  it('installs without Node.js or npm and starts the agent without a systemd user manager', async () => {
    const result = spawnSync(path.join(unpacked, 'install.sh'), ['--origin', ORIGIN], {
      env: environment(),
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^The trust assistant runs \(pid \d+, log .*agent\.log\) and starts at every desktop sign-in \(no systemd user manager here\)\.$/m,
    );

    expect(existsSync(path.join(installed(), 'trust-assistant'))).toBe(true);
    expect(existsSync(path.join(installed(), 'pkcs11.node'))).toBe(true);
    const link = path.join(home, '.local/bin/trust-assistant');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(path.join(installed(), 'trust-assistant'));
    expect(await readFile(path.join(home, '.config/autostart/trust-assistant.desktop'), 'utf8')).toContain(
      `Exec="${installed()}/run.sh"`,
    );
    const settings = await readFile(path.join(home, '.config/trust-assistant/agent.env'), 'utf8');
    expect(settings).toContain(`TRUST_AGENT_ALLOWED_ORIGINS='${ORIGIN}'\n`);
    expect(settings).toContain(`TRUST_AGENT_PORT='${PORT}'\n`);

    await until(answering, `the installed agent answered on ${PORT}`);
    expect(await hello(connection)).toMatchObject({
      product: 'trust-assistant',
      version: VERSION,
      os: 'linux',
      arch: 'x64',
      enabled: true,
    });
    expect(await readFile(path.join(state(), 'agent.log'), 'utf8')).toContain(
      `Trust agent ${VERSION} at http://127.0.0.1:${PORT} for ${ORIGIN}`,
    );
  }, 90_000);

  it('pairs a console once the installed command approves its code, and keeps keys for it', async () => {
    // The agent the installer started: no terminal, nothing on its standard input.
    const identity = await generateIdentityKeys();
    const started = await requestPairing(connection, ORIGIN, identity);
    expect(await pairingStatus(connection, started.response.pairingId)).toEqual({ status: 'pending' });
    // Its log, where the desktop user is told the code and the installed command that approves it.
    await until(
      async () => (await readFile(path.join(state(), 'agent.log'), 'utf8')).includes(started.code),
      'the pairing was announced in the log',
    );
    expect(await readFile(path.join(state(), 'agent.log'), 'utf8')).toContain(
      `it shows the code ${started.code}. If the codes match, approve it with: trust-assistant approve ${started.code.replace(/\D/g, '')}`,
    );
    expect(command('pairings')).toEqual({
      status: 0,
      output: expect.stringContaining(`${started.code}  ${ORIGIN}`),
    });
    expect(command('approve', '000000')).toEqual({ status: 1, output: 'No pairing waits with that code\n' });
    expect(command('approve', started.code)).toEqual({ status: 0, output: `Paired with ${ORIGIN}.\n` });
    expect(await pairingStatus(connection, started.response.pairingId)).toEqual({ status: 'approved' });

    const session = await openSession(connection, ORIGIN, identity, started.response.agentKey);
    const listed = await session.send('keystore', {});
    if (!listed.ok) throw new Error(`keystore failed: ${JSON.stringify(listed)}`);
    expect(listed.result.keystores).toContainEqual(
      expect.objectContaining({ id: 'software', type: 'PFX', library: null, slot: null }),
    );
    if (softhsm) {
      // pkcs11js's native module, loaded from beside the executable, reaches the token.
      expect(listed.result.keystores).toContainEqual(
        expect.objectContaining({ library: 'softhsm', status: 'INITIALIZED' }),
      );
    }
  }, 90_000);
});
