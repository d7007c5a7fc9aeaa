import { createInterface } from 'node:readline/promises';
import type { PendingPairing } from './pairing.ts';

let queue: Promise<unknown> = Promise.resolve();

/**
 * Asks on the agent's terminal whether a web page may use the agent, one question at a time. The
 * user compares the code with the one the console shows before answering.
 */
export function askOnTerminal(pairing: PendingPairing): Promise<boolean> {
  const asked = queue.then(async () => {
    if (pairing.status !== 'pending') return false;
    const terminal = createInterface({ input: process.stdin, output: process.stdout });
    const timer = setTimeout(() => terminal.close(), pairing.expiresAt - Date.now());
    try {
      const answer = await terminal.question(
        `\nA web page at ${pairing.origin} asks to use this trust agent.\n` +
          `It shows the code ${pairing.code}. Allow it only if the codes match. Allow? [y/N] `,
      );
      return /^y(es)?$/i.test(answer.trim());
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      terminal.close();
    }
  });
  queue = asked.catch(() => false);
  return asked;
}
