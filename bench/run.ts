import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACCOUNTS_LIST_PATH, apiPaths, LOGIN_PATH } from '../contract/paths.ts';
import { buildConsole, screenSize } from './bundle-size.ts';
import { type LoadResult, load } from './load.ts';
import { signedInToken, startBaseline, startPlatform } from './servers.ts';

/**
 * `npm run bench [size|http]`: what the console costs to load and what one authenticated API call
 * costs to serve. Speed is printed against a baseline measured in the same run, never as a verdict
 * on wall-clock time; only the sign-in page's size has a budget.
 */
const SIGN_IN_BUDGET_BYTES = 120 * 1024;
const REQUESTS = 5_000;
const WARM_UP_REQUESTS = 500;
const CONCURRENCY = 50;

const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

function benchSize(): boolean {
  const outDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-build-'));
  try {
    buildConsole(outDir);
    const signIn = screenSize(outDir, 'sign-in', LOGIN_PATH);
    const accounts = screenSize(outDir, 'accounts (secure shell)', ACCOUNTS_LIST_PATH);
    const withinBudget = signIn.gzipBytes <= SIGN_IN_BUDGET_BYTES;
    console.info('\nJavaScript loaded before the first screen renders (gzip, KB = 1024 bytes)');
    console.info(
      `  ${signIn.screen.padEnd(26)} ${kilobytes(signIn.gzipBytes).padStart(9)} in ${signIn.files} files, ` +
        `${((signIn.gzipBytes / SIGN_IN_BUDGET_BYTES) * 100).toFixed(0)}% of the ${kilobytes(SIGN_IN_BUDGET_BYTES)} budget` +
        (withinBudget ? '' : ' — OVER BUDGET'),
    );
    console.info(
      `  ${accounts.screen.padEnd(26)} ${kilobytes(accounts.gzipBytes).padStart(9)} in ${accounts.files} files`,
    );
    return withinBudget;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

function formatLoad(label: string, result: LoadResult): string {
  return (
    `  ${label.padEnd(34)} ${result.requestsPerSecond.toFixed(0).padStart(7)} req/s` +
    `   p50 ${result.p50Ms.toFixed(2).padStart(7)} ms   p99 ${result.p99Ms.toFixed(2).padStart(7)} ms`
  );
}

async function benchHttp(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'trust-console-bench-data-'));
  const baseline = await startBaseline();
  const platform = await startPlatform(dataDir).catch(async (error: unknown) => {
    await baseline.stop();
    throw error;
  });
  try {
    const token = await signedInToken(platform.origin, dataDir);
    const profile = {
      url: `${platform.origin}${apiPaths.profile}`,
      headers: { authorization: `Bearer ${token}` },
      concurrency: CONCURRENCY,
    };
    const bare = { url: `${baseline.origin}/`, concurrency: CONCURRENCY };
    // Warm both first so JIT and the database's caches are not part of the measurement.
    await load({ ...bare, requests: WARM_UP_REQUESTS });
    await load({ ...profile, requests: WARM_UP_REQUESTS });
    const bareResult = await load({ ...bare, requests: REQUESTS });
    const profileResult = await load({ ...profile, requests: REQUESTS });
    console.info(`\nGET over loopback, ${REQUESTS} requests from ${CONCURRENCY} keep-alive connections`);
    console.info(formatLoad('node:http, small JSON (baseline)', bareResult));
    console.info(formatLoad(`${apiPaths.profile} (PGlite)`, profileResult));
    console.info(
      `  profile / baseline: ${(profileResult.requestsPerSecond / bareResult.requestsPerSecond).toFixed(3)} × the ` +
        `throughput, ${(profileResult.p50Ms / bareResult.p50Ms).toFixed(1)} × the median latency`,
    );
  } finally {
    await Promise.all([platform.stop(), baseline.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const only = process.argv[2];
if (only !== undefined && only !== 'size' && only !== 'http') {
  console.error('usage: npm run bench [size|http]');
  process.exit(2);
}
const withinBudget = only === 'http' ? true : benchSize();
if (only !== 'size') await benchHttp();
if (!withinBudget) process.exitCode = 1;
