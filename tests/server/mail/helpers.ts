import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';
import type { ServerConfig } from '../../../server/config.ts';
import type { ServerCatalogs } from '../../../server/i18n/catalog.ts';
import { createMailDispatcher, type MailDispatcher } from '../../../server/mail/dispatcher.ts';
import { createMailTransport, type MailLog } from '../../../server/mail/transport.ts';
import type { TestApp } from '../test-app.ts';

export const PUBLIC_URL = 'https://console.example.test';
export const MAIL_FROM = 'no-reply@example.test';

export interface Mailbox {
  url: string;
  /** Every message accepted, parsed, in the order received. */
  messages: ParsedMail[];
  /**
   * Answers the next RCPT TO: null accepts; a status refuses it with that SMTP status. Tests set it
   * to make the server fail the way they need.
   */
  refuseRecipient: (address: SMTPServerAddress) => number | null;
  /** Resolves once `count` messages have arrived. */
  waitFor: (count: number) => Promise<void>;
  close: () => Promise<void>;
}

/** A real SMTP server on a free port of 127.0.0.1, without TLS or authentication. */
export async function startMailbox(): Promise<Mailbox> {
  const messages: ParsedMail[] = [];
  const waiters: Array<() => void> = [];
  const mailbox: Mailbox = {
    url: '',
    messages,
    refuseRecipient: () => null,
    waitFor: (count) =>
      new Promise((resolve) => {
        const check = () => (messages.length >= count ? resolve() : waiters.push(check));
        check();
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const status = mailbox.refuseRecipient(address);
      if (status === null) return callback();
      const error = new Error(`Mailbox ${address.address} unavailable`) as Error & { responseCode: number };
      error.responseCode = status;
      callback(error);
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (parsed) => {
          messages.push(parsed);
          for (const waiter of waiters.splice(0)) waiter();
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  mailbox.url = `smtp://127.0.0.1:${port}`;
  return mailbox;
}

/** Lines the mail code wrote, by level. */
export interface CapturedLog extends MailLog {
  lines: string[];
}

export function captureLog(): CapturedLog {
  const lines: string[] = [];
  const write = (...parts: unknown[]) => {
    lines.push(parts.map(String).join(' '));
  };
  return { lines, info: write, warn: write, error: write };
}

/** A clock a test moves by hand, so retries fall due without waiting. */
export function manualClock(start = new Date('2026-12-14T09:00:00Z')) {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advanceMinutes: (minutes: number) => {
      current += minutes * 60_000;
    },
  };
}

export function mailConfig(harness: TestApp, smtpUrl: string | null): ServerConfig {
  return {
    ...harness.deps.config,
    smtpUrl,
    publicUrl: PUBLIC_URL,
    publicUrlConfigured: true,
    mailFrom: MAIL_FROM,
  };
}

export function dispatcherFor(
  harness: TestApp,
  options: {
    catalogs: ServerCatalogs;
    config: ServerConfig;
    now: () => Date;
    log: MailLog;
    db?: TestApp['deps']['db'];
  },
): MailDispatcher {
  return createMailDispatcher({
    db: options.db ?? harness.deps.db,
    config: options.config,
    transport: createMailTransport(options.config, options.log),
    catalogs: options.catalogs,
    now: options.now,
    log: options.log,
  });
}

/** The first link on the platform's public address in a text. */
export function linkIn(text: string): URL {
  const match = /https?:\/\/[^\s<>"]+/.exec(text);
  if (match === null) throw new Error(`No link in:\n${text}`);
  return new URL(match[0]);
}
