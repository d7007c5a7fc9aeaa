import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { assertAccessible, expect, test } from './fixtures.ts';
import {
  assertCertificateShown,
  fillNewSoftwareKeystore,
  fillPin,
  goToEnrollmentLink,
  issueCertificate,
} from './pages/enrollment.ts';
import { readPairingCode } from './pages/trust-agent.ts';
import { serverPort } from './support/environment.ts';
import { createEnrollment, enrollmentProfile } from './support/trust-agent.ts';

const SOFTWARE_PIN = '86421357';
const RUN = Date.now().toString(36);

let dataDir = '';
let agent: ChildProcess | null = null;
let agentLog = '';

/** The agent's own command line (`pairings`, `approve CODE`), as the desktop user runs it beside the service. */
async function agentCommand(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'agent/main.ts', ...args, '--data-dir', dataDir],
    { encoding: 'utf8' },
  );
  return stdout;
}

/**
 * The agent as a service runs it: a process of its own in a session of its own, with no terminal
 * and nothing on its standard input, writing to a log. Nothing pairs it in advance.
 */
async function startDetachedAgent(origin: string): Promise<void> {
  agent = spawn(
    process.execPath,
    ['--import', 'tsx', 'agent/main.ts', '--allow-origin', origin, '--data-dir', dataDir],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TRUST_AGENT_DESKTOP_CLIENT: 'off' },
    },
  );
  agent.stdout?.on('data', (chunk: Buffer) => {
    agentLog += chunk.toString();
  });
  agent.stderr?.on('data', (chunk: Buffer) => {
    agentLog += chunk.toString();
  });
  await expect.poll(() => agentLog, { timeout: 30_000 }).toContain('Trust agent');
}

test.beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'installed-agent-'));
});

test.afterAll(async () => {
  if (agent?.pid) {
    const exited = new Promise((resolve) => agent?.once('exit', resolve));
    process.kill(-agent.pid, 'SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
});

test('a technician pairs the console with an agent running as a service, approves it from the command line and enrolls', async ({
  page,
  request,
  mailbox,
}) => {
  const origin = `http://localhost:${serverPort()}`;
  await startDetachedAgent(origin);
  const device = `Service laptop ${RUN}`;
  const link = await createEnrollment(
    request,
    mailbox,
    await enrollmentProfile(request, `Service ${RUN}`),
    device,
  );

  const code =
    await test.step('the page shows a pairing code, which waits for the desktop user', async () => {
      await goToEnrollmentLink(page, link);
      const shown = await readPairingCode(page);
      await expect(page.getByText(`trust-assistant approve ${shown.replace(/\D/g, '')}`)).toBeVisible();
      await assertAccessible(page);
      // The service's log names the page, the code and how to approve it.
      await expect
        .poll(() => agentLog)
        .toContain(`${origin} asks to use this trust agent; it shows the code ${shown}`);
      expect(agentLog).toContain(`approve ${shown.replace(/\D/g, '')} --data-dir`);
      expect(await agentCommand('pairings')).toContain(`${shown}  ${origin}`);
      return shown;
    });

  await test.step('approved with the agent’s command, the page goes on to the keystore', async () => {
    expect(await agentCommand('approve', code)).toContain(`Paired with ${origin}.`);
    await fillNewSoftwareKeystore(page, SOFTWARE_PIN);
    await fillPin(page, SOFTWARE_PIN);
    const issued = await issueCertificate(page);
    await assertCertificateShown(page, device, issued.serial_number);
    await assertAccessible(page);
  });

  await test.step('a code nobody asked for is refused by the command, which says so', async () => {
    await expect(agentCommand('approve', '000000')).rejects.toMatchObject({
      stderr: expect.stringContaining('No pairing waits with that code'),
    });
  });
});
