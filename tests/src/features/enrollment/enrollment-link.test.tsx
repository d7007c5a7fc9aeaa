// @vitest-environment jsdom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, mockApi, renderApp } from '../../support.tsx';

const PATH = '/account/ui-api/v2/enrollment/e1/WRONGCODE';

describe('the enrollment link', () => {
  it.each([
    [404, 'This enrollment link is not known'],
    [410, 'This enrollment link has expired'],
    [409, 'This enrollment link was used already'],
    [429, 'This enrollment link is blocked'],
  ])('leads a %i answer to the link error page with its status', async (status, title) => {
    mockApi({ [`GET ${PATH}`]: () => apiError(status, 'Refused.') });
    const { router } = renderApp('/account/enrollment/e1/WRONGCODE');
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/clientAuthLoginVerificationError/${status}`),
    );
    expect(screen.getByText(/Ask the administrator who sent you the link for a new one/)).toBeTruthy();
  });
});
