// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockApi, renderApp } from '../../support.tsx';

/** The pages a mailed link opens (decision 035 §1): public, the code from the path. */

const PASSWORD = 'Correct-Horse-42!';

function publicApi(extra: Parameters<typeof mockApi>[0] = {}) {
  return mockApi({
    'GET /account/api/v1/locales': () => json({ items: [{ id: 'en_US', name: 'English (US)' }], total: 1 }),
    ...extra,
  });
}

const linkExpired = () =>
  json(
    {
      error: {
        status: 400,
        message: 'verification_code: link expired',
        field: 'verification_code',
        code: 'linkExpired',
      },
    },
    400,
  );

const holder = (userName: string) => () => json({ user_name: userName });

describe('the invitation page', () => {
  it('shows whose the link is, sends it with the new password, then offers sign-in', async () => {
    const { calls } = publicApi({
      'POST /account/ui-api/v1/user/u-1/verify/holder': holder('ada'),
      'POST /account/ui-api/v1/user/u-1/verify': () => new Response(null, { status: 204 }),
    });
    renderApp('/account/verify/u-1/the-code?new=1');
    expect(await screen.findByRole('heading', { name: 'Set up your account' })).toBeTruthy();
    const userName = (await screen.findByLabelText('Username')) as HTMLInputElement;
    expect(userName.value).toBe('ada');
    expect(userName.readOnly).toBe(true);
    expect(screen.getByText('Choose the password you will sign in with.')).toBeTruthy();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Repeat password'), 'Something-Else-1!');
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(calls.some((call) => call.path.endsWith('/verify'))).toBe(false);

    await user.clear(screen.getByLabelText('Repeat password'));
    await user.type(screen.getByLabelText('Repeat password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('heading', { name: 'Your account is ready' })).toBeTruthy();
    expect(calls.find((call) => call.path.endsWith('/verify'))?.body).toEqual({
      verification_code: 'the-code',
      login: 'ada',
      password: PASSWORD,
    });
    expect(screen.getByRole('link', { name: 'Go to sign-in' })).toBeTruthy();
  });

  it('asks for the user name when the server could not say whose the link is', async () => {
    const { calls } = publicApi({
      'POST /account/ui-api/v1/user/u-1/verify/holder': () =>
        Promise.reject(new TypeError('Failed to fetch')),
      'POST /account/ui-api/v1/user/u-1/verify': () => new Response(null, { status: 204 }),
    });
    renderApp('/account/verify/u-1/the-code?new=1');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Username'), 'ada');
    await user.type(screen.getByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Repeat password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('heading', { name: 'Your account is ready' })).toBeTruthy();
    expect(calls.find((call) => call.path.endsWith('/verify'))?.body).toMatchObject({ login: 'ada' });
  });

  it('shows a page-level error for a link that no longer works, before asking anything', async () => {
    publicApi({ 'POST /account/ui-api/v1/user/u-1/verify/holder': linkExpired });
    renderApp('/account/verify/u-1/old-code?new=1');
    expect(await screen.findByRole('heading', { name: 'This link no longer works' })).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
  });

  it('asks only for the current password when the link verifies a changed address', async () => {
    publicApi({ 'POST /account/ui-api/v1/user/u-1/verify/holder': holder('ada') });
    renderApp('/account/verify/u-1/the-code');
    expect(await screen.findByRole('heading', { name: 'Verify your email address' })).toBeTruthy();
    expect(((await screen.findByLabelText('Username')) as HTMLInputElement).value).toBe('ada');
    expect(screen.getByLabelText('Current password')).toBeTruthy();
    expect(screen.queryByLabelText('Repeat password')).toBeNull();
  });
});

describe('the reset page', () => {
  it('sends the new password with the code and says it is set', async () => {
    const { calls } = publicApi({
      'POST /account/ui-api/v1/user/u-2/reset-password': () => new Response(null, { status: 204 }),
    });
    renderApp('/account/reset-password/u-2/reset-code');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('New password'), PASSWORD);
    await user.type(screen.getByLabelText('Repeat password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('heading', { name: 'Password changed' })).toBeTruthy();
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      reset_code: 'reset-code',
      password: PASSWORD,
      repeatedPassword: PASSWORD,
    });
  });
});
