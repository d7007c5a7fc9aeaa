// @vitest-environment jsdom
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ID, profileFixture } from '../../fixtures.ts';
import { apiError, json, renderApp } from '../../support.tsx';
import { accountFeaturesFixture, accountsApi, BASE, noContent } from '../accounts/account-details-support.ts';

/** The Features section of the account details (K-01 … K-16; decision 022 §4). */

const DETAILS_PATH = `/account/accounts/${CUSTOMER_ID}`;
const FEATURES_PATH = `${BASE}/features/account/${CUSTOMER_ID}`;

async function featuresSection() {
  return screen.findByRole('region', { name: 'Features' });
}

function feature(name: string): HTMLInputElement {
  return screen.getByRole('switch', { name }) as HTMLInputElement;
}

/** The texts that describe a control (its hint and error), by aria-describedby. */
function descriptionOf(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby')?.split(' ') ?? [];
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

describe('account features', () => {
  it('shows a card of switches per application, in display order, with the enable-all switch of Enterprise Manager', async () => {
    accountsApi();
    renderApp(DETAILS_PATH);
    const section = await featuresSection();
    const cards = await within(section).findAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Private CA',
      'Software Trust Manager',
      'Enterprise Manager',
    ]);
    const switches = (card: HTMLElement) =>
      within(card)
        .getAllByRole('switch')
        .map((control) => [control.closest('label')?.textContent, (control as HTMLInputElement).checked]);
    expect(switches(cards[1] as HTMLElement)).toEqual([
      ['Trial account', false],
      ['Key-locker account', false],
    ]);
    expect(switches(cards[2] as HTMLElement)).toEqual([
      ['Enable all Enterprise Manager features', false],
      ['Discovery', true],
      ['Automation', false],
      ['Reporting', false],
    ]);
    const user = userEvent.setup();
    await user.click(feature('Enable all Enterprise Manager features'));
    // The switches take the click's state in a render of their own, which a busy machine may delay.
    await waitFor(() =>
      expect(['Discovery', 'Automation', 'Reporting'].map((name) => feature(name).checked)).toEqual([
        true,
        true,
        true,
      ]),
    );
    expect(feature('Enable all Enterprise Manager features').checked).toBe(true);
  });

  it('turns trial off when key-locker is turned on, and key-locker off when trial is (K-08, K-09)', async () => {
    accountsApi({
      extra: {
        [`GET ${FEATURES_PATH}`]: () =>
          json(accountFeaturesFixture({ trial_account: { enabled: true, endDate: '2099-01-31' } })),
      },
    });
    renderApp(DETAILS_PATH);
    await featuresSection();
    const user = userEvent.setup();
    await waitFor(() => expect(feature('Trial account').checked).toBe(true));
    expect((screen.getByLabelText('Trial end date') as HTMLInputElement).value).toBe('2099-01-31');
    await user.click(feature('Key-locker account'));
    expect(feature('Key-locker account').checked).toBe(true);
    expect(feature('Trial account').checked).toBe(false);
    expect(screen.queryByLabelText('Trial end date')).toBeNull();
    await user.click(feature('Trial account'));
    expect(feature('Key-locker account').checked).toBe(false);
  });

  it('refuses public issuance off while key-locker is on, saying why at once and refusing the save (K-12, K-13)', async () => {
    const { calls } = accountsApi({
      extra: {
        [`GET ${FEATURES_PATH}`]: () =>
          json(accountFeaturesFixture({ key_locker_account: { enabled: true } })),
      },
    });
    renderApp(DETAILS_PATH);
    await featuresSection();
    const user = userEvent.setup();
    await waitFor(() => expect(feature('Key-locker account').checked).toBe(true));
    await user.click(feature('Public issuance'));
    const message = 'Public issuance cannot be turned off while the key-locker account feature is on.';
    expect(descriptionOf(feature('Public issuance'))).toBe(message);
    expect(feature('Public issuance').getAttribute('aria-invalid')).toBe('true');
    const save = screen.getByRole('button', { name: 'Save features' });
    expect(save.getAttribute('aria-disabled')).toBe('true');
    expect(descriptionOf(save)).toBe(message);
    await user.click(save);
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
    // Public issuance on again, or key-locker off, lifts the block.
    await user.click(feature('Key-locker account'));
    expect(save.getAttribute('aria-disabled')).toBeNull();
    expect(feature('Public issuance').checked).toBe(false);
    expect(feature('Public issuance').getAttribute('aria-invalid')).not.toBe('true');
    expect(descriptionOf(feature('Public issuance'))).toBe('');
  });

  it('needs a trial end date not after the account’s, checked before anything is sent (K-10, K-11)', async () => {
    const { calls } = accountsApi();
    renderApp(DETAILS_PATH);
    await featuresSection();
    const user = userEvent.setup();
    await waitFor(() => expect(feature('Trial account')).toBeTruthy());
    await user.click(feature('Trial account'));
    await user.click(screen.getByRole('button', { name: 'Save features' }));
    const endDate = screen.getByLabelText(/Trial end date/) as HTMLInputElement;
    await waitFor(() => expect(descriptionOf(endDate)).toBe('A trial account needs an end date.'));
    expect(document.activeElement).toBe(endDate);
    // The account ends on 30 June 2099.
    fireEvent.change(endDate, { target: { value: '2099-07-01' } });
    await user.click(screen.getByRole('button', { name: 'Save features' }));
    await waitFor(() =>
      expect(descriptionOf(endDate)).toBe("The end date cannot be after the account's end date."),
    );
    expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  });

  it('saves every feature on the version shown and says so (K-04, K-16)', async () => {
    const { calls } = accountsApi({ extra: { [`PUT ${FEATURES_PATH}`]: () => noContent() } });
    renderApp(DETAILS_PATH);
    await featuresSection();
    const user = userEvent.setup();
    await waitFor(() => expect(feature('Trial account')).toBeTruthy());
    await user.click(feature('Trial account'));
    fireEvent.change(screen.getByLabelText(/Trial end date/), { target: { value: '2099-06-30' } });
    await user.click(screen.getByRole('button', { name: 'Save features' }));
    expect(await screen.findByText('Features saved.')).toBeTruthy();
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.path).toBe(FEATURES_PATH);
    expect(put?.headers.get('If-Match')).toBe('"3"');
    expect(put?.body).toEqual([
      { feature_id: 'public_issuance', enabled: true, end_date: null },
      { feature_id: 'trial_account', enabled: true, end_date: '2099-06-30' },
      { feature_id: 'key_locker_account', enabled: false, end_date: null },
      { feature_id: 'em_discovery', enabled: true, end_date: null },
      { feature_id: 'em_automation', enabled: false, end_date: null },
      { feature_id: 'em_reporting', enabled: false, end_date: null },
    ]);
  });

  it('shows the server’s refusal under the switch it names', async () => {
    accountsApi({
      extra: {
        [`PUT ${FEATURES_PATH}`]: () =>
          json(
            {
              error: {
                status: 400,
                message: '0.enabled: cannot be turned off while the key-locker account feature is on',
                field: '0.enabled',
                code: 'publicIssuanceRequired',
              },
            },
            400,
          ),
      },
    });
    renderApp(DETAILS_PATH);
    await featuresSection();
    const user = userEvent.setup();
    await waitFor(() => expect(feature('Public issuance')).toBeTruthy());
    await user.click(feature('Public issuance'));
    await user.click(screen.getByRole('button', { name: 'Save features' }));
    await waitFor(() =>
      expect(descriptionOf(feature('Public issuance'))).toBe(
        'Public issuance cannot be turned off while the key-locker account feature is on.',
      ),
    );
  });

  it('is read-only for a viewer who may not change the features (canEdit false)', async () => {
    accountsApi({
      extra: {
        [`GET ${FEATURES_PATH}`]: () =>
          json(accountFeaturesFixture({ trial_account: { enabled: true, endDate: '2099-01-31' } }, false)),
      },
    });
    renderApp(DETAILS_PATH);
    const section = await featuresSection();
    await waitFor(() => expect(feature('Trial account').checked).toBe(true));
    expect(
      within(section)
        .getAllByRole('switch')
        .every((control) => (control as HTMLInputElement).disabled),
    ).toBe(true);
    expect(within(section).queryByRole('button', { name: 'Save features' })).toBeNull();
    expect(within(section).getByText('Ends on 31-Jan-2099')).toBeTruthy();
    expect(
      within(section).getByText(
        "This account's features are set by its partner or the platform's administrators.",
      ),
    ).toBeTruthy();
  });

  it.each([
    [
      'a role that only reads accounts',
      ['VIEW_ACCOUNT'],
      'account',
      'Your roles let you read these features, not change them.',
    ],
    [
      'a partner on its own account',
      ['VIEW_ACCOUNT', 'MANAGE_ACCOUNT'],
      'partner',
      "A partner's own features are set by the platform's administrators.",
    ],
  ] as const)('says why the features are read-only for %s', async (_label, permissions, scope, reason) => {
    accountsApi({
      permissions,
      profile: profileFixture({ access_scope: scope, primary_account_id: CUSTOMER_ID }),
      extra: { [`GET ${FEATURES_PATH}`]: () => json(accountFeaturesFixture({}, false)) },
    });
    renderApp(DETAILS_PATH);
    const section = await featuresSection();
    expect(await within(section).findByText(reason)).toBeTruthy();
  });

  it('says when the features could not be loaded', async () => {
    accountsApi({ extra: { [`GET ${FEATURES_PATH}`]: () => apiError(500, 'boom') } });
    renderApp(DETAILS_PATH);
    const section = await featuresSection();
    expect(await within(section).findByRole('button', { name: 'Try again' })).toBeTruthy();
  });
});
