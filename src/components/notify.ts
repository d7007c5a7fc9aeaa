import { i18n } from '@lingui/core';
import { errorNotificationTexts } from '../lib/error-messages.ts';
import { showToast } from './ui/toast.tsx';

/** One error toast per message of a failure, by the rules in lib/error-messages.ts. */
export function notifyError(error: unknown): void {
  for (const text of errorNotificationTexts(error, i18n)) showToast('error', text);
}
