import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadAgentConfig } from '../agent/config.ts';
import { type RunningAgent, startAgent } from '../agent/server.ts';
import { AGENT_VERSION } from '../agent/version.ts';
import { LOGIN_PATH } from '../contract/paths.ts';
import { encodeSignInState } from '../contract/schemas/identity.ts';
import { TRUST_AGENT_PORT } from '../contract/trust-agent/constants.ts';
import { assertAccessible, expect, test } from './fixtures.ts';
import { assertOnAccounts } from './pages/shell.ts';
import { fillSignInSteps, goToSignIn } from './pages/sign-in.ts';
import {
  assertTrustAgentNotInstalled,
  assertTrustAgentNotRunning,
  assertTrustAgentOutdated,
  assertTrustAgentReady,
  clearTrustAgentPairing,
  goToClientTools,
} from './pages/trust-agent.ts';
import { ADMINISTRATOR } from './support/administrator.ts';
import { serverPort } from './support/environment.ts';

let dataDir = '';
let agent: RunningAgent | null = null;

/** The real agent, in this process, on its port; the console's origin pairs without the desktop prompt. */
async function startTrustAgent(version?: string): Promise<void> {
  const config = loadAgentConfig({
    TRUST_AGENT_PORT: String(TRUST_AGENT_PORT),
    TRUST_AGENT_DATA_DIR: dataDir,
    TRUST_AGENT_PREAPPROVED_ORIGINS: `http://localhost:${serverPort()}`,
  });
  agent = await startAgent({
    ...config,
    interactive: false,
    desktopNotifications: false,
    ...(version ? { version } : {}),
  });
}

async function stopTrustAgent(): Promise<void> {
  await agent?.stop();
  agent = null;
}

test.beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'trust-agent-e2e-'));
});

test.afterAll(async () => {
  await stopTrustAgent();
  await rm(dataDir, { recursive: true, force: true });
});

test('the client tools page shows the trust agent on this computer, and what to do when it is stopped, missing or outdated', async ({
  page,
}) => {
  await test.step('with the agent running, the panel shows its version and keystores', async () => {
    await startTrustAgent();
    await goToSignIn(page);
    await fillSignInSteps(page, ADMINISTRATOR);
    await assertOnAccounts(page);
    await goToClientTools(page);
    await assertTrustAgentReady(page, AGENT_VERSION);
    await assertAccessible(page);
  });

  await test.step('a sign-in the trust agent asked for ends on the page that says the agent is connected', async () => {
    await page.goto(`${LOGIN_PATH}?state=${encodeSignInState({ trust_agent_request: true })}`);
    await expect(page.getByRole('heading', { name: 'You are signed in' })).toBeVisible();
    await expect(
      page.getByText(`The trust agent ${AGENT_VERSION} on this computer is connected to this console.`, {
        exact: false,
      }),
    ).toBeVisible();
    await assertAccessible(page);
    // The page renews its session as it starts; a reload before that answer arrives would present
    // the spent refresh cookie again, which the platform takes for reuse and ends the session.
    await goToClientTools(page);
    await assertTrustAgentReady(page, AGENT_VERSION);
  });

  await test.step('the agent stops: this browser paired with it before, so it is not running', async () => {
    await stopTrustAgent();
    await page.reload();
    await assertTrustAgentNotRunning(page);
    await assertAccessible(page);
  });

  await test.step('without the pairing either, the page asks to install the agent', async () => {
    await clearTrustAgentPairing(page);
    await page.reload();
    await assertTrustAgentNotInstalled(page);
    await assertAccessible(page);
  });

  await test.step('an agent 1.0.1 appears: too old for the software keystore', async () => {
    await startTrustAgent('1.0.1');
    await assertTrustAgentOutdated(page, '1.0.1', '1.0.2');
    await assertAccessible(page);
  });
});
