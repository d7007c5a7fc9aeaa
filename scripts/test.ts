import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * `npm test`: every check CI runs, cheapest first, stopping at the first failure so the last lines
 * on screen say what broke. The final line counts steps; test counts come from the runners' reports.
 *
 * The long steps run side by side, each vitest on its own so that none waits for another's groups
 * (vitest runs a project whose files go one at a time in a group of its own, after the others): the
 * unit suites, the server suites on PGlite, the same server suites on PostgreSQL when
 * TEST_DATABASE_URL names one, and the browser stories on two workers. On a two-core machine none of
 * them keeps a core busy alone: the server suites wait on their database, the stories on the
 * browser. The stories print as they go; the suites' output is kept and printed once they end.
 */
const reports = mkdtempSync(path.join(tmpdir(), 'trust-console-test-'));
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const playwrightReport = path.join(reports, 'playwright.json');

interface Step {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Where the step's output goes when it runs beside another; the terminal otherwise. */
  log?: string;
}

const serialSteps: Step[] = [
  { name: 'browser', command: ['tsx', 'scripts/ensure-chromium.ts'] },
  { name: 'typecheck', command: ['npm', 'run', '--silent', 'typecheck'] },
  { name: 'lint', command: ['npm', 'run', '--silent', 'lint'] },
  { name: 'catalogs', command: ['npm', 'run', '--silent', 'i18n:check'] },
  // The e2e server serves dist/console and builds nothing itself.
  { name: 'console build', command: ['vite', 'build', '--logLevel', 'warn'] },
  // The trust assistant's four packages (about a minute the first time, two at once; kept in
  // dist/trust-assistant/ by their inputs after that): the package suites and the e2e server's
  // catalogue use them, and they are built here while nothing else runs.
  {
    name: 'agent packages',
    command: ['tsx', 'scripts/package-agent.ts', '--build-only'],
  },
];
/** A vitest run of the projects the `--project` patterns select, with a JSON report to count its tests from. */
function vitestStep(name: string, projects: string[], report: string): Step {
  return {
    name,
    command: [
      'vitest',
      'run',
      ...projects.map((project) => `--project=${project}`),
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${path.join(reports, report)}.json`,
    ],
    log: path.join(reports, `${report}.log`),
  };
}

const vitestRuns = [
  { name: 'unit tests', projects: ['!server*'], report: 'vitest' },
  { name: 'server tests', projects: ['server', 'server-mocking'], report: 'vitest-server' },
  ...(onPostgres
    ? [{ name: 'server tests on PostgreSQL', projects: ['server-postgres*'], report: 'vitest-postgres' }]
    : []),
];
const vitestSteps = vitestRuns.map((run) => vitestStep(run.name, run.projects, run.report));
const vitestReports = vitestRuns.map((run) => run.report);

const concurrentSteps: Step[] = [
  ...vitestSteps,
  {
    name: 'browser scenarios',
    command: ['playwright', 'test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_FILE: playwrightReport },
  },
];
const stepCount = serialSteps.length + concurrentSteps.length;

interface Outcome {
  passed: number;
  /** "file › test" of each failed test, so that the run's last lines name what broke. */
  failures: string[];
}

/** What a runner's JSON report says, or null when it wrote none. */
function outcome<Report>(file: string, read: (report: Report) => Outcome): Outcome | null {
  try {
    return read(JSON.parse(readFileSync(file, 'utf8')) as Report);
  } catch {
    return null;
  }
}

interface VitestReport {
  numPassedTests: number;
  testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
}

function vitestOutcome(report: VitestReport): Outcome {
  return {
    passed: report.numPassedTests,
    failures: report.testResults.flatMap((file) =>
      file.assertionResults
        .filter((test) => test.status === 'failed')
        .map((test) => `${path.relative(process.cwd(), file.name)} › ${test.fullName}`),
    ),
  };
}

interface PlaywrightSuite {
  title: string;
  file: string;
  specs?: { title: string; ok: boolean }[];
  suites?: PlaywrightSuite[];
}

function playwrightFailures(suite: PlaywrightSuite, titles: string[]): string[] {
  const inside = suite.title && suite.title !== suite.file ? [...titles, suite.title] : titles;
  return [
    ...(suite.specs ?? [])
      .filter((spec) => !spec.ok)
      .map((spec) => `${suite.file} › ${[...inside, spec.title].join(' › ')}`),
    ...(suite.suites ?? []).flatMap((child) => playwrightFailures(child, inside)),
  ];
}

function playwrightOutcome(report: {
  stats: { expected: number; flaky: number };
  suites: PlaywrightSuite[];
}): Outcome {
  return {
    passed: report.stats.expected + report.stats.flaky,
    failures: report.suites.flatMap((suite) => playwrightFailures(suite, [])),
  };
}

function printOutcome(name: string, result: Outcome | null): void {
  if (!result) return;
  console.info(`${name}: ${result.passed} passed, ${result.failures.length} failed`);
  for (const failure of result.failures) console.info(`  ✘ ${failure}`);
}

/** Runs a step; resolves with whether it passed, having said so. */
function runStep(step: Step): Promise<boolean> {
  console.info(
    `\n▶ ${step.name}: ${step.command.join(' ')}${step.log ? ' (output shown when it ends)' : ''}`,
  );
  const started = performance.now();
  const [program = '', ...args] = step.command;
  const log = step.log ? createWriteStream(step.log) : null;
  const child = spawn(program, args, {
    stdio: ['ignore', log ? 'pipe' : 'inherit', log ? 'pipe' : 'inherit'],
    env: { ...process.env, ...step.env },
  });
  if (log) {
    child.stdout?.pipe(log, { end: false });
    child.stderr?.pipe(log, { end: false });
  }
  return new Promise((resolve) => {
    const finish = (reason: string | null) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const report = () => {
        if (step.log) {
          console.info(`\n── ${step.name} ──`);
          process.stdout.write(readFileSync(step.log));
        }
        if (reason === null) console.info(`✔ ${step.name} (${seconds} s)`);
        else console.error(`✘ ${step.name} failed (${reason}, ${seconds} s)`);
        resolve(reason === null);
      };
      if (log) log.end(report);
      else report();
    };
    child.once('error', (error) => finish(error.message));
    child.once('close', (code, signal) =>
      finish(code === 0 ? null : signal ? `signal ${signal}` : `exit code ${code}`),
    );
  });
}

let passed = 0;
let failed = 0;
for (const step of serialSteps) {
  if (await runStep(step)) {
    passed += 1;
  } else {
    failed += 1;
    console.error('Later steps were not run.');
    break;
  }
}
if (failed === 0) {
  const outcomes = await Promise.all(concurrentSteps.map(runStep));
  passed += outcomes.filter(Boolean).length;
  failed += outcomes.filter((outcome) => !outcome).length;
}

const unit = vitestReports.map((report) => outcome(path.join(reports, `${report}.json`), vitestOutcome));
const browser = outcome(playwrightReport, playwrightOutcome);
rmSync(reports, { recursive: true, force: true });
for (const [index, report] of vitestReports.entries()) printOutcome(report, unit[index] ?? null);
printOutcome('playwright', browser);
console.info(`${passed} passed, ${failed} failed (of ${stepCount} steps)`);
process.exitCode = failed > 0 ? 1 : 0;
