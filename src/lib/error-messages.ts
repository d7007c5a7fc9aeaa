import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import * as v from 'valibot';
import { apiErrorSchema } from '../../contract/schemas/common.ts';

/** Our texts for `notifications.exceptions.{status}` (overview §8): whole sentences, one per status. */
const STATUS_MESSAGES: Readonly<Record<number, MessageDescriptor>> = {
  400: msg`The request was not accepted. Check the entries and try again.`,
  401: msg`Your session has ended. Sign in again.`,
  403: msg`You do not have permission to do this.`,
  404: msg`The item was not found. It may have been removed.`,
  409: msg`This conflicts with the current state of the item. Reload the page and try again.`,
  412: msg`Someone else changed this item in the meantime. Reload it and apply your change again.`,
  413: msg`The data sent is too large.`,
  422: msg`The request could not be processed. Check the entries and try again.`,
  429: msg`Too many requests. Wait a moment and try again.`,
  500: msg`Something went wrong on the server. Try again later.`,
  503: msg`The service is unavailable at the moment. Try again later.`,
};

interface ErrorEntry {
  status: number | null;
  message: string;
}

const errorLikeSchema = v.object({ status: v.optional(v.number()), message: v.string() });

/** One failing call, or the bodies of a failing multi-call (C-34, C-35), as flat entries. */
function entriesOf(error: unknown): ErrorEntry[] {
  if (Array.isArray(error)) return error.flatMap(entriesOf);
  if (typeof error === 'string') return [{ status: null, message: error }];
  const body = v.safeParse(apiErrorSchema, error);
  if (body.success) return [body.output.error];
  const errorLike = v.safeParse(errorLikeSchema, error);
  if (errorLike.success)
    return [{ status: errorLike.output.status ?? null, message: errorLike.output.message }];
  return [];
}

/** Texts of programming slips that reached a message; they would only confuse (C-32, C-33). */
function isSuppressed(message: string): boolean {
  return message.startsWith('Cannot read property') || message.includes('undefined');
}

/**
 * The error notifications to show for a failure: one per message (C-36), the translated status text
 * when we have one, otherwise the server's own message (C-31).
 */
export function errorNotificationTexts(error: unknown, i18n: I18n): string[] {
  return entriesOf(error)
    .filter((entry) => !isSuppressed(entry.message))
    .map((entry) => {
      const known = entry.status === null ? undefined : STATUS_MESSAGES[entry.status];
      return known ? i18n._(known) : entry.message;
    })
    .filter((text) => text.length > 0);
}
