import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../../agent/config.ts';
import { sendControlRequest } from '../../agent/control.ts';
import type { PendingPairing } from '../../agent/pairing.ts';
import {
  AgentImpersonationError,
  AgentTransportError,
  hello,
  openSession,
  pairingStatus,
  requestPairing,
} from '../../contract/trust-agent/client-session.ts';
import { TRUST_AGENT_PROTOCOL } from '../../contract/trust-agent/constants.ts';
import type { DesktopClientCommands } from '../../contract/trust-agent/desktop-client.ts';
import { generateIdentityKeys, type IdentityKeys } from '../../contract/trust-agent/session-crypto.ts';
import { agentPaths, PROTOCOL_HEADER } from '../../contract/trust-agent/wire.ts';
import { CONSOLE_ORIGIN, fetchFrom, freePort, startTestAgent, type TestAgent } from './helpers.ts';

/** A raw request with any Host header (fetch always sends the real one). */
function rawRequest(
  port: number,
  options: {
    host: string;
    origin?: string;
    method?: string;
    path?: string;
    headers?: Record<string, string>;
  },
) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: options.method ?? 'GET',
          path: options.path ?? agentPaths.hello,
          headers: {
            Host: options.host,
            [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL,
            ...(options.origin ? { Origin: options.origin } : {}),
            ...options.headers,
          },
        },
        (response) => {
          let body = '';
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
          );
        },
      );
      request.once('error', reject);
      request.end();
    },
  );
}

async function pair(test: TestAgent, identity: IdentityKeys, origin = CONSOLE_ORIGIN) {
  const connection = { baseUrl: test.agent.url, fetch: fetchFrom(origin) };
  const started = await requestPairing(connection, origin, identity);
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const { status } = await pairingStatus(connection, started.response.pairingId);
    if (status !== 'pending') return { ...started, status };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('The pairing stayed pending');
}

describe('the trust agent transport', () => {
  let test: TestAgent;
  let identity: IdentityKeys;
  let agentKey: string;
  const connection = () => ({ baseUrl: test.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) });

  beforeAll(async () => {
    test = await startTestAgent({ preapprovedOrigins: [CONSOLE_ORIGIN] });
    identity = await generateIdentityKeys();
    const paired = await pair(test, identity);
    expect(paired.status).toBe('approved');
    agentKey = paired.response.agentKey;
  });
  afterAll(() => test.cleanUp());

  it('says who it is to an allowed origin, echoing that origin and never *', async () => {
    const response = await fetchFrom(CONSOLE_ORIGIN)(`${test.agent.url}${agentPaths.hello}`, {
      headers: { [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe(CONSOLE_ORIGIN);
    expect(response.headers.get('vary')).toContain('Origin');
    const body = await hello(connection());
    expect(body).toMatchObject({
      protocol: TRUST_AGENT_PROTOCOL,
      version: test.config.version,
      agentKey,
      enabled: true,
    });
  });

  it('refuses a foreign origin and a request without an origin, without CORS headers', async () => {
    for (const origin of ['https://evil.example', null]) {
      const response = await fetchFrom(origin)(`${test.agent.url}${agentPaths.hello}`, {
        headers: { [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL },
      });
      expect(response.status).toBe(403);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(await response.json()).toMatchObject({ error: { status: 403, code: 'originNotAllowed' } });
    }
  });

  it('refuses a forged Host (DNS rebinding), even from an allowed origin', async () => {
    for (const host of [
      `rebind.evil.example:${test.config.port}`,
      'evil.test',
      `127.0.0.1:${test.config.port + 1}`,
    ]) {
      const response = await rawRequest(test.config.port, { host, origin: CONSOLE_ORIGIN });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'hostNotAllowed' } });
    }
    const ok = await rawRequest(test.config.port, {
      host: `localhost:${test.config.port}`,
      origin: CONSOLE_ORIGIN,
    });
    expect(ok.status).toBe(200);
  });

  it('answers the CORS and private-network preflight for an allowed origin only', async () => {
    const preflight = {
      host: `127.0.0.1:${test.config.port}`,
      method: 'OPTIONS',
      path: agentPaths.sessions,
      headers: {
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': `content-type,${PROTOCOL_HEADER.toLowerCase()}`,
        'Access-Control-Request-Private-Network': 'true',
      },
    };
    const allowed = await rawRequest(test.config.port, { ...preflight, origin: CONSOLE_ORIGIN });
    expect(allowed.status).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(CONSOLE_ORIGIN);
    expect(allowed.headers['access-control-allow-private-network']).toBe('true');
    expect(String(allowed.headers['access-control-allow-headers'])).toContain(PROTOCOL_HEADER);
    const foreign = await rawRequest(test.config.port, { ...preflight, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-private-network']).toBeUndefined();
  });

  it('refuses a request without the protocol header, so that every call is preflighted', async () => {
    const response = await fetchFrom(CONSOLE_ORIGIN)(`${test.agent.url}${agentPaths.hello}`, {});
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'unsupportedProtocol' } });
  });

  it('runs commands in a session after the handshake', async () => {
    const session = await openSession(connection(), CONSOLE_ORIGIN, identity, agentKey);
    const initialized = await session.send('initialize', {});
    expect(initialized).toMatchObject({ ok: true, result: { agent: { version: test.config.version } } });
    const service = await session.send('service', {});
    expect(service.ok).toBe(true);
  });

  it('answers an unknown command, an invalid request and registerProvider with errors, not crashes', async () => {
    const session = await openSession(connection(), CONSOLE_ORIGIN, identity, agentKey);
    const unknown = await session.send('selfDestruct' as 'service', {});
    expect(unknown).toMatchObject({ ok: false, error: { code: 'unsupportedCommand' } });
    const invalid = await session.send('verifypin', { keystoreId: 'software', pin: 1 as unknown as string });
    expect(invalid).toMatchObject({ ok: false, error: { code: 'invalidRequest' } });
    const provider = await session.send('registerProvider', { library: '/tmp/evil.so' });
    expect(provider).toMatchObject({ ok: false, error: { code: 'unsupportedCommand' } });
    expect((await session.send('service', {})).ok).toBe(true);
  });

  it('refuses a console key that was never paired, and an unpaired origin', async () => {
    const stranger = await generateIdentityKeys();
    await expect(openSession(connection(), CONSOLE_ORIGIN, stranger, agentKey)).rejects.toMatchObject({
      status: 403,
      code: 'unpaired',
    });
  });

  it('refuses an agent impersonator that does not hold the pinned key', async () => {
    const impostor = await startTestAgent({ preapprovedOrigins: [CONSOLE_ORIGIN] });
    try {
      await pair(impostor, identity);
      const toImpostor = { baseUrl: impostor.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) };
      // It answers with its own key: not the pinned one.
      await expect(openSession(toImpostor, CONSOLE_ORIGIN, identity, agentKey)).rejects.toBeInstanceOf(
        AgentImpersonationError,
      );
      // It claims the pinned key: it cannot sign the transcript with it.
      const lying = {
        baseUrl: impostor.agent.url,
        fetch: async (input: string, init: RequestInit) => {
          const response = await fetchFrom(CONSOLE_ORIGIN)(input, init);
          if (!input.endsWith(agentPaths.sessions)) return response;
          const body = { ...(await response.json()), agentKey };
          return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
        },
      };
      await expect(openSession(lying, CONSOLE_ORIGIN, identity, agentKey)).rejects.toBeInstanceOf(
        AgentImpersonationError,
      );
    } finally {
      await impostor.cleanUp();
    }
  });

  it('refuses a console that claims a paired key without holding it', async () => {
    const thief = await generateIdentityKeys();
    // The thief sends the paired public key but signs with its own private key.
    const posing = { privateKey: thief.privateKey, publicKey: identity.publicKey };
    await expect(openSession(connection(), CONSOLE_ORIGIN, posing, agentKey)).rejects.toMatchObject({
      code: 'handshakeFailed',
    });
  });

  async function sealedRequest(sessionId: string, body: unknown) {
    return fetchFrom(CONSOLE_ORIGIN)(`${test.agent.url}${agentPaths.messages(sessionId)}`, {
      method: 'POST',
      headers: { [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  it('refuses a replayed sequence number, then a flipped bit closes the session', async () => {
    const captured: { body: string }[] = [];
    const recording = {
      baseUrl: test.agent.url,
      fetch: (input: string, init: RequestInit) => {
        if (input.includes('/messages')) captured.push({ body: String(init.body) });
        return fetchFrom(CONSOLE_ORIGIN)(input, init);
      },
    };
    const session = await openSession(recording, CONSOLE_ORIGIN, identity, agentKey);
    expect((await session.send('service', {})).ok).toBe(true);
    const first = JSON.parse(captured[0]?.body ?? '{}');
    const replay = await sealedRequest(session.sessionId, first);
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ error: { code: 'sequenceNotIncreasing' } });

    const ciphertext = Buffer.from(first.ciphertext, 'base64url');
    ciphertext.writeUInt8(ciphertext.readUInt8(3) ^ 0x40, 3);
    const flipped = await sealedRequest(session.sessionId, {
      ...first,
      seq: 7,
      ciphertext: ciphertext.toString('base64url'),
    });
    expect(flipped.status).toBe(400);
    expect(await flipped.json()).toMatchObject({ error: { code: 'messageRejected' } });
    await expect(session.send('service', {})).rejects.toMatchObject({ status: 401, code: 'sessionNotFound' });
  });

  it('refuses a truncated message and a malformed body, and keeps answering', async () => {
    const captured: string[] = [];
    const recording = {
      baseUrl: test.agent.url,
      fetch: (input: string, init: RequestInit) => {
        if (input.includes('/messages')) captured.push(String(init.body));
        return fetchFrom(CONSOLE_ORIGIN)(input, init);
      },
    };
    const session = await openSession(recording, CONSOLE_ORIGIN, identity, agentKey);
    await session.send('service', {});
    const first = JSON.parse(captured[0] ?? '{}');
    const truncated = await sealedRequest(session.sessionId, {
      ...first,
      seq: 2,
      ciphertext: first.ciphertext.slice(0, 30),
    });
    expect(truncated.status).toBe(400);
    for (const body of [
      '{"seq":',
      '[]',
      { seq: -1, command: 'x', iv: 'a', ciphertext: 'b' },
      { ...first, seq: 3, extra: 1 },
    ]) {
      const response = await fetchFrom(CONSOLE_ORIGIN)(
        `${test.agent.url}${agentPaths.messages(session.sessionId)}`,
        {
          method: 'POST',
          headers: { [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL, 'Content-Type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        },
      );
      expect([400, 401]).toContain(response.status);
    }
    const huge = await fetchFrom(CONSOLE_ORIGIN)(`${test.agent.url}${agentPaths.sessions}`, {
      method: 'POST',
      headers: { [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL, 'Content-Type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(3 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(400);
    expect((await hello(connection())).agentKey).toBe(agentKey);
  });

  it('keeps a session to the origin that opened it', async () => {
    const other = 'https://other-console.example';
    const twoOrigins = await startTestAgent({
      allowedOrigins: [CONSOLE_ORIGIN, other],
      preapprovedOrigins: [CONSOLE_ORIGIN],
    });
    try {
      const { response } = await pair(twoOrigins, identity);
      const session = await openSession(
        { baseUrl: twoOrigins.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) },
        CONSOLE_ORIGIN,
        identity,
        response.agentKey,
      );
      const stolen = await fetchFrom(other)(
        `${twoOrigins.agent.url}${agentPaths.messages(session.sessionId)}`,
        {
          method: 'POST',
          headers: { [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL, 'Content-Type': 'application/json' },
          body: JSON.stringify({
            seq: 9,
            command: 'service',
            iv: 'A'.repeat(22),
            ciphertext: 'A'.repeat(40),
          }),
        },
      );
      expect(stolen.status).toBe(401);
      // The paired key does not carry over to another origin either.
      await expect(
        openSession(
          { baseUrl: twoOrigins.agent.url, fetch: fetchFrom(other) },
          other,
          identity,
          response.agentKey,
        ),
      ).rejects.toMatchObject({ code: 'unpaired' });
      expect((await session.send('service', {})).ok).toBe(true);
    } finally {
      await twoOrigins.cleanUp();
    }
  });
});

describe('pairing on the desktop', () => {
  it('asks the desktop user with the code the console shows, and pairs only on approval', async () => {
    const asked: PendingPairing[] = [];
    let answer = false;
    const test = await startTestAgent(
      {},
      {
        prompts: [
          async (pairing) => {
            asked.push(pairing);
            return answer;
          },
        ],
      },
    );
    try {
      const identity = await generateIdentityKeys();
      const refused = await pair(test, identity);
      expect(refused.status).toBe('refused');
      expect(asked[0]?.code).toBe(refused.code);
      const connection = { baseUrl: test.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) };
      await expect(
        openSession(connection, CONSOLE_ORIGIN, identity, refused.response.agentKey),
      ).rejects.toBeInstanceOf(AgentTransportError);
      answer = true;
      const approved = await pair(test, identity);
      expect(approved.status).toBe('approved');
      const session = await openSession(connection, CONSOLE_ORIGIN, identity, approved.response.agentKey);
      expect((await session.send('service', {})).ok).toBe(true);
    } finally {
      await test.cleanUp();
    }
  });

  it('settles a waiting pairing by its code through the control channel', async () => {
    const test = await startTestAgent();
    try {
      const identity = await generateIdentityKeys();
      const connection = { baseUrl: test.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) };
      const started = await requestPairing(connection, CONSOLE_ORIGIN, identity);
      expect(await sendControlRequest(test.config.dataDir, { action: 'pairings' })).toEqual({
        pairings: [{ origin: CONSOLE_ORIGIN, code: started.code }],
      });
      expect(
        await sendControlRequest(test.config.dataDir, { action: 'approve', code: '000000x' }),
      ).toMatchObject({ error: expect.any(String) });
      await sendControlRequest(test.config.dataDir, { action: 'approve', code: started.code });
      expect(await pairingStatus(connection, started.response.pairingId)).toEqual({ status: 'approved' });
      // A pairing id is the asking origin's only.
      await expect(
        pairingStatus(
          { baseUrl: test.agent.url, fetch: fetchFrom('https://evil.example') },
          started.response.pairingId,
        ),
      ).rejects.toMatchObject({ status: 403 });
    } finally {
      await test.cleanUp();
    }
  });

  it('remembers pairings across restarts, in its data directory', async () => {
    const first = await startTestAgent({ preapprovedOrigins: [CONSOLE_ORIGIN] });
    const identity = await generateIdentityKeys();
    const { response } = await pair(first, identity);
    await first.agent.stop();
    const again = await startTestAgent({ dataDir: first.config.dataDir, port: first.config.port });
    try {
      const connection = { baseUrl: again.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) };
      expect((await hello(connection)).agentKey).toBe(response.agentKey);
      const session = await openSession(connection, CONSOLE_ORIGIN, identity, response.agentKey);
      expect((await session.send('service', {})).ok).toBe(true);
    } finally {
      await again.cleanUp();
      await first.cleanUp().catch(() => undefined);
    }
  });

  it('reports web access switched off and refuses pairing then', async () => {
    const test = await startTestAgent({ webAccess: false });
    try {
      const connection = { baseUrl: test.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) };
      expect((await hello(connection)).enabled).toBe(false);
      await expect(
        requestPairing(connection, CONSOLE_ORIGIN, await generateIdentityKeys()),
      ).rejects.toMatchObject({
        status: 403,
        code: 'agentDisabled',
      });
    } finally {
      await test.cleanUp();
    }
  });
});

describe('the desktop client beside the trust agent', () => {
  let test: TestAgent;
  let desktopClientPort: number;

  beforeAll(async () => {
    desktopClientPort = await freePort();
    test = await startTestAgent({ preapprovedOrigins: [CONSOLE_ORIGIN], desktopClientPort });
  });
  afterAll(async () => {
    await test.cleanUp();
  });

  it('answers on its own port with its own product and version, and the program’s key', async () => {
    expect(test.agent.desktopClientUrl).toBe(`http://127.0.0.1:${desktopClientPort}`);
    const agent = await hello({ baseUrl: test.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) });
    const client = await hello({
      baseUrl: test.agent.desktopClientUrl as string,
      fetch: fetchFrom(CONSOLE_ORIGIN),
    });
    expect(client).toMatchObject({
      product: 'desktop-client',
      version: '3.3.1',
      protocol: TRUST_AGENT_PROTOCOL,
    });
    expect(client.agentKey).toBe(agent.agentKey);
    // Its Host is its own port's: the agent's name does not reach it, nor a rebinding domain.
    expect(
      (await rawRequest(desktopClientPort, { host: `127.0.0.1:${test.config.port}`, origin: CONSOLE_ORIGIN }))
        .status,
    ).toBe(403);
    expect(
      (
        await rawRequest(desktopClientPort, {
          host: `localhost:${desktopClientPort}`,
          origin: CONSOLE_ORIGIN,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await rawRequest(desktopClientPort, {
          host: `localhost:${desktopClientPort}`,
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403);
  });

  it('keeps its sessions apart from the trust agent’s', async () => {
    const identity = await generateIdentityKeys();
    const paired = await pair(test, identity);
    expect(paired.status).toBe('approved');
    const agentSession = await openSession(
      { baseUrl: test.agent.url, fetch: fetchFrom(CONSOLE_ORIGIN) },
      CONSOLE_ORIGIN,
      identity,
      paired.response.agentKey,
    );
    // The same console key is paired with the program: the desktop client opens a session of its own.
    const clientSession = await openSession<DesktopClientCommands>(
      { baseUrl: test.agent.desktopClientUrl as string, fetch: fetchFrom(CONSOLE_ORIGIN) },
      CONSOLE_ORIGIN,
      identity,
      paired.response.agentKey,
    );
    expect(await clientSession.send('initialize', { environment: 'production' })).toMatchObject({
      ok: true,
      result: { agent: { product: 'desktop-client' } },
    });
    // A well-formed message of the agent's session is unknown on the desktop client's port.
    const envelope = { seq: 1, command: 'initialize', iv: 'A'.repeat(22), ciphertext: 'A'.repeat(40) };
    const foreign = await fetchFrom(CONSOLE_ORIGIN)(
      `${test.agent.desktopClientUrl}${agentPaths.messages(agentSession.sessionId)}`,
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', [PROTOCOL_HEADER]: TRUST_AGENT_PROTOCOL },
        body: JSON.stringify(envelope),
      },
    );
    expect(foreign.status).toBe(401);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe('sessionNotFound');
    await expect(
      openSession(
        { baseUrl: test.agent.desktopClientUrl as string, fetch: fetchFrom('https://other.example') },
        'https://other.example',
        identity,
        paired.response.agentKey,
      ),
    ).rejects.toBeInstanceOf(AgentTransportError);
  });

  it('is left out when switched off', () => {
    expect(loadAgentConfig({ TRUST_AGENT_DESKTOP_CLIENT: 'off' }).desktopClientPort).toBeNull();
    expect(loadAgentConfig({}).desktopClientPort).toBe(20404);
  });
});
