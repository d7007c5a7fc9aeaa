import { Agent, request } from 'node:http';

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  requests: number;
  concurrency: number;
}

/** One request on the agent's connections; answers the status once the body has been read. */
function send(agent: Agent, url: URL, headers: Record<string, string>, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers, method: body === undefined ? 'GET' : 'POST' }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
      response.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

/**
 * A fixed number of GETs from `concurrency` keep-alive connections. Any answer but 200 stops the run:
 * a rate of errors is not a rate of work.
 */
export async function load({ url, headers = {}, requests, concurrency }: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const latencies: number[] = [];
  let issued = 0;
  const connection = async (): Promise<void> => {
    while (issued < requests) {
      issued += 1;
      const started = performance.now();
      const status = await send(agent, target, headers);
      if (status !== 200) throw new Error(`GET ${target.pathname} answered ${status}`);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: concurrency }, connection));
  } finally {
    agent.destroy();
  }
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  return {
    requests,
    requestsPerSecond: requests / seconds,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
  };
}

export interface FloodOptions {
  url: string;
  concurrency: number;
  /** The body and headers of the `n`-th request. */
  next: (n: number) => { body: string; headers: Record<string, string> };
}

/**
 * POSTs from `concurrency` connections, one after another on each, until the answer of `stop()`:
 * how many of each status came back.
 */
export function flood({ url, concurrency, next }: FloodOptions): {
  stop: () => Promise<Map<number, number>>;
} {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const statuses = new Map<number, number>();
  let running = true;
  let sent = 0;
  const connection = async (): Promise<void> => {
    while (running) {
      const { body, headers } = next(sent++);
      const status = await send(agent, target, headers, body);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  const connections = Promise.all(Array.from({ length: concurrency }, connection));
  return {
    stop: async () => {
      running = false;
      await connections;
      agent.destroy();
      return statuses;
    },
  };
}
