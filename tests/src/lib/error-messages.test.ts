import { i18n } from '@lingui/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError, OfflineError } from '../../../src/lib/api-client.ts';
import { errorNotificationTexts, errorPageText } from '../../../src/lib/error-messages.ts';
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

  it('says the server could not be reached for a request that got no answer, not the browser’s words', () => {
    expect(errorNotificationTexts(new TypeError('Failed to fetch'), i18n)).toEqual([
      'The server could not be reached. Check your connection and try again.',
    ]);
  });

  it('prefers the code to the status: a 409 in use is not a conflict', () => {
    const inUse = new ApiError(409, 'Organization has contacts.', { code: 'inUse' });
    expect(errorNotificationTexts(inUse, i18n)).toEqual([
      'This item is still in use, so it cannot be removed.',
    ]);
    expect(
      errorNotificationTexts({ error: { status: 400, message: 'name is too long', code: 'tooLong' } }, i18n),
    ).toEqual(['This value is too long.']);
  });

  it('uses the status when the code is one it does not know', () => {
    expect(errorNotificationTexts(new ApiError(404, 'Gone.', { code: 'vanished' }), i18n)).toEqual([
      'The item was not found. It may have been removed.',
    ]);
  });

  it('keeps the console’s own translated text of a failure it worded itself', () => {
    expect(errorNotificationTexts(new OfflineError(), i18n)).toEqual([
      'This is not available offline. Open it again once you are connected.',
    ]);
  });
});

describe('error page text', () => {
  it('gives our general sentence where a toast would suppress the server’s slip', () => {
    expect(errorPageText(new ApiError(418, "Cannot read property 'x' of null"), i18n)).toBe(
      'Something went wrong on the server. Try again later.',
    );
    expect(errorPageText({ message: 'value is undefined' }, i18n)).toBe(
      'Something went wrong on the server. Try again later.',
    );
  });

  it('translates a known status whatever the server says', () => {
    expect(errorPageText(new ApiError(409, "Cannot read property 'x' of null"), i18n)).toBe(
      'This conflicts with the current state of the item. Reload the page and try again.',
    );
  });

  it('says something for a failure it cannot read', () => {
    expect(errorPageText(42, i18n)).toBe('Something went wrong on the server. Try again later.');
  });
});
