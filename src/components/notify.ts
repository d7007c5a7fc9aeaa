import { i18n } from '@lingui/core';
import type { NotificationType } from '../../contract/constants.ts';
import { errorNotificationTexts } from '../lib/error-messages.ts';

/**
 * Shows a toast. The toast module (Ark UI's toast and its layers, about 13 KB gzip) is loaded on
 * first use and by the root layout after the first screen, so no screen waits for it; screens
 * notify through here, never by importing the module.
 */
export function notify(type: NotificationType, description: string): void {
  void import('./ui/toast.tsx').then(({ showToast }) => showToast(type, description));
}

/** One error toast per message of a failure, by the rules in lib/error-messages.ts. */
export function notifyError(error: unknown): void {
  const texts = errorNotificationTexts(error, i18n);
  if (texts.length === 0) return;
  for (const text of texts) notify('error', text);
}
