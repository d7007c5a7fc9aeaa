import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `npm test`: every check CI runs, cheapest first, stopping at the first failure so the last lines
 * on screen say what broke. The final line counts steps; test counts come from the runners' reports.
 */
const reports = mkdtempSync(path.join(tmpdir(), 'trust-console-test-'));
const vitestReport = path.join(reports, 'vitest.json');
const playwrightReport = path.join(reports, 'playwright.json');

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
}

const steps: Step[] = [
  { name: 'browser', command: ['tsx', 'scripts/ensure-chromium.ts'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'catalogs', command: ['npm', 'run', '--silent', 'i18n:check'] },
  {
    name: 'unit and integration tests',
    command: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
  },
  // The e2e server serves dist/console and builds nothing itself.
  { name: 'console build', command: ['vite', 'build', '--logLevel', 'warn'] },
  {
    name: 'browser scenarios',
    command: ['playwright', 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport },
  },
];

/** Passed and failed tests in a runner's JSON report, or null when it wrote none. */
function testCounts<Report>(file: string, read: (report: Report) => [number, number]): string | null {
  try {
    const [passed, failed] = read(JSON.parse(readFileSync(file, 'utf8')) as Report);
    return `${passed} passed, ${failed} failed`;
  } catch {
    return null;
  }
}

let passed = 0;
let failed = 0;
for (const step of steps) {
  console.info(`\n▶ ${step.name}: ${step.command.join(' ')}`);
  const started = performance.now();
  const [program = '', ...args] = step.command;
  const result = spawnSync(program, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, ...step.env },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    passed += 1;
    console.info(`✔ ${step.name} (${seconds} s)`);
  } else {
    failed += 1;
    const reason =
      result.error?.message ?? (result.signal ? `signal ${result.signal}` : `exit code ${result.status}`);
    console.error(`✘ ${step.name} failed (${reason}, ${seconds} s); later steps were not run.`);
    break;
  }
}

const unit = testCounts<{ numPassedTests: number; numFailedTests: number }>(vitestReport, (report) => [
  report.numPassedTests,
  report.numFailedTests,
]);
const browser = testCounts<{ stats: { expected: number; flaky: number; unexpected: number } }>(
  playwrightReport,
  ({ stats }) => [stats.expected + stats.flaky, stats.unexpected],
);
rmSync(reports, { recursive: true, force: true });
if (unit) console.info(`vitest: ${unit}`);
if (browser) console.info(`playwright: ${browser}`);
console.info(`${passed} passed, ${failed} failed (of ${steps.length} steps)`);
process.exitCode = failed > 0 ? 1 : 0;
