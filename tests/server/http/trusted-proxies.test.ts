import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { clientAddress, isSecureRequest, warnOfUntrustedProxy } from '../../../server/http/client-address.ts';
import { parseTrustProxy, TrustedProxies, trustProxyWarning } from '../../../server/http/trusted-proxies.ts';

/** TRUST_PROXY names the proxies whose forwarded headers are believed (decision 031). */

/** What the server makes of a request from `peer` (its socket's address) with these headers. */
async function seen(trustProxy: string, peer: string, headers: Record<string, string> = {}) {
  const config = { trustProxy: parseTrustProxy(trustProxy) };
  const app = new Hono().get('/', (c) =>
    c.json({ client: clientAddress(c, config), secure: isSecureRequest(c, config) }),
  );
  // @hono/node-server's connection info reads the socket from the environment, as node serves it.
  const response = await app.request('/', { headers }, { incoming: { socket: { remoteAddress: peer } } });
  return (await response.json()) as { client: string | null; secure: boolean };
}

describe('TRUST_PROXY', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads addresses and CIDR ranges, IPv4 and IPv6, and refuses anything else at start', () => {
    const proxies = loadConfig({ TRUST_PROXY: '10.0.0.5, 10.0.1.0/24,fd00::/8' }).trustProxy;
    expect(proxies).toBeInstanceOf(TrustedProxies);
    if (!(proxies instanceof TrustedProxies)) return;
    expect(['10.0.0.5', '10.0.1.77', '::ffff:10.0.1.3', 'fd12::1'].map((a) => proxies.includes(a))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(['10.0.0.6', '10.0.2.1', 'fe80::1', 'proxy'].map((a) => proxies.includes(a))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY/);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('ignores a rotating X-Forwarded-For from a peer that is not a listed proxy', async () => {
    const clients = new Set<string | null>();
    for (let n = 0; n < 5; n++) {
      clients.add((await seen('10.0.0.5', '203.0.113.9', { 'X-Forwarded-For': `198.51.100.${n}` })).client);
    }
    expect([...clients]).toEqual(['203.0.113.9']);
    const direct = await seen('10.0.0.5', '203.0.113.9', { 'X-Forwarded-Proto': 'https' });
    expect(direct.secure).toBe(false);
  });

  it('reads the chain right to left past the listed proxies, whatever the client put on its left', async () => {
    const chain = { 'X-Forwarded-For': '1.2.3.4, 198.51.100.20, 10.0.0.6', 'X-Forwarded-Proto': 'https' };
    expect(await seen('10.0.0.5,10.0.0.6', '10.0.0.5', chain)).toEqual({
      client: '198.51.100.20',
      secure: true,
    });
    expect((await seen('10.0.0.0/24', '::ffff:10.0.0.5', chain)).client).toBe('198.51.100.20');
    expect((await seen('fd00::/8', 'fd00::5', { 'X-Forwarded-For': '2001:db8::7' })).client).toBe(
      '2001:db8::7',
    );
    // Garbage left of a listed proxy's hop: the hop is as far as anyone vouches.
    expect((await seen('10.0.0.5', '10.0.0.5', { 'X-Forwarded-For': 'forged, 10.0.0.5' })).client).toBe(
      '10.0.0.5',
    );
    // From a listed proxy without the header, the proxy is the client.
    expect((await seen('10.0.0.5', '10.0.0.5')).client).toBe('10.0.0.5');
  });

  it('keeps TRUST_PROXY=true working, trusting any peer, and says so at start', async () => {
    expect((await seen('true', '203.0.113.9', { 'X-Forwarded-For': 'a, 198.51.100.1' })).client).toBe(
      '198.51.100.1',
    );
    expect(trustProxyWarning(parseTrustProxy('true'))).toMatch(/any peer.*TRUST_PROXY=10\.0\.0\.5/s);
    expect(trustProxyWarning(parseTrustProxy('10.0.0.5'))).toBeNull();
    expect(trustProxyWarning(parseTrustProxy(''))).toBeNull();
  });

  it('warns once when X-Forwarded-For comes from a peer TRUST_PROXY does not name', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const app = new Hono()
      .use(warnOfUntrustedProxy({ trustProxy: parseTrustProxy('10.0.0.5') }))
      .get('/', (c) => c.text('ok'));
    const from = (peer: string) => ({ incoming: { socket: { remoteAddress: peer } } });
    const forwarded = { headers: { 'X-Forwarded-For': '198.51.100.1' } };
    await app.request('/', forwarded, from('10.0.0.5'));
    expect(warn).not.toHaveBeenCalled();
    await app.request('/', forwarded, from('203.0.113.9'));
    await app.request('/', forwarded, from('203.0.113.9'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).not.toContain('203.0.113.9');
  });
});
