import { randomUUID, webcrypto } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CLIENT_AUTH_POLICY } from '../contract/certificate-policy.ts';
import { apiPaths } from '../contract/paths.ts';
import type { Enrollment, EnrollmentCreated } from '../contract/schemas/enrollments.ts';
import type { Profile } from '../contract/schemas/profile.ts';
import { x509 } from '../server/ca/x509.ts';
import { signedInToken, startPlatform } from './servers.ts';

/**
 * The attacks of decision 031 against the real server, each for `ATTACK_SECONDS` while the real user
 * signs in (from the browser they signed in from before) and goes through a new enrollment link (open,
 * issue, redeem) about once a second. The server trusts one proxy, 127.0.0.5; the office the real
 * user works from is 192.0.2.10 behind it. Loopback is a /8 on Linux, so a client picks its source
 * address with `localAddress`, and an attacker reaching the server directly comes from 127.0.0.9.
 *
 * Printed per attack: the attacker's requests and answers, the codes the server checked against a
 * real enrollment (the rise of their `failed_attempts`) and the passwords it checked (401 answers)
 * per minute, and how many of the real user's sign-ins and enrollments succeeded.
 */

const ATTACK_SECONDS = Number(process.env.BENCH_ATTACK_SECONDS ?? 20);
const ATTACKER_CONNECTIONS = 8;
const PROXY = '127.0.0.5';
const DIRECT = '127.0.0.9';
const OFFICE = '192.0.2.10';
const PASSWORD = 'Bench-mark-2025!';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const agents = new Map<string, Agent>();
function agentFrom(localAddress: string): Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new Agent({ keepAlive: true, localAddress });
    agents.set(localAddress, agent);
  }
  return agent;
}

function send(
  origin: string,
  from: string,
  method: string,
  pathname: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(pathname, origin),
      {
        method,
        agent: agentFrom(from),
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function csrPem(): Promise<string> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, false, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: 'CN=bench',
    keys,
    signingAlgorithm: algorithm,
  });
  return csr.toString('pem');
}

type Attack = (n: number) => Promise<number>;

interface Platform {
  origin: string;
  token: string;
  accountId: string;
  profileId: string;
  userName: string;
  deviceCookie: string;
}

async function admin(platform: Platform, method: string, pathname: string, body?: unknown): Promise<unknown> {
  const answer = await send(platform.origin, PROXY, method, pathname, {
    headers: { authorization: `Bearer ${platform.token}`, 'x-forwarded-for': '198.18.0.1' },
    body,
  });
  if (answer.status >= 300) throw new Error(`${method} ${pathname}: ${answer.status} ${answer.body}`);
  return answer.body === '' ? null : JSON.parse(answer.body);
}

async function newEnrollment(platform: Platform, name: string): Promise<{ id: string; code: string }> {
  const created = (await admin(platform, 'POST', apiPaths.enrollments.create, {
    account_id: platform.accountId,
    profile_id: platform.profileId,
    seat: { kind: 'device', name, email: 'bench@example.com' },
  })) as EnrollmentCreated;
  return {
    id: created.enrollment.id,
    code: new URL(created.enrollment_url).pathname.split('/').at(-1) ?? '',
  };
}

/** The real user at the office: sign in from their browser, then one enrollment link end to end. */
async function realUserRound(platform: Platform, round: number, target: { current: string }) {
  const office = { 'x-forwarded-for': OFFICE };
  const signIn = await send(platform.origin, PROXY, 'POST', apiPaths.identity.login, {
    headers: { ...office, cookie: platform.deviceCookie },
    body: { username: platform.userName, password: PASSWORD },
  });
  const enrollment = await newEnrollment(platform, `Office laptop ${round}`);
  target.current = enrollment.id;
  // Give the attacker on this enrollment a moment before its enrollee opens the link.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const link = (method: string, pathname: string, body?: unknown) =>
    send(platform.origin, PROXY, method, pathname, { headers: office, body });
  // The enrollment page's three calls, each only once the one before succeeded.
  const steps = [
    { expected: 200, call: () => link('GET', apiPaths.enrollments.byCode(enrollment.id, enrollment.code)) },
    {
      expected: 201,
      call: async () =>
        link('POST', apiPaths.enrollments.certificate(enrollment.id, enrollment.code), {
          name: `Office laptop ${round}`,
          end_date: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10),
          csr: await csrPem(),
          common_name: `office-laptop-${round}`,
          enrollment_method: 'DTA',
          keystore_type: 'DTM_SOFTWARE',
        }),
    },
    { expected: 204, call: () => link('PUT', apiPaths.enrollments.redeem(enrollment.id, enrollment.code)) },
  ];
  let enrolled = true;
  for (const step of steps) {
    if ((await step.call()).status !== step.expected) {
      enrolled = false;
      break;
    }
  }
  return { signedIn: signIn.status === 200, enrolled, enrollmentId: enrollment.id };
}

async function failedAttempts(platform: Platform, ids: readonly string[]): Promise<number> {
  let total = 0;
  for (const id of ids)
    total += ((await admin(platform, 'GET', apiPaths.enrollments.byId(id))) as Enrollment).failed_attempts;
  return total;
}

async function runAttack(
  platform: Platform,
  name: string,
  attack: (target: { current: string }, decoys: readonly string[]) => Attack,
) {
  const target = { current: '' };
  const decoys = [await newEnrollment(platform, 'Decoy 1'), await newEnrollment(platform, 'Decoy 2')];
  const statuses = new Map<number, number>();
  let stopped = false;
  let counter = 0;
  const send = attack(
    target,
    decoys.map((decoy) => decoy.id),
  );
  const loops = Array.from({ length: ATTACKER_CONNECTIONS }, async () => {
    while (!stopped) {
      const status = await send(counter++);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  const started = performance.now();
  const targets: string[] = decoys.map((decoy) => decoy.id);
  let rounds = 0;
  let signedIn = 0;
  let enrolled = 0;
  while (performance.now() - started < ATTACK_SECONDS * 1000) {
    const round = await realUserRound(platform, rounds, target);
    targets.push(round.enrollmentId);
    rounds += 1;
    signedIn += Number(round.signedIn);
    enrolled += Number(round.enrolled);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  stopped = true;
  await Promise.all(loops);
  const minutes = (performance.now() - started) / 60_000;
  const checkedCodes = await failedAttempts(platform, targets);
  const answered = [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} × ${status}`);
  const perMinute = (count: number) => (count / minutes).toFixed(1);
  console.info(`\n${name}`);
  console.info(
    `  attacker: ${counter} requests in ${(minutes * 60).toFixed(0)} s, answered ${answered.join(', ')}`,
  );
  console.info(
    `  checked guesses: ${perMinute(checkedCodes)} codes/min against real enrollments, ` +
      `${perMinute(statuses.get(401) ?? 0)} passwords/min`,
  );
  console.info(`  real user: ${signedIn}/${rounds} sign-ins, ${enrolled}/${rounds} enrollments succeeded`);
}

export async function benchThrottles(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-throttles-'));
  const server = await startPlatform(dataDir, '', { TRUST_PROXY: PROXY });
  try {
    const token = await signedInToken(server.origin, dataDir);
    const partial = {
      origin: server.origin,
      token,
      accountId: '',
      profileId: '',
      userName: 'bench',
      deviceCookie: '',
    };
    partial.accountId = ((await admin(partial, 'GET', apiPaths.profile)) as Profile)
      .primary_account_id as string;
    partial.profileId = (
      (await admin(partial, 'POST', apiPaths.certificateProfiles.profiles, {
        account_id: partial.accountId,
        name: 'Throttle benchmark',
        description: 'npm run bench throttles',
        policy: CLIENT_AUTH_POLICY,
      })) as { id: string }
    ).id;
    // The real user's browser has signed in from the office before: it holds its device cookie.
    const first = await send(server.origin, PROXY, 'POST', apiPaths.identity.login, {
      headers: { 'x-forwarded-for': OFFICE },
      body: { username: 'bench', password: PASSWORD },
    });
    const cookies = ([] as string[]).concat(first.headers['set-cookie'] ?? []);
    partial.deviceCookie = cookies
      .filter((cookie) => cookie.includes('trusted_device='))
      .map((cookie) => cookie.split(';')[0])
      .join('; ');
    const platform: Platform = partial;
    const wrongCode = (from: string, forwardedFor: string, id: string) =>
      send(server.origin, from, 'GET', apiPaths.enrollments.byCode(id, 'A'.repeat(26)), {
        headers: { 'x-forwarded-for': forwardedFor },
      }).then((answer) => answer.status);
    const wrongPassword = (from: string, forwardedFor: string, n: number) =>
      send(server.origin, from, 'POST', apiPaths.identity.login, {
        headers: { 'x-forwarded-for': forwardedFor },
        body: { username: `made-up-${n}`, password: 'Not-the-password-1' },
      }).then((answer) => answer.status);
    const rotating = (n: number) => `198.51.${(n >> 8) & 255}.${n & 255}`;

    console.info(
      `\nThrottles: ${ATTACK_SECONDS} s per attack, ${ATTACKER_CONNECTIONS} attacker connections (PGlite)`,
    );
    await runAttack(
      platform,
      '1. wrong enrollment codes from the office address, made-up and real enrollments',
      (_, decoys) => (n) =>
        wrongCode(PROXY, OFFICE, n % 2 === 0 ? randomUUID() : (decoys[n % decoys.length] ?? randomUUID())),
    );
    await runAttack(
      platform,
      "2. wrong codes for the enrollee's own enrollment, each from another address",
      (target) => (n) => wrongCode(PROXY, rotating(n), target.current || randomUUID()),
    );
    await runAttack(
      platform,
      '3. failed sign-ins with made-up names from the office address',
      () => (n) => wrongPassword(PROXY, OFFICE, n),
    );
    await runAttack(
      platform,
      '4. rotating X-Forwarded-For sent straight to the server, codes and sign-ins',
      (target) => (n) =>
        n % 2 === 0
          ? wrongCode(DIRECT, rotating(n), target.current || randomUUID())
          : wrongPassword(DIRECT, rotating(n), n),
    );
  } finally {
    for (const agent of agents.values()) agent.destroy();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
