import { i18n } from '@lingui/core';
import { errorNotificationTexts } from '../lib/error-messages.ts';

/**
 * One error toast per message of a failure, by the rules in lib/error-messages.ts. The toast module
 * is loaded on first use, so it stays out of the first screen's JavaScript.
 */
export function notifyError(error: unknown): void {
  const texts = errorNotificationTexts(error, i18n);
  if (texts.length === 0) return;
  void import('./ui/toast.tsx').then(({ showToast }) => {
    for (const text of texts) showToast('error', text);
  });
}
