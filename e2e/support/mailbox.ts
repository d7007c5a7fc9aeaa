import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** What the scenarios' mailbox received, read as a mail program would. */
export interface Mailbox {
  /**
   * The first message to `address` (received before or after the call) that `matches`, within
   * `timeoutMs`; the server sends from its outbox right after the change commits.
   */
  waitForMail: (
    address: string,
    matches?: (mail: ParsedMail) => boolean,
    timeoutMs?: number,
  ) => Promise<ParsedMail>;
  close: () => Promise<void>;
}

function recipients(mail: ParsedMail): string[] {
  const to = mail.to === undefined ? [] : Array.isArray(mail.to) ? mail.to : [mail.to];
  return to.flatMap((group) => group.value.map((entry) => (entry.address ?? '').toLowerCase()));
}

/** A real SMTP server on 127.0.0.1:`port`, without TLS or authentication, keeping every message. */
export async function startMailbox(port: number): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push(parsed);
          for (const waiter of waiters) waiter();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    waitForMail: (address, matches = () => true, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const find = () =>
          messages.find((mail) => recipients(mail).includes(address.toLowerCase()) && matches(mail));
        const check = () => {
          const found = find();
          if (found === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No mail to ${address} within ${timeoutMs} ms (${messages.length} received).`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text part (quoted-printable line breaks already undone). */
export function linkIn(mail: ParsedMail): URL {
  const match = /https?:\/\/[^\s<>"]+/.exec(mail.text ?? '');
  if (match === null) throw new Error(`No link in the mail "${mail.subject ?? ''}".`);
  return new URL(match[0]);
}
