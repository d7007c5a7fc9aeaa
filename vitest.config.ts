import { defineConfig } from 'vitest/config';

/**
 * Three suites with different needs, run together by `vitest run` (see docs/decisions/006-testing.md).
 * `console` extends vite.config.ts so Lingui macros, the TanStack Router plugin and React behave in
 * tests exactly as in the build.
 */
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
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // Each file opens its own PGlite (~2.6 s cold) and hashes with argon2: on two cores, files in
          // parallel only fight for the CPU and time out, so they run one after another.
          fileParallelism: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
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
