import { BlockList, isIP } from 'node:net';

/**
 * The proxies whose X-Forwarded-For and X-Forwarded-Proto the server believes (decision 031):
 * addresses and CIDR ranges, IPv4 and IPv6, matched with node's `net.BlockList` (which also matches an
 * IPv4-mapped IPv6 peer, `::ffff:10.0.0.5`, against an IPv4 range).
 */
export class TrustedProxies {
  readonly entries: readonly string[];
  readonly #list = new BlockList();

  constructor(entries: readonly string[]) {
    this.entries = entries;
    for (const entry of entries) {
      const [address = '', prefix] = entry.split('/');
      const family = isIP(address);
      if (family === 0) throw new Error(`TRUST_PROXY: "${entry}" is not an IP address or CIDR range.`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) {
        this.#list.addAddress(address, type);
        continue;
      }
      const bits = Number(prefix);
      if (!/^\d+$/.test(prefix) || bits > (family === 4 ? 32 : 128)) {
        throw new Error(`TRUST_PROXY: "${entry}" has no valid prefix length.`);
      }
      this.#list.addSubnet(address, bits, type);
    }
  }

  includes(address: string | null | undefined): boolean {
    if (!address) return false;
    const family = isIP(address);
    return family !== 0 && this.#list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }

  /**
   * The client of a request from `peer` carrying `forwarded` (X-Forwarded-For): read right to left,
   * past every trusted proxy, to the first address none of them is. Each trusted proxy appended the
   * address it was reached from, so everything to the right of that address is vouched for and
   * everything to its left is whatever the client sent. A peer that is not a trusted proxy is the
   * client itself, whatever it says.
   */
  clientOf(peer: string | null, forwarded: string | undefined): string | null {
    if (!this.includes(peer) || forwarded === undefined) return peer;
    let client = peer;
    for (const hop of forwarded.split(',').reverse()) {
      const address = hop.trim();
      // Not an address: written by the client, so the hop to its right is as far as anyone vouches.
      if (isIP(address) === 0) break;
      client = address;
      if (!this.includes(address)) break;
    }
    return client;
  }
}

/**
 * TRUST_PROXY: empty or `false` trusts no proxy; `true` trusts whatever peer connects (the meaning it
 * had before proxies could be named, kept so an upgrade keeps working, and warned about at start);
 * otherwise a comma-separated list of addresses and CIDR ranges.
 */
export function parseTrustProxy(value: string | undefined): boolean | TrustedProxies {
  const text = value?.trim() ?? '';
  if (text === '' || text === 'false') return false;
  if (text === 'true') return true;
  return new TrustedProxies(
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  );
}

/** What the server says at start about TRUST_PROXY, or null when there is nothing to say. */
export function trustProxyWarning(trustProxy: boolean | TrustedProxies): string | null {
  if (trustProxy !== true) return null;
  return (
    'TRUST_PROXY=true trusts X-Forwarded-For from any peer: a client that reaches this server directly ' +
    'can name any address and escape the per-address limits. Set TRUST_PROXY to the addresses or CIDR ' +
    'ranges of your proxies instead, e.g. TRUST_PROXY=10.0.0.5,10.0.0.6 or TRUST_PROXY=10.0.0.0/24.'
  );
}
