import { CONSOLE_BASE_PATH } from '../../contract/paths.ts';
import { ENROLLMENT_CODE_TTL_DAYS } from '../../contract/schemas/enrollments.ts';

/**
 * The messages the platform sends (docs/decisions/037-mail.md §3). Slice 2 (the
 * user lifecycle and e-mail flows) enqueues every one of them; `client_auth_setup` comes with slice
 * 8, together with the enrollment page its link opens.
 */
export const MAIL_KINDS = [
  'invitation',
  'verify_email',
  'standard_login',
  'reset_password',
  'sso_sign_in',
  'mfa_reset',
  'unlock',
  'email_changed',
  'password_changed',
  // Certificate sign-in is being set up for the user (O-21): a link to their own certificates.
  'client_auth_setup',
  // A certificate enrollment's link, to the person or the device's technician (decision 021).
  'enrollment',
  // A new link of a used enrollment, to make the client certificate an administrator asked for
  // after the enrollee had finished (decision 033).
  'enrollment_client_auth',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
/** The messages that carry an enrollment's link. */
export type EnrollmentMailKind = Extract<MailKind, 'enrollment' | 'enrollment_client_auth'>;

/** What a one-time link lets its holder do; stored with the code's hash in `user_tokens`. */
export type TokenPurpose = 'invitation' | 'verify_email' | 'reset_password';

/** A link carrying a fresh one-time code, made when the message is sent. */
interface OneTimeLink {
  type: 'one-time';
  purpose: TokenPurpose;
  lifetimeMinutes: number;
  /** The console page, from the user's id and the code. */
  path: (userId: string, code: string) => string;
}

/**
 * A link made by the change that enqueued the message and carried in its outbox row until the message
 * leaves (decision 021 §2): the enrollment's code is shown once to the administrator too.
 */
interface CarriedLink {
  type: 'carried';
  lifetimeMinutes: number;
}

/** A link to a console page that needs no code: one path, or one per user. */
interface PlainLink {
  type: 'plain';
  path: string | ((userId: string) => string);
}

const HOURS_72 = 72 * 60;

/** Where each kind's button leads; null for notices that carry no link. */
export const MAIL_LINKS: Record<MailKind, OneTimeLink | PlainLink | CarriedLink | null> = {
  invitation: {
    type: 'one-time',
    purpose: 'invitation',
    lifetimeMinutes: HOURS_72,
    path: (userId, code) => `${CONSOLE_BASE_PATH}/verify/${userId}/${code}?new=1`,
  },
  verify_email: {
    type: 'one-time',
    purpose: 'verify_email',
    lifetimeMinutes: HOURS_72,
    path: (userId, code) => `${CONSOLE_BASE_PATH}/verify/${userId}/${code}`,
  },
  // Turning password sign-in on for a single sign-on user is an invitation to set a password.
  standard_login: {
    type: 'one-time',
    purpose: 'invitation',
    lifetimeMinutes: HOURS_72,
    path: (userId, code) => `${CONSOLE_BASE_PATH}/verify/${userId}/${code}?new=1`,
  },
  reset_password: {
    type: 'one-time',
    purpose: 'reset_password',
    lifetimeMinutes: 60,
    path: (userId, code) => `${CONSOLE_BASE_PATH}/reset-password/${userId}/${code}`,
  },
  // The console's start page begins sign-in with a fresh state of its own.
  sso_sign_in: { type: 'plain', path: `${CONSOLE_BASE_PATH}/` },
  mfa_reset: { type: 'plain', path: `${CONSOLE_BASE_PATH}/` },
  unlock: { type: 'plain', path: `${CONSOLE_BASE_PATH}/` },
  email_changed: null,
  password_changed: null,
  // The user's own client-certificate page, where a certificate is generated or uploaded.
  client_auth_setup: {
    type: 'plain',
    path: (userId) => `${CONSOLE_BASE_PATH}/access/administrators/${encodeURIComponent(userId)}/client-auth`,
  },
  enrollment: { type: 'carried', lifetimeMinutes: ENROLLMENT_CODE_TTL_DAYS * 24 * 60 },
  enrollment_client_auth: { type: 'carried', lifetimeMinutes: ENROLLMENT_CODE_TTL_DAYS * 24 * 60 },
};

/** The enrollment page of one enrollment, with its code (overview §1). */
export function enrollmentPath(enrollmentId: string, code: string): string {
  return `${CONSOLE_BASE_PATH}/enrollment/${encodeURIComponent(enrollmentId)}/${encodeURIComponent(code)}`;
}

export function isMailKind(kind: string): kind is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(kind);
}
