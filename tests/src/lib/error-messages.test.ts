import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/lib/api-client.ts';
import { errorNotificationTexts } from '../../../src/lib/error-messages.ts';
import { activateEnglish } from '../support.tsx';

beforeAll(activateEnglish);

describe('error notification texts', () => {
  it('uses our sentence for a status we have one for', () => {
    expect(errorNotificationTexts(new ApiError(403, 'Forbidden.'), i18n)).toEqual([
      'You do not have permission to do this.',
    ]);
  });

  it('uses the server message for a status without a sentence', () => {
    expect(errorNotificationTexts(new ApiError(418, 'The teapot is busy.'), i18n)).toEqual([
      'The teapot is busy.',
    ]);
  });

  it('suppresses messages that begin with "Cannot read property"', () => {
    expect(errorNotificationTexts({ message: "Cannot read property 'id' of null" }, i18n)).toEqual([]);
  });

  it('suppresses messages that contain "undefined"', () => {
    expect(errorNotificationTexts(new ApiError(418, 'value is undefined here'), i18n)).toEqual([]);
  });

  it('gives one text per message of a list, skipping the suppressed ones', () => {
    const bodies = [
      { error: { status: 404, message: 'Account not found.' } },
      { status: 418, message: 'Seat limit reached.' },
      { message: 'x is undefined' },
    ];
    expect(errorNotificationTexts(bodies, i18n)).toEqual([
      'The item was not found. It may have been removed.',
      'Seat limit reached.',
    ]);
  });

  it('shows a plain error by its message', () => {
    expect(errorNotificationTexts(new TypeError('Failed to fetch'), i18n)).toEqual(['Failed to fetch']);
  });
});
