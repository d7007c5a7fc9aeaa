// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import { accountExpiryNotice } from '../../../../src/features/shell/account-expiry.ts';
import { AccountExpiryBanner } from '../../../../src/features/shell/components/account-expiry-banner.tsx';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { renderWithPermissions } from '../../support.tsx';

const today = Temporal.PlainDate.from('2025-06-01');

function accountUser(active: boolean, endsOn: string | null) {
  return profileFixture({
    access_scope: 'account',
    accounts: [{ id: ACCOUNT_ID, display_name: 'Example Corp', active, service_period: { to: endsOn } }],
  });
}

describe('account expiry notice', () => {
  it('counts the days left when the active account ends within 30 days', () => {
    expect(accountExpiryNotice(accountUser(true, '2025-06-11'), today)).toEqual({
      kind: 'expiring',
      days: 10,
    });
    expect(accountExpiryNotice(accountUser(true, '2025-07-01'), today)).toEqual({
      kind: 'expiring',
      days: 30,
    });
  });

  it('says nothing when the account ends later or has no end', () => {
    expect(accountExpiryNotice(accountUser(true, '2025-07-02'), today)).toBeNull();
    expect(accountExpiryNotice(accountUser(true, null), today)).toBeNull();
  });

  it('says the account expired when it is inactive', () => {
    expect(accountExpiryNotice(accountUser(false, '2025-05-01'), today)).toEqual({ kind: 'expired' });
  });

  it('is only for account-scope users', () => {
    const partner = { ...accountUser(false, '2025-06-05'), access_scope: 'partner' as const };
    expect(accountExpiryNotice(partner, today)).toBeNull();
  });
});

describe('account expiry banner', () => {
  it('shows the expired banner until dismissed, and not again while the flag is stored', async () => {
    const { unmount } = renderWithPermissions(<AccountExpiryBanner profile={accountUser(false, null)} />, []);
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Your account has expired.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss the account expiry notice' }));
    expect(screen.queryByRole('alert')).toBeNull();
    unmount();

    renderWithPermissions(<AccountExpiryBanner profile={accountUser(false, null)} />, []);
    await Promise.resolve();
    expect(screen.queryByText('Your account has expired.')).toBeNull();
  });
});
