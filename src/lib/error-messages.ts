import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import * as v from 'valibot';
import { API_ERROR_CODES, apiErrorSchema } from '../../contract/schemas/common.ts';
import { isValidationCode } from '../../contract/validation.ts';
import { ApiError, OfflineError } from './api-client.ts';
import { validationMessage } from './validation-messages.ts';

const FORBIDDEN = msg`You do not have permission to do this.`;
const NOT_FOUND = msg`The item was not found. It may have been removed.`;
const CONFLICT = msg`This conflicts with the current state of the item. Reload the page and try again.`;
const PRECONDITION_FAILED = msg`Someone else changed this item in the meantime. Reload it and apply your change again.`;
const TOO_LARGE = msg`The data sent is too large.`;
const PRECONDITION_REQUIRED = msg`The change did not say which version of the item it applies to. Reload the page and try again.`;
const UNSUPPORTED_MEDIA_TYPE = msg`The server does not accept data in this format.`;
const THROTTLED = msg`Too many requests. Wait a moment and try again.`;
const SERVER_FAILED = msg`Something went wrong on the server. Try again later.`;
const UNREACHABLE = msg`The server could not be reached. Check your connection and try again.`;

/** Our texts for `notifications.exceptions.{status}` (overview §8): whole sentences, one per status. */
const STATUS_MESSAGES: Readonly<Record<number, MessageDescriptor>> = {
  400: msg`The request was not accepted. Check the entries and try again.`,
  401: msg`Your session has ended. Sign in again.`,
  403: FORBIDDEN,
  404: NOT_FOUND,
  409: CONFLICT,
  412: PRECONDITION_FAILED,
  413: TOO_LARGE,
  415: UNSUPPORTED_MEDIA_TYPE,
  422: msg`The request could not be processed. Check the entries and try again.`,
  428: PRECONDITION_REQUIRED,
  429: THROTTLED,
  500: SERVER_FAILED,
  502: msg`The server's answer could not be read. Try again later.`,
  503: msg`The service is unavailable at the moment. Try again later.`,
};

type ApiCode = (typeof API_ERROR_CODES)[number];

/**
 * Our texts for the stable codes of the error body. A code says more than its status (409 is both
 * "in use" and "conflict"), so it is preferred; the server's English message is never parsed.
 */
const CODE_MESSAGES: Readonly<Record<ApiCode, MessageDescriptor>> = {
  inUse: msg`This item is still in use, so it cannot be removed.`,
  conflict: CONFLICT,
  notFound: NOT_FOUND,
  forbidden: FORBIDDEN,
  preconditionFailed: PRECONDITION_FAILED,
  preconditionRequired: PRECONDITION_REQUIRED,
  unsupportedMediaType: UNSUPPORTED_MEDIA_TYPE,
  tooLarge: TOO_LARGE,
  malformed: msg`The server could not read the request. Reload the page and try again.`,
  throttled: THROTTLED,
  ownAccount: msg`You cannot change your own primary account. A system administrator can.`,
  partnerHasActiveAccounts: msg`This partner account still has active accounts. Deactivate them first.`,
  partnerInactive: msg`The partner account of this account is inactive. Reactivate the partner account first.`,
  sessionRequired: msg`This needs you to be signed in. An API token cannot do it.`,
  ownUserOnly: msg`Only its own user can do this.`,
  limitReached: msg`The limit has been reached. Remove one before adding another.`,
  permissionNotHeld: msg`You cannot grant a permission you do not hold yourself.`,
  roleExceedsYours: msg`This role grants permissions you do not hold, so you cannot change it.`,
  builtInRole: msg`Built-in roles cannot be changed or archived. Clone the role to make your own.`,
  rolesFeatureOff: msg`Custom roles are turned off on this platform.`,
  ownUser: msg`You cannot change your own roles. Another administrator can.`,
  userExceedsYours: msg`This user holds permissions you do not hold, so you cannot change them.`,
  lastSystemAdministrator: msg`The last system administrator keeps this role.`,
  noSingleSignOn: msg`This user cannot sign in with single sign-on: no SAML or OIDC username is set for them.`,
  noTwoFactor: msg`This user has no two-factor authentication to reset.`,
  emailNotVerified: msg`This user's e-mail address is not verified yet. Resend the verification link first.`,
  hasPassword: msg`This user already signs in with a password.`,
  publicIssuanceDisabled: msg`This account does not issue certificates through enrollment links. Ask your administrator for your certificate.`,
  enrollmentUsed: msg`A certificate was already issued through this enrollment link.`,
  enrollmentCancelled: msg`An administrator cancelled this enrollment, so its link opens nothing.`,
  enrollmentExpired: msg`This enrollment link has expired. Ask the administrator for a new one.`,
  enrollmentNotIssued: msg`No certificate has been issued through this enrollment link yet.`,
};

function isApiCode(code: string): code is ApiCode {
  return (API_ERROR_CODES as readonly string[]).includes(code);
}

/**
 * One failure as the rules see it. `server` is an answer of the API (its message is the server's
 * English); `ours` is a failure the console worded and translated itself (nothing loaded offline);
 * `unreachable` is a request that got no answer at all (the browser's "Failed to fetch").
 */
type ErrorEntry =
  | { kind: 'server'; status: number | null; code: string | null; message: string }
  | { kind: 'ours'; message: string }
  | { kind: 'unreachable' };

const errorLikeSchema = v.object({
  status: v.optional(v.number()),
  message: v.string(),
  code: v.optional(v.string()),
});

function serverEntry({ status, code, message }: v.InferOutput<typeof errorLikeSchema>): ErrorEntry {
  return { kind: 'server', status: status ?? null, code: code ?? null, message };
}

/** One failing call, or the bodies of a failing multi-call (C-34, C-35), as flat entries. */
function entriesOf(error: unknown): ErrorEntry[] {
  if (Array.isArray(error)) return error.flatMap(entriesOf);
  if (typeof error === 'string') return [serverEntry({ message: error })];
  if (error instanceof OfflineError) return [{ kind: 'ours', message: error.message }];
  if (error instanceof ApiError) {
    return [{ kind: 'server', status: error.status, code: error.code, message: error.message }];
  }
  // Requests fail without an answer only by rejecting `fetch`, whose message is the browser's.
  if (error instanceof Error) return [{ kind: 'unreachable' }];
  const body = v.safeParse(apiErrorSchema, error);
  if (body.success) return [serverEntry(body.output.error)];
  const errorLike = v.safeParse(errorLikeSchema, error);
  return errorLike.success ? [serverEntry(errorLike.output)] : [];
}

/** Texts of programming slips that reached a message; they would only confuse (C-32, C-33). */
function isSuppressed(message: string): boolean {
  return message.startsWith('Cannot read property') || message.includes('undefined');
}

/**
 * The one rule for what a failure says, in a toast and in a page alike: our sentence for the error's
 * code, else for its status, else the server's own message (C-31) unless it is empty or a
 * programming slip. `null` means we have nothing worth showing; a toast then stays away, and a page,
 * which must say something, falls back to a general sentence.
 */
function textOf(entry: ErrorEntry, i18n: I18n): string | null {
  if (entry.kind === 'ours') return entry.message;
  if (entry.kind === 'unreachable') return i18n._(UNREACHABLE);
  const { code, status, message } = entry;
  if (code !== null && isApiCode(code)) return i18n._(CODE_MESSAGES[code]);
  if (code !== null && isValidationCode(code)) return validationMessage(code, i18n);
  const known = status === null ? undefined : STATUS_MESSAGES[status];
  if (known) return i18n._(known);
  return message === '' || isSuppressed(message) ? null : message;
}

/** The error notifications to show for a failure: one per message (C-36), suppressed ones left out. */
export function errorNotificationTexts(error: unknown, i18n: I18n): string[] {
  return entriesOf(error).flatMap((entry) => textOf(entry, i18n) ?? []);
}

/**
 * The sentence a page shows where its content failed (a form's alert, a list that could not load, a
 * route's error page), by the same rule. Never blank and never the server's slip: where a toast
 * would stay away, the page says that something went wrong on the server.
 */
export function errorPageText(error: unknown, i18n: I18n): string {
  const [entry] = entriesOf(error);
  return (entry && textOf(entry, i18n)) ?? i18n._(SERVER_FAILED);
}
