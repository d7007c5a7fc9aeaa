// @vitest-environment jsdom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Temporal } from 'temporal-polyfill';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_ROLES } from '../../../../contract/permissions.ts';
import type { AuditEvent, AuditVerification } from '../../../../contract/schemas/audit-log.ts';
import { toaster } from '../../../../src/components/ui/toast.tsx';
import { formatTimestamp } from '../../../../src/lib/dates.ts';
import { ACCOUNT_ID, profileFixture } from '../../fixtures.ts';
import { json, mockApi, renderApp, signedInHandlers } from '../../support.tsx';

afterEach(() => {
  toaster.remove();
  window.localStorage.clear();
});

const API = '/account/ui-api/v1';
const EVENT_ID = '7e1d2c3b-4a59-4687-9a0b-1c2d3e4f5a6b';
const ACTOR_ID = 'b2c3d4e5-f6a7-4b8c-9d0e-1f2a3b4c5d6e';
const OCCURRED_AT = '2026-11-24T08:09:10.123Z';

function auditEvent(overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: EVENT_ID,
    seq: 42,
    occurred_at: OCCURRED_AT,
    action: 'UPDATE',
    status: 'success',
    resource_type: 'ACCOUNT',
    resource_id: ACCOUNT_ID,
    account_id: ACCOUNT_ID,
    account_name: 'Example Corp',
    actor_id: ACTOR_ID,
    actor_name: 'Ada Admin',
    ip_address: '203.0.113.7',
    user_agent: 'Mozilla/5.0',
    details: {
      changes: { name: { from: 'Example', to: 'Example Corp' }, 'contact.email': { withheld: true } },
    },
    prev_hash: 'a'.repeat(64),
    hash: 'b'.repeat(64),
    ...overrides,
  };
}

function auditApi(
  options: { permissions?: readonly string[]; handlers?: Parameters<typeof mockApi>[0] } = {},
) {
  const profile = profileFixture({ access_scope: 'account', primary_account_id: ACCOUNT_ID });
  const listQueries: URLSearchParams[] = [];
  const api = mockApi({
    ...signedInHandlers(profile, options.permissions ?? BUILT_IN_ROLES.read_only_auditor.permissions),
    [`GET ${API}/audit-log`]: ({ url }) => {
      listQueries.push(url.searchParams);
      return json({
        items: [
          auditEvent(),
          auditEvent({
            id: 'login-error-1',
            seq: 41,
            action: 'LOGIN_ERROR',
            status: 'failure',
            resource_type: 'USER',
            actor_id: null,
            actor_name: 'mallory',
            details: {},
          }),
        ],
        total: 45,
      });
    },
    [`GET ${API}/audit-log/${EVENT_ID}`]: () => json(auditEvent()),
    [`GET ${API}/user`]: () => json({ items: [], total: 0 }),
    ...options.handlers,
  });
  return { ...api, listQueries, profile };
}

const shownTime = formatTimestamp(Temporal.Instant.from(OCCURRED_AT), Temporal.Now.timeZoneId());

describe('Reporting', () => {
  it('offers Logging to whoever may view the audit log', async () => {
    auditApi();
    renderApp('/account/reporting');
    await screen.findByRole('heading', { name: 'Reporting', level: 1 });
    const link = within(screen.getByRole('main')).getByRole('link', { name: 'Logging' });
    expect(link.getAttribute('href')).toBe('/account/reporting/logging');
  });

  it('answers 403 without the permission to view the audit log', async () => {
    auditApi({ permissions: ['VIEW_ACCOUNT'] });
    renderApp('/account/reporting/logging');
    await screen.findByText('You do not have permission to view this page.');
  });
});

describe('Reporting › Logging', () => {
  it('lists the events 20 a page, newest first, with the time as YYYY-MM-DD HH:mm:ss', async () => {
    const { listQueries } = auditApi();
    renderApp('/account/reporting/logging');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    expect(Object.fromEntries(listQueries[0] ?? [])).toEqual({
      limit: '20',
      offset: '0',
      sort: 'timestamp:desc',
    });
    expect(shownTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const link = within(table).getAllByRole('link', { name: shownTime })[0];
    expect(link?.getAttribute('href')).toBe(`/account/reporting/logging/${EVENT_ID}`);
    expect(within(table).getByText('Sign-in failed')).toBeTruthy();
    expect(within(table).getByText('Failure', { selector: '.status-badge' })).toBeTruthy();
    expect(screen.getByText('45 events')).toBeTruthy();
  });

  it("offers the spec's actions, statuses and resource types, and sends the chosen filters", async () => {
    const { listQueries } = auditApi();
    renderApp('/account/reporting/logging?from=2026-11-01&to=2026-11-24');
    await screen.findByRole('table', { name: 'Audit events' });
    const options = (label: string) =>
      [...(screen.getByRole('combobox', { name: label }) as HTMLSelectElement).options].map(
        (option) => option.value,
      );
    expect(options('Action')).toEqual([
      '',
      'CREATE',
      'UPDATE',
      'DELETE',
      'LOGIN',
      'LOGIN_ERROR',
      'LOGOUT',
      'UPDATE_PASSWORD',
      'TERMS_AND_CONDITIONS',
      'SEND_RESET_PASSWORD',
    ]);
    expect(options('Status')).toEqual(['', 'success', 'failure']);
    expect(options('Resource type').slice(1, 19)).toEqual([
      'APIKEY',
      'ACCOUNT',
      'USER',
      'SSO_SAML',
      'SSO_SAML_MFA',
      'SSO_OIDC',
      'ONELOGIN',
      'SSO_OIDC_MFA',
      'BASIC_AUTH',
      'BASIC_AUTH_MFA',
      'SAML2_CONFIG',
      'CLIENT_AUTH_CERT',
      'CLIENT_AUTH_CERT_MFA',
      'OAUTH_CLIENT',
      'OAUTH_CONFIG',
      'LICENSE',
      'DIGEST_AUTH',
      'SSO_OIDC_IDP_MFA',
    ]);
    // The days are the user's: their first and last instants where the user is.
    const zone = Temporal.Now.timeZoneId();
    const first = listQueries[0];
    expect(first?.get('from')).toBe(
      Temporal.PlainDate.from('2026-11-01').toZonedDateTime({ timeZone: zone }).toInstant().toString(),
    );
    expect(
      Temporal.Instant.from(first?.get('to') ?? '')
        .toZonedDateTimeISO(zone)
        .toPlainDate()
        .toString(),
    ).toBe('2026-11-24');
    await userEvent.setup().selectOptions(screen.getByRole('combobox', { name: 'Action' }), 'UPDATE');
    await waitFor(() => expect(listQueries.at(-1)?.get('action')).toBe('UPDATE'));
    expect(listQueries.at(-1)?.get('offset')).toBe('0');
  });

  it('hides and shows columns and remembers the choice for the user', async () => {
    const { profile } = auditApi();
    const { unmount } = renderApp('/account/reporting/logging');
    const table = await screen.findByRole('table', { name: 'Audit events' });
    const headers = () =>
      [...table.querySelectorAll('thead th')].map((header) =>
        header.textContent?.replace(/[▲▼↕]/g, '').trim(),
      );
    expect(headers()).toEqual(['Time', 'Action', 'Status', 'Resource', 'User', 'Account']);
    const user = userEvent.setup();
    await user.click(screen.getByText('Columns'));
    await user.click(screen.getByRole('checkbox', { name: 'Client address' }));
    await user.click(screen.getByRole('checkbox', { name: 'Account' }));
    expect(headers()).toEqual(['Time', 'Action', 'Status', 'Resource', 'User', 'Client address']);
    expect(
      JSON.parse(window.localStorage.getItem(`trust-console.audit-log-columns.${profile.id}`) ?? ''),
    ).toEqual(['action', 'status', 'resource', 'user', 'address']);
    unmount();
    renderApp('/account/reporting/logging');
    const again = await screen.findByRole('table', { name: 'Audit events' });
    expect(within(again).getAllByText('203.0.113.7')).toHaveLength(2);
  });

  it('downloads the filtered log as CSV and as JSON Lines', async () => {
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    // jsdom has no object URLs.
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:audit'), revokeObjectURL: vi.fn() });
    const exports: { query: Record<string, string>; accept: string | null }[] = [];
    const { calls } = auditApi({
      handlers: {
        [`GET ${API}/audit-log/export`]: ({ url }) => {
          exports.push({ query: Object.fromEntries(url.searchParams), accept: null });
          return new Response('seq\r\n', { headers: { 'Content-Type': 'text/csv' } });
        },
      },
    });
    try {
      renderApp('/account/reporting/logging?action=UPDATE&status=success');
      await screen.findByRole('table', { name: 'Audit events' });
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await user.click(screen.getByRole('button', { name: 'Export JSON Lines' }));
      await waitFor(() => expect(saved).toHaveLength(2));
      expect(saved[0]).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      expect(saved[1]).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.jsonl$/);
      expect(exports.map((each) => each.query)).toEqual([
        { format: 'csv', action: 'UPDATE', status: 'success', sort: 'timestamp:desc' },
        { format: 'jsonl', action: 'UPDATE', status: 'success', sort: 'timestamp:desc' },
      ]);
      const accepts = calls
        .filter((call) => call.path.endsWith('/export'))
        .map((call) => call.headers.get('Accept'));
      expect(accepts).toEqual(['text/csv', 'application/jsonl']);
    } finally {
      Reflect.deleteProperty(URL, 'createObjectURL');
      Reflect.deleteProperty(URL, 'revokeObjectURL');
    }
  });
});

describe('Reporting › Logging › one event', () => {
  it('shows who, when, what and the change before and after, with links to the resource and the actor', async () => {
    auditApi();
    renderApp(`/account/reporting/logging/${EVENT_ID}`);
    await screen.findByRole('heading', { name: `Updated at ${shownTime}`, level: 1 });
    expect(screen.getByRole('link', { name: 'Ada Admin' }).getAttribute('href')).toBe(
      `/account/access/administrators/${ACTOR_ID}`,
    );
    expect(screen.getByRole('link', { name: ACCOUNT_ID }).getAttribute('href')).toBe(
      `/account/accounts/${ACCOUNT_ID}`,
    );
    expect(screen.getByText('203.0.113.7')).toBeTruthy();
    const changes = screen.getByRole('table', { name: 'Changed fields, before and after' });
    const name = within(changes).getByRole('row', { name: /^name/ });
    expect(
      within(name)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Example', 'Example Corp']);
    expect(within(changes).getByText('Changed; the values are not kept in the log.')).toBeTruthy();
  });

  it('verifies the event on Verify and says it is intact, with the checkpoint', async () => {
    const verification: AuditVerification = {
      intact: true,
      event_ok: true,
      chain_ok: true,
      checkpoint_ok: true,
      checked_events: 42,
      checkpoint: {
        seq: 40,
        head_hash: 'c'.repeat(64),
        signed_at: OCCURRED_AT,
        key_id: 'key-1',
        signature: 'c2ln',
      },
    };
    const { calls } = auditApi({
      handlers: { [`GET ${API}/audit-log/${EVENT_ID}/verify`]: () => json(verification) },
    });
    renderApp(`/account/reporting/logging/${EVENT_ID}`);
    await screen.findByRole('heading', { level: 1 });
    expect(calls.some((call) => call.path.endsWith('/verify'))).toBe(false);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText('Intact: this event and the 42 events of the chain up to it are unchanged.');
    expect(screen.getByText(/over event 40 \(key key-1\); its signature holds/)).toBeTruthy();
  });

  it('says where the chain breaks and links to that event', async () => {
    auditApi({
      handlers: {
        [`GET ${API}/audit-log/${EVENT_ID}/verify`]: () =>
          json({
            intact: false,
            event_ok: true,
            chain_ok: false,
            checkpoint_ok: null,
            checked_events: 12,
            broken_at: { seq: 12, id: 'broken-1', reason: 'unlinked' },
          } satisfies AuditVerification),
      },
    });
    renderApp(`/account/reporting/logging/${EVENT_ID}`);
    await screen.findByRole('heading', { level: 1 });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Verify' }));
    await screen.findByText(/Not intact: the chain breaks at event 12\./);
    expect(screen.getByText(/An event before it was removed or moved\./)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open that event' }).getAttribute('href')).toBe(
      '/account/reporting/logging/broken-1',
    );
    expect(screen.getByText(/has not signed a checkpoint yet/)).toBeTruthy();
  });
});
