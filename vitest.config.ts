import { defineConfig } from 'vitest/config';

/**
 * Suites with different needs, run together by `vitest run` (see docs/decisions/006-testing.md).
 * `console` extends vite.config.ts so Lingui macros, the TanStack Router plugin and React behave in
 * tests exactly as in the build.
 */
function serverProject(name: string, env: Record<string, string>) {
  return {
    test: {
      name,
      include: ['tests/server/**/*.test.ts'],
      environment: 'node',
      env,
      globalSetup: ['tests/server/migrated-database.ts'],
      // Each file opens its own database and hashes with argon2: on two cores, files in parallel only
      // fight for the CPU and time out, so they run one after another.
      fileParallelism: false,
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
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
      serverProject('server', { TEST_DATABASE_URL: '' }),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-postgres', {})] : []),
      {
        extends: './vite.config.ts',
        test: {
          name: 'console',
          include: ['tests/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          testTimeout: 15_000,
        },
      },
    ],
  },
});
