import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { isSea } from 'node:sea';
import notifier from 'node-notifier';
import { type AgentConfig, defaultDataDir } from './config.ts';
import type { PairingPrompt, PendingPairing } from './pairing.ts';

/**
 * How the desktop user runs the agent's own commands: the installed executable by its name, or the
 * npm script where the agent runs from its sources.
 */
export function agentCommand(): string {
  return isSea() ? path.basename(process.execPath, path.extname(process.execPath)) : 'npm run agent --';
}

/**
 * The command that approves `pairing`, with the agent's data directory where it is not the default
 * (`npm start` keeps its agent's under DATA_DIR): the control channel lives there.
 */
export function approveCommand(pairing: PendingPairing, dataDir: string): string {
  const digits = pairing.code.replace(/\D/g, '');
  const where = path.resolve(dataDir) === defaultDataDir() ? '' : ` --data-dir ${JSON.stringify(dataDir)}`;
  return `${agentCommand()} approve ${digits}${where}`;
}

let terminalQueue: Promise<unknown> = Promise.resolve();

/**
 * Asks on the agent's terminal whether a web page may use the agent, one question at a time. The
 * user compares the code with the one the console shows before answering. A pairing settled
 * elsewhere (the control channel) or expired takes its question away.
 */
export const askOnTerminal: PairingPrompt = (pairing, settled) => {
  const asked = terminalQueue.then(async () => {
    if (settled.aborted) return null;
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    try {
      const answer = await terminal.question(
        `\nA web page at ${pairing.origin} asks to use this trust agent.\n` +
          `It shows the code ${pairing.code}. Allow it only if the codes match. Allow? [y/N] `,
        { signal: settled },
      );
      return /^y(es)?$/i.test(answer.trim());
    } catch {
      // Aborted: answered elsewhere or expired; the terminal says nothing more about it.
      return null;
    } finally {
      terminal.close();
    }
  });
  terminalQueue = asked.catch(() => null);
  return asked;
};

/**
 * Writes the pairing to the agent's log, where a service's output goes (the journal, the launchd
 * log), with the command that approves it. The code is no secret: it only lets the user see that
 * the page and the agent are talking to each other.
 */
export function announceInLog(dataDir: string): PairingPrompt {
  return async (pairing) => {
    console.info(
      `A web page at ${pairing.origin} asks to use this trust agent; it shows the code ${pairing.code}. ` +
        `If the codes match, approve it with: ${approveCommand(pairing, dataDir)}`,
    );
    return null;
  };
}

let notificationsFailed = false;

/**
 * A desktop notification with the code and the command that approves it (notify-send on Linux,
 * Notification Center on macOS, a toast on Windows, through node-notifier). It only shows: a click
 * must not pair, since the user has to compare the codes first. Where the system cannot show one
 * (no notification service), the agent says so once and the log and `pairings` remain.
 */
export function notifyOnDesktop(dataDir: string): PairingPrompt {
  return (pairing) =>
    new Promise((resolve) => {
      notifier.notify(
        {
          title: 'Trust assistant: pairing request',
          message: `${pairing.origin} shows the code ${pairing.code}. If it matches, run: ${approveCommand(pairing, dataDir)}`,
          wait: false,
        },
        (error) => {
          if (error && !notificationsFailed) {
            notificationsFailed = true;
            console.warn(`Desktop notifications are not available here: ${error.message}`);
          }
          resolve(null);
        },
      );
    });
}

/** Where a pairing is shown: the terminal when there is one, else the log; and the desktop. */
export function pairingPrompts(
  config: Pick<AgentConfig, 'interactive' | 'desktopNotifications' | 'dataDir'>,
): PairingPrompt[] {
  return [
    config.interactive ? askOnTerminal : announceInLog(config.dataDir),
    ...(config.desktopNotifications ? [notifyOnDesktop(config.dataDir)] : []),
  ];
}
