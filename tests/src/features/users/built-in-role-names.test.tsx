// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../support.tsx';
import { findAdministratorsTable, userSummaryFixture, usersApi } from './users-support.ts';

/**
 * Built-in roles keep their English names in the database and are shown by their code (decision 035
 * §2): a stored name that differs from the label proves the label is what the list shows.
 */
describe('built-in role names on the administrators list', () => {
  it('names a built-in role by its code and a custom role by its name', async () => {
    const row = userSummaryFixture({
      first_name: 'Grace',
      last_name: 'Hopper',
      roles: [
        { id: 'role-1', name: 'Stored name of the auditor', code: 'read_only_auditor' },
        { id: 'role-7', name: 'Helpdesk', code: null },
      ],
    });
    usersApi({ users: [row] });
    renderApp('/account/access/administrators');
    const table = await findAdministratorsTable();
    const cells = within(table).getByRole('link', { name: 'Grace Hopper' }).closest('tr');
    expect(cells?.textContent).toContain('Read-only auditor, Helpdesk');
    expect(screen.queryByText(/Stored name of the auditor/)).toBeNull();
  });
});
