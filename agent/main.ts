import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { LOGIN_PATH } from '../contract/paths.ts';
import { encodeSignInState } from '../contract/schemas/identity.ts';
import { type AgentConfig, loadAgentConfig, normalizeOrigin } from './config.ts';
import { type ControlAnswer, type ControlRequest, sendControlRequest } from './control.ts';
import { PinAttempts } from './keystores/pin-attempts.ts';
import { agentCommand } from './prompt.ts';
import { startAgent } from './server.ts';

/** The usage, with the command as the user runs the agent: the installed executable or the npm script. */
function usage(): string {
  const command = agentCommand();
  return `Usage: ${command} [options]                run the trust agent
       ${command} pairings                 list pairings waiting for approval
       ${command} approve CODE | refuse CODE
       ${command} unlock KEYSTORE_ID        forget the wrong PINs that locked a keystore in the agent
       ${command} sign-in CONSOLE_URL       sign in to a console in the browser and connect this agent to it
Options:
  --allow-origin URL     a console origin that may use the agent (repeatable)
  --approve-origin URL   allow and pair an origin without asking (tests, managed installs)
  --data-dir DIR         where the agent keeps its key, pairings and software keystore
  --port N               the loopback port (8900)`;
}

function configFrom(args: string[], env: NodeJS.ProcessEnv): { config: AgentConfig; rest: string[] } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      'allow-origin': { type: 'string', multiple: true },
      'approve-origin': { type: 'string', multiple: true },
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.info(usage());
    process.exit(0);
  }
  const config = loadAgentConfig({
    ...env,
    ...(values['data-dir'] ? { TRUST_AGENT_DATA_DIR: values['data-dir'] } : {}),
    ...(values.port ? { TRUST_AGENT_PORT: values.port } : {}),
  });
  const approved = (values['approve-origin'] ?? []).map(normalizeOrigin);
  config.preapprovedOrigins = [...new Set([...config.preapprovedOrigins, ...approved])];
  config.allowedOrigins = [
    ...new Set([
      ...config.allowedOrigins,
      ...(values['allow-origin'] ?? []).map(normalizeOrigin),
      ...approved,
    ]),
  ];
  return { config, rest: positionals };
}

/**
 * The console's sign-in page with a state that says the trust agent asked for it: after the
 * sign-in the console connects to this agent and says so (overview §2, dta-sign-in-success-info).
 */
function signInUrl(consoleUrl: string): URL {
  const url = new URL(LOGIN_PATH, normalizeOrigin(consoleUrl));
  url.searchParams.set('state', encodeSignInState({ trust_agent_request: true }));
  return url;
}

function openInBrowser(href: string): void {
  const [command, ...args] =
    process.platform === 'darwin'
      ? ['open', href]
      : process.platform === 'win32'
        ? ['cmd', '/c', 'start', '""', href]
        : ['xdg-open', href];
  const child = spawn(command ?? 'xdg-open', args, { stdio: 'ignore', detached: true });
  // No browser to open (a server without a desktop): the printed address is enough.
  child.once('error', () => undefined);
  child.unref();
}

/** What the running agent answered on its control channel, as the desktop user reads it. */
function describeControlAnswer(answer: ControlAnswer): string {
  if ('error' in answer) throw new Error(answer.error);
  if ('settled' in answer) {
    const { origin, status } = answer.settled;
    return status === 'approved' ? `Paired with ${origin}.` : `Refused the pairing of ${origin}.`;
  }
  if (answer.pairings.length === 0) return 'No pairing waits for approval.';
  const lines = answer.pairings.map(({ origin, code }) => `  ${code}  ${origin}`);
  return [
    'Pairings waiting for approval (approve one only if the page shows the same code):',
    ...lines,
    `Approve with: ${agentCommand()} approve CODE   or refuse with: ${agentCommand()} refuse CODE`,
  ].join('\n');
}

/** Starts the agent, or talks to a running one (`pairings`, `approve`, `refuse`). */
export async function main(args: string[], env: NodeJS.ProcessEnv = process.env) {
  const { config, rest } = configFrom(args, env);
  const [action, code] = rest;
  if (action === 'pairings' || action === 'approve' || action === 'refuse') {
    const request: ControlRequest = action === 'pairings' ? { action } : { action, code: code ?? '' };
    console.info(describeControlAnswer(await sendControlRequest(config.dataDir, request)));
    return null;
  }
  if (action === 'unlock') {
    // Only the desktop user, at the agent's own command line, can lift the agent's PIN lock.
    await new PinAttempts(config.dataDir).reset(code ?? '');
    console.info(`The agent's wrong-PIN count for "${code}" is cleared.`);
    return null;
  }
  if (action === 'sign-in') {
    const signIn = signInUrl(code ?? '');
    if (!config.allowedOrigins.includes(signIn.origin)) {
      console.warn(`${signIn.origin} is not an allowed origin of this agent: add it with --allow-origin.`);
    }
    openInBrowser(signIn.href);
    console.info(`Sign in at ${signIn.href}`);
    return null;
  }
  if (action !== undefined) throw new Error(`Unknown command "${action}".\n${usage()}`);
  if (config.allowedOrigins.length === 0) {
    console.warn(
      'No console origin is allowed (--allow-origin or TRUST_AGENT_ALLOWED_ORIGINS): every page is refused.',
    );
  }
  const agent = await startAgent(config);
  console.info(
    `Trust agent ${config.version} at ${agent.url} for ${config.allowedOrigins.join(', ') || 'no origin'}`,
  );
  if (agent.desktopClientUrl) console.info(`Desktop client at ${agent.desktopClientUrl}`);
  return agent;
}

/**
 * The command line: the agent until SIGINT or SIGTERM, or one command against it. The packaged
 * executable (agent/service/executable.ts) calls it too; it has no top-level await so that it can.
 */
export async function run(args: string[]): Promise<void> {
  try {
    const agent = await main(args);
    if (agent) {
      const stop = () => void agent.stop().then(() => process.exit(0));
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    }
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) void run(process.argv.slice(2));
