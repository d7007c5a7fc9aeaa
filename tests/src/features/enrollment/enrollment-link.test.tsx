// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, json, mockApi, renderApp } from '../../support.tsx';

const PATH = '/account/ui-api/v2/enrollment/e1/WRONGCODE';

describe('the enrollment link', () => {
  it.each([
    [404, 'This enrollment link is not known'],
    [410, 'This enrollment link has expired'],
    [409, 'This enrollment link was used already'],
    [429, 'Too many attempts for now'],
  ])('leads a %i answer to the link error page with its status', async (status, title) => {
    mockApi({ [`GET ${PATH}`]: () => apiError(status, 'Refused.') });
    const { router } = renderApp('/account/enrollment/e1/WRONGCODE');
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/clientAuthLoginVerificationError/${status}`),
    );
  });

  it.each([
    [409, 'enrollmentUsed', 'This enrollment link was used already'],
    [409, 'enrollmentCancelled', 'This enrollment was cancelled'],
    [410, 'enrollmentExpired', 'This enrollment link has expired'],
  ])(
    'tells a %i %s apart by its code, and sends the enrollee to the administrator',
    async (status, code, title) => {
      mockApi({ [`GET ${PATH}`]: () => json({ error: { status, message: 'Refused.', code } }, status) });
      const { router } = renderApp('/account/enrollment/e1/WRONGCODE');
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
      await waitFor(() => expect(router.state.location.search).toEqual({ reason: code }));
      expect(screen.getByText(/Ask the administrator who sent you the link for a new one/)).toBeTruthy();
    },
  );

  it('says a throttled link still works and when to open it again, without asking for a new one', async () => {
    mockApi({
      [`GET ${PATH}`]: () =>
        json({ error: { status: 429, message: 'Refused.', code: 'throttled' } }, 429, {
          'Retry-After': '600',
        }),
    });
    const before = Date.now();
    const { router } = renderApp('/account/enrollment/e1/WRONGCODE');
    expect(await screen.findByRole('heading', { level: 1, name: 'Too many attempts for now' })).toBeTruthy();
    expect(screen.getByText(/Your link still works/)).toBeTruthy();
    await waitFor(() => expect(router.state.location.search).toMatchObject({ reason: 'throttled' }));
    const retryAt = Date.parse(String((router.state.location.search as { retry_at?: string }).retry_at));
    expect(retryAt - before).toBeGreaterThanOrEqual(600_000);
    expect(retryAt - Date.now()).toBeLessThanOrEqual(600_000);
    const time = new Intl.DateTimeFormat('en', { hour: 'numeric', minute: '2-digit' }).format(retryAt);
    expect(screen.getByText(new RegExp(`Open the link again after ${time}`))).toBeTruthy();
    expect(screen.queryByText(/Ask the administrator who sent you the link/)).toBeNull();
  });
});
