// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CUSTOMER_ID } from '../../fixtures.ts';
import { json, renderApp } from '../../support.tsx';
import { SYSTEM_ADMINISTRATOR as ACCOUNT_VIEWER, accountsApi } from '../accounts/account-details-support.ts';
import { queriesOf, USER_ID, usersApi } from '../users/users-support.ts';
import { enrollment } from './enrollments-support.ts';

const LIST = '/account/ui-api/v1/enrollments';

describe("The account details page's Enrollments section", () => {
  it("lists the account's latest enrollments with the ways to all of them and to a new one", async () => {
    const requests: URL[] = [];
    accountsApi({
      permissions: [...ACCOUNT_VIEWER, 'VIEW_ENROLLMENT', 'MANAGE_ENROLLMENT'],
      extra: {
        [`GET ${LIST}`]: ({ url }) => {
          requests.push(url);
          return json({ items: [enrollment({ account_id: CUSTOMER_ID })], total: 7 });
        },
      },
    });
    renderApp(`/account/accounts/${CUSTOMER_ID}`);
    const link = await screen.findByRole('link', { name: 'Lab laptop 7' });
    expect(Object.fromEntries(requests[0]?.searchParams ?? [])).toMatchObject({
      account_id: CUSTOMER_ID,
      limit: '5',
      sort: 'created_at:desc',
    });
    const section = link.closest('.enrollments-section') as HTMLElement;
    expect(
      within(section).getByRole('link', { name: 'All 7 enrollments of this account' }).getAttribute('href'),
    ).toBe(`/account/ca/enrollments?account=${CUSTOMER_ID}`);
    expect(within(section).getByRole('link', { name: 'New enrollment' }).getAttribute('href')).toBe(
      `/account/ca/enrollments/create?account=${CUSTOMER_ID}`,
    );
  });

  it('is not there for those who may not view enrollments', async () => {
    const { calls } = accountsApi({ permissions: ACCOUNT_VIEWER });
    renderApp(`/account/accounts/${CUSTOMER_ID}`);
    await screen.findByRole('button', { name: 'Organizations' });
    expect(screen.queryByRole('button', { name: 'Enrollments' })).toBeNull();
    expect(calls.some((call) => call.path === LIST)).toBe(false);
  });
});

describe("The administrator details page's Enrollments section", () => {
  it("asks for the person's enrollments across the viewer's accounts and offers to enroll them", async () => {
    const seat = {
      ...enrollment().seat,
      id: 'seat-person',
      kind: 'user' as const,
      user_id: USER_ID,
      name: 'Grace Hopper',
      email: 'grace@example.com',
    };
    const { requests } = usersApi({
      extra: {
        [`GET ${LIST}`]: () => json({ items: [enrollment({ id: 'theirs', seat })], total: 1 }),
      },
    });
    renderApp(`/account/access/administrators/${USER_ID}`);
    const section = await screen.findByRole('region', { name: 'Enrollments' });
    expect(await within(section).findByRole('link', { name: 'Grace Hopper' })).toBeTruthy();
    expect(queriesOf(requests, LIST)[0]).toMatchObject({ user_id: USER_ID });
    expect(
      within(section).getByRole('link', { name: 'All enrollments of this person' }).getAttribute('href'),
    ).toBe(`/account/ca/enrollments?user=${USER_ID}`);
    expect(within(section).getByRole('link', { name: 'Enroll a certificate' }).getAttribute('href')).toMatch(
      new RegExp(`/account/ca/enrollments/create\\?account=.+&user=${USER_ID}$`),
    );
  });
});
