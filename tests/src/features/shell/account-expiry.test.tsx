// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Temporal } from 'temporal-polyfill';
import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../../contract/schemas/profile.ts';
import { accountExpiryNotice } from '../../../../src/features/shell/account-expiry.ts';
import { AccountExpiryBanner } from '../../../../src/features/shell/components/account-expiry-banner.tsx';
import { today } from '../../../../src/lib/dates.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { renderWithPermissions } from '../../support.tsx';

const june1 = Temporal.PlainDate.from('2025-06-01');
const ADA = 'c0a80101-0000-4000-8000-000000000001';
const GRACE = 'c0a80101-0000-4000-8000-000000000002';

function accountUser(active: boolean, endsOn: string | null) {
  return profileFixture({
    access_scope: 'account',
    accounts: [{ id: ACCOUNT_ID, display_name: 'Example Corp', active, service_period: { to: endsOn } }],
  });
}

describe('account expiry notice', () => {
  it('counts the days left when the active account ends within 30 days', () => {
    expect(accountExpiryNotice(accountUser(true, '2025-06-11'), june1)).toEqual({
      kind: 'expiring',
      days: 10,
      endsOn: '2025-06-11',
    });
    expect(accountExpiryNotice(accountUser(true, '2025-07-01'), june1)).toEqual({
      kind: 'expiring',
      days: 30,
      endsOn: '2025-07-01',
    });
  });

  it('says nothing when the account ends later or has no end', () => {
    expect(accountExpiryNotice(accountUser(true, '2025-07-02'), june1)).toBeNull();
    expect(accountExpiryNotice(accountUser(true, null), june1)).toBeNull();
  });

  it('says the account expired when it is inactive', () => {
    expect(accountExpiryNotice(accountUser(false, '2025-05-01'), june1)).toEqual({
      kind: 'expired',
      endsOn: '2025-05-01',
    });
  });

  it('is only for account-scope users', () => {
    const partner = { ...accountUser(false, '2025-06-05'), access_scope: 'partner' as const };
    expect(accountExpiryNotice(partner, june1)).toBeNull();
  });
});

describe('account expiry banner', () => {
  const endsInTenDays = today().add({ days: 10 }).toString();

  function userOf(id: string, active: boolean, endsOn: string | null) {
    return { ...accountUser(active, endsOn), id };
  }

  /** One page load on which the user reads the banner and dismisses it; answers what it said. */
  async function dismissOnce(profile: Profile): Promise<{ said: string; leave: () => void }> {
    const { unmount } = renderWithPermissions(<AccountExpiryBanner profile={profile} />, []);
    const said = (await screen.findByRole('alert')).textContent ?? '';
    await userEvent.setup().click(screen.getByRole('button', { name: 'Dismiss the account expiry notice' }));
    expect(screen.queryByRole('alert')).toBeNull();
    return { said, leave: unmount };
  }

  /**
   * A later page load: a fresh banner that only knows what storage kept. The page's text shows that
   * the render happened, so "no banner" is a finding rather than a render still on its way.
   */
  async function bannerOnNextLoad(profile: Profile, previous: () => void): Promise<HTMLElement | null> {
    previous();
    renderWithPermissions(
      <>
        <p>Page content</p>
        <AccountExpiryBanner profile={profile} />
      </>,
      [],
    );
    await screen.findByText('Page content');
    return screen.queryByRole('alert');
  }

  it('shows the expired banner until dismissed, and not again while the flag is stored', async () => {
    const profile = userOf(ADA, false, null);
    const { said, leave } = await dismissOnce(profile);
    expect(said).toContain('Your account has expired.');

    expect(await bannerOnNextLoad(profile, leave)).toBeNull();
  });

  it('is still shown to another user of the browser after one user dismissed it', async () => {
    const { leave } = await dismissOnce(userOf(ADA, true, endsInTenDays));

    const banner = await bannerOnNextLoad(userOf(GRACE, true, endsInTenDays), leave);
    expect(banner?.textContent ?? 'no banner').toContain('Your account expires in 10 days.');
  });

  it('comes back as the expired banner after the expiring one was dismissed', async () => {
    const { leave } = await dismissOnce(userOf(ADA, true, endsInTenDays));

    const banner = await bannerOnNextLoad(userOf(ADA, false, endsInTenDays), leave);
    expect(banner?.textContent ?? 'no banner').toContain('Your account has expired.');
  });

  it('comes back when the end date of the service period changes', async () => {
    const { leave } = await dismissOnce(userOf(ADA, true, endsInTenDays));

    const endsInTwentyDays = today().add({ days: 20 }).toString();
    const banner = await bannerOnNextLoad(userOf(ADA, true, endsInTwentyDays), leave);
    expect(banner?.textContent ?? 'no banner').toContain('Your account expires in 20 days.');
  });
});
