import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createTransport, type SendMailOptions } from 'nodemailer';
import type { ServerConfig } from '../config.ts';
import type { MailKind } from './kinds.ts';

/**
 * The two ways a message leaves (docs/decisions/037-mail.md §1), both built by
 * nodemailer: SMTP when SMTP_URL is set, otherwise an `.eml` file in the data directory.
 */

export interface OutgoingMail {
  /** The outbox row's id; names the `.eml` file. */
  id: string;
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The message's link, for the `.eml` mode's log line only. */
  link: string | null;
}

export interface MailTransport {
  send: (mail: OutgoingMail, now: Date) => Promise<void>;
  close: () => void;
}

/** Where the server writes its lines; tests pass their own to read them. */
export type MailLog = Pick<Console, 'info' | 'warn' | 'error'>;

/**
 * Messages are machine-written: auto-responders must not answer them (RFC 3834), and nothing in
 * them is to be replied to.
 */
const HEADERS = { 'Auto-Submitted': 'auto-generated' };

/** The one MIME message both transports build: text and HTML alternatives of the same sentences. */
function mimeMessage(config: ServerConfig, mail: OutgoingMail): SendMailOptions {
  return {
    from: config.mailFrom,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    headers: HEADERS,
  };
}

/**
 * SMTP over nodemailer, which reads the URL's credentials and query options (`?requireTLS=true`,
 * `?tls.rejectUnauthorized=false` …). Timeouts are kept well inside the dispatcher's two-minute lease,
 * so a hung server cannot hold a message past it and make another process send it as well.
 * nodemailer's own logger stays off: at debug level it writes the conversation, credentials included.
 */
function smtpTransport(config: ServerConfig, smtpUrl: string): MailTransport {
  const transporter = createTransport({
    url: smtpUrl,
    logger: false,
    debug: false,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 45_000,
  });
  return {
    send: async (mail) => {
      await transporter.sendMail(mimeMessage(config, mail));
    },
    close: () => transporter.close(),
  };
}

/** `20261212T090000.123Z`: sorts by time and is a valid file name everywhere. */
function fileTime(now: Date): string {
  return now.toISOString().replaceAll('-', '').replaceAll(':', '');
}

/**
 * Without SMTP, each message is the same MIME message written to `<dataDir>/mail/…eml`, readable by
 * the server's user only, and one log line names the file and the link: the embedded default is for
 * trying the platform out, whose operator reads the log. The data directory already holds the
 * database and must be private.
 */
function fileTransport(config: ServerConfig, log: MailLog): MailTransport {
  const transporter = createTransport({ streamTransport: true, buffer: true, logger: false });
  const directory = path.join(config.dataDir, 'mail');
  return {
    send: async (mail, now) => {
      const info = await transporter.sendMail(mimeMessage(config, mail));
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const file = path.join(directory, `${fileTime(now)}-${mail.kind}-${mail.id}.eml`);
      await writeFile(file, info.message, { mode: 0o600, flag: 'wx' });
      log.info(
        mail.link === null
          ? `Mail ${mail.kind} ${mail.id} written to ${file} (no SMTP_URL is set).`
          : `Mail ${mail.kind} ${mail.id} written to ${file} (no SMTP_URL is set); its link: ${mail.link}`,
      );
    },
    close: () => transporter.close(),
  };
}

export function createMailTransport(config: ServerConfig, log: MailLog = console): MailTransport {
  return config.smtpUrl === null ? fileTransport(config, log) : smtpTransport(config, config.smtpUrl);
}

export interface SendFailure {
  /** The server refused this message for good (a 5xx reply to its envelope or content). */
  permanent: boolean;
  /** For `mail_outbox.last_error`: the SMTP status and at most 200 characters of the reply. */
  detail: string;
  /** For the log: the status and error code only, never the reply, which may quote the address. */
  summary: string;
}

interface SmtpError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
}

/**
 * How a failed send is retried. A 5xx reply is permanent only when it was about the message (its
 * sender, recipients or content: nodemailer's EENVELOPE and EMESSAGE): a 5xx to the login is a wrong
 * SMTP_URL, which the operator fixes while the messages wait their retries.
 */
export function classifySendFailure(error: unknown): SendFailure {
  const smtp = (typeof error === 'object' && error !== null ? error : {}) as SmtpError;
  const status = typeof smtp.responseCode === 'number' ? smtp.responseCode : null;
  const code = typeof smtp.code === 'string' ? smtp.code : null;
  const reply = typeof smtp.response === 'string' ? smtp.response.replaceAll(/\s+/g, ' ').slice(0, 200) : '';
  const permanent = status !== null && status >= 500 && (code === 'EENVELOPE' || code === 'EMESSAGE');
  const summary = [status, code].filter((part) => part !== null).join(' ') || 'no SMTP answer';
  return { permanent, detail: reply === '' ? summary : `${summary}: ${reply}`.slice(0, 240), summary };
}
