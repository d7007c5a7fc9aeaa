import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { loadAgentConfig } from '../../agent/config.ts';
import { type RunningAgent, startAgent } from '../../agent/server.ts';
import { apiPaths } from '../../contract/paths.ts';
import type {
  EnrollmentCertificate,
  EnrollmentCertificateRequest,
  EnrollmentCreated,
} from '../../contract/schemas/enrollments.ts';
import type { Profile } from '../../contract/schemas/profile.ts';
import {
  type ClientSession,
  openSession,
  pairingStatus,
  requestPairing,
} from '../../contract/trust-agent/client-session.ts';
import type { CommandTable, commandSchemas } from '../../contract/trust-agent/commands.ts';
import { TRUST_AGENT_PORT } from '../../contract/trust-agent/constants.ts';
import { generateIdentityKeys } from '../../contract/trust-agent/session-crypto.ts';
import { signInThroughApi } from './accounts-api.ts';
import { ADMINISTRATOR } from './administrator.ts';
import { createProfileThroughApi } from './certificates-api.ts';
import { serverPort } from './environment.ts';
import { linkIn, type Mailbox } from './mailbox.ts';

export const SOFTHSM_MODULE = '/usr/lib/softhsm/libsofthsm2.so';

/** A fresh access token of the administrator: the stories' tokens live 15 s. */
export function administratorToken(request: APIRequestContext): Promise<string> {
  return signInThroughApi(request, { username: ADMINISTRATOR.username, password: ADMINISTRATOR.password });
}

/** A certificate profile of the administrator's own account, to enroll under. */
export async function enrollmentProfile(
  request: APIRequestContext,
  name: string,
): Promise<{ accountId: string; profileId: string }> {
  const token = await administratorToken(request);
  const profile = await request.get(apiPaths.profile, { headers: { Authorization: `Bearer ${token}` } });
  const accountId = ((await profile.json()) as Profile).primary_account_id as string;
  return { accountId, profileId: (await createProfileThroughApi(request, token, accountId, name)).id };
}

/**
 * An administrator enrolls a device under the profile; its technician receives the link by mail,
 * the same one the API answered.
 */
export async function createEnrollment(
  request: APIRequestContext,
  mailbox: Mailbox,
  under: { accountId: string; profileId: string },
  device: string,
): Promise<string> {
  const technician = `technician-${device.toLowerCase().replace(/\W+/g, '-')}@example.com`;
  const response = await request.post(apiPaths.enrollments.create, {
    headers: { Authorization: `Bearer ${await administratorToken(request)}` },
    data: {
      account_id: under.accountId,
      profile_id: under.profileId,
      seat: { kind: 'device', name: device, email: technician },
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { enrollment_url: shown } = (await response.json()) as EnrollmentCreated;
  const mailed = linkIn(await mailbox.waitForMail(technician)).href;
  expect(mailed).toBe(shown);
  return mailed;
}

export interface StoryAgent {
  agent: RunningAgent;
  /** The console's origin, paired without the desktop prompt. */
  origin: string;
  /** A scratch folder of the story's, removed with the agent. */
  dir: string;
  stop(): Promise<void>;
}

/**
 * The real trust agent in this process on its own port, paired with the console's origin, with
 * SoftHSM2 tokens of the story's own (their configuration and token directory in a temporary
 * folder; the module reads SOFTHSM2_CONF when the agent first loads it, in this process).
 */
export async function startStoryAgent(options: {
  tokens: readonly string[];
  pin: string;
  softwareKeystore: boolean;
  /** The version the agent reports, for the console's version gate; this build's own by default. */
  version?: string;
  /** A token whose security officer never set the user PIN (made after `tokens`, on the free slot). */
  tokenWithoutUserPin?: string;
  /** Off: no PKCS#11 module at all, as on a computer without a token reader. */
  hardwareTokens?: boolean;
  /** Also run the desktop client on its port (decision 021 §5). */
  desktopClient?: boolean;
}): Promise<StoryAgent> {
  const dir = await mkdtemp(path.join(tmpdir(), 'trust-agent-story-'));
  await mkdir(path.join(dir, 'tokens'));
  process.env.SOFTHSM2_CONF = path.join(dir, 'softhsm2.conf');
  await writeFile(
    process.env.SOFTHSM2_CONF,
    `directories.tokendir = ${path.join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`,
  );
  for (const label of options.tokens) {
    execFileSync(
      'softhsm2-util',
      ['--init-token', '--free', '--label', label, '--so-pin', '87654321', '--pin', options.pin],
      {
        stdio: 'ignore',
      },
    );
  }
  if (options.tokenWithoutUserPin) {
    // The first slot without a token is the free one SoftHSM2 keeps; no --init-pin leaves the user PIN unset.
    execFileSync(
      'pkcs11-tool',
      [
        '--module',
        SOFTHSM_MODULE,
        '--init-token',
        '--label',
        options.tokenWithoutUserPin,
        '--so-pin',
        '87654321',
      ],
      { stdio: 'ignore' },
    );
  }
  const origin = `http://localhost:${serverPort()}`;
  const config = loadAgentConfig({
    TRUST_AGENT_PORT: String(TRUST_AGENT_PORT),
    TRUST_AGENT_DATA_DIR: path.join(dir, 'agent'),
    TRUST_AGENT_PREAPPROVED_ORIGINS: origin,
    TRUST_AGENT_PKCS11_MODULES: options.hardwareTokens === false ? '' : `softhsm=${SOFTHSM_MODULE}`,
    TRUST_AGENT_SOFTWARE_KEYSTORE: options.softwareKeystore ? 'on' : 'off',
    // The desktop client's port is the machine's one too: only the stories that use it take it.
    TRUST_AGENT_DESKTOP_CLIENT: options.desktopClient ? 'on' : 'off',
  });
  const agent = await startAgent({
    ...config,
    version: options.version ?? config.version,
    interactive: false,
    desktopNotifications: false,
  });
  return {
    agent,
    origin,
    dir,
    async stop() {
      await agent.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A session with the story's agent (or its desktop client at `baseUrl`) as the console's origin,
 * which the story agent pre-approves: the story acts as a client of its own, from Node.
 */
export async function openStorySession<T extends CommandTable = typeof commandSchemas>(
  story: StoryAgent,
  baseUrl: string,
): Promise<ClientSession<T>> {
  const { origin } = story;
  const connection = {
    baseUrl,
    fetch: (input: string, init: RequestInit) =>
      fetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), Origin: origin } }),
  };
  const identity = await generateIdentityKeys();
  const pairing = await requestPairing(connection, origin, identity);
  expect((await pairingStatus(connection, pairing.response.pairingId)).status).toBe('approved');
  return openSession<T>(connection, origin, identity, pairing.response.agentKey);
}

/**
 * A device's enrollment whose certificate was requested through the public API, as a client of the
 * enrollee does, for the CSR `csrFor` makes: what the browser then installs from the link.
 */
export async function enrollmentIssuedFor(
  request: APIRequestContext,
  under: { accountId: string; profileId: string },
  name: string,
  method: EnrollmentCertificateRequest['enrollment_method'],
  csrFor: (commonName: string) => Promise<string>,
): Promise<{ id: string; code: string; certificate: EnrollmentCertificate }> {
  const created = await request.post(apiPaths.enrollments.create, {
    headers: { Authorization: `Bearer ${await administratorToken(request)}` },
    data: {
      account_id: under.accountId,
      profile_id: under.profileId,
      seat: { kind: 'device', name, email: 'technician@example.com' },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { enrollment, enrollment_url } = (await created.json()) as EnrollmentCreated;
  const code = new URL(enrollment_url).pathname.split('/').at(-1) as string;
  const issued = await request.post(apiPaths.enrollments.certificate(enrollment.id, code), {
    data: {
      name: `${name} ${Date.now().toString(36)}`,
      end_date: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10),
      csr: await csrFor(name),
      common_name: name,
      enrollment_method: method,
      keystore_type: 'HARDWARE_TOKEN',
    },
  });
  expect(issued.status(), await issued.text()).toBe(201);
  return { id: enrollment.id, code, certificate: (await issued.json()) as EnrollmentCertificate };
}

/** The objects on a SoftHSM2 token, as pkcs11-tool lists them once logged in. */
export function tokenObjects(label: string, pin: string): string {
  return execFileSync(
    'pkcs11-tool',
    ['--module', SOFTHSM_MODULE, '--token-label', label, '--list-objects', '--login', '--pin', pin],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
}
