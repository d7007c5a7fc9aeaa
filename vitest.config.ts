import { defineConfig } from 'vitest/config';

/**
 * Suites with different needs, run together by `vitest run` (see docs/decisions/006-testing.md).
 * `console` extends vite.config.ts so Lingui macros, the TanStack Router plugin and React behave in
 * tests exactly as in the build.
 */
/** Server suites that replace a module with `vi.mock`: they run in a module registry of their own. */
const MOCKING_SERVER_SUITES = [
  'tests/server/identity/hashing-load.test.ts',
  'tests/server/identity/passwords.test.ts',
  'tests/server/setup/anonymous-load.test.ts',
];

function serverProjects(name: string, env: Record<string, string>) {
  const test = {
    environment: 'node' as const,
    env,
    globalSetup: ['tests/server/migrated-database.ts'],
    // Each file opens its own database and hashes with argon2: on two cores, files in parallel only
    // fight for the CPU and time out, so they run one after another.
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  };
  return [
    // Files share one module registry: the server, PGlite and the X.509 stack load once per run,
    // not once per file (about half of the suites' time). Every file builds its app and database
    // itself (tests/server/test-app.ts); no server module keeps state that a file could inherit.
    {
      test: {
        ...test,
        name,
        include: ['tests/server/**/*.test.ts'],
        exclude: MOCKING_SERVER_SUITES,
        isolate: false,
      },
    },
    { test: { ...test, name: `${name}-mocking`, include: MOCKING_SERVER_SUITES } },
  ];
}

// CI provides a PostgreSQL database (.ci/run); a run there without one would pass on PGlite alone.
if (process.env.CI && !process.env.TEST_DATABASE_URL) {
  throw new Error('CI is set but TEST_DATABASE_URL is not: the PostgreSQL suites would not run.');
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          include: ['tests/contract/**/*.test.ts'],
          environment: 'node',
        },
      },
      // The repository's import graph against its layering rules: reads the sources, runs nothing of them.
      {
        test: {
          name: 'architecture',
          include: ['tests/architecture/**/*.test.ts'],
          environment: 'node',
        },
      },
      // The trust agent: its HTTP surface, sessions and keystores (SoftHSM2 where installed), in Node.
      {
        test: {
          name: 'agent',
          include: ['tests/agent/**/*.test.ts'],
          environment: 'node',
          // PKCS#11 tokens and one port per suite: files run one after another.
          fileParallelism: false,
          testTimeout: 30_000,
        },
      },
      // The service worker's outbox and routing rules, on fake-indexeddb and Node's WebCrypto.
      {
        test: {
          name: 'sw',
          include: ['tests/sw/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      // The server suites run on the embedded database always, and again on PostgreSQL when
      // TEST_DATABASE_URL names one (tests/server/test-app.ts reads it).
      ...serverProjects('server', { TEST_DATABASE_URL: '' }),
      ...(process.env.TEST_DATABASE_URL
        ? serverProjects('server-postgres', { TEST_DATABASE_URL: process.env.TEST_DATABASE_URL })
        : []),
      {
        extends: './vite.config.ts',
        test: {
          name: 'console',
          include: ['tests/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['tests/src/temporal-setup.ts'],
          // Above Testing Library's 20 s wait (tests/src/support.tsx), so a slow first page fails
          // on what it waited for, not on the clock.
          testTimeout: 30_000,
        },
      },
    ],
  },
});
