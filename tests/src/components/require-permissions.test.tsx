// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RequirePermissions } from '../../../src/components/require-permissions.tsx';
import { renderWithPermissions } from '../support.tsx';

describe('RequirePermissions', () => {
  it('renders the page when every required permission is held', async () => {
    renderWithPermissions(
      <RequirePermissions flags={['canViewAccount', 'canManageAccount']}>
        <h1>Accounts</h1>
      </RequirePermissions>,
      ['canViewAccount', 'canManageAccount'],
    );
    expect(await screen.findByRole('heading', { name: 'Accounts' })).toBeTruthy();
  });

  it('shows the alternative page when view account is required but missing', async () => {
    renderWithPermissions(
      <RequirePermissions flags={['canViewAccount']}>
        <h1>Accounts</h1>
      </RequirePermissions>,
      [],
    );
    expect(await screen.findByRole('heading', { name: 'This account cannot be viewed' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the accounts list' }).getAttribute('href')).toBe(
      '/accounts',
    );
    expect(screen.queryByRole('heading', { name: 'Accounts' })).toBeNull();
  });

  it('shows the 403 page when another permission is missing', async () => {
    renderWithPermissions(
      <RequirePermissions flags={['canViewAuditLog']}>
        <h1>Logging</h1>
      </RequirePermissions>,
      ['canViewAccount'],
    );
    expect(await screen.findByRole('heading', { name: '403' })).toBeTruthy();
    expect(screen.getByText('You do not have permission to view this page.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to accounts' })).toBeTruthy();
  });

  it('needs one of the alternatives as well when some are given', async () => {
    renderWithPermissions(
      <RequirePermissions flags={[]} anyOf={['canViewLicense', 'canManageLicense']}>
        <h1>Platform settings</h1>
      </RequirePermissions>,
      ['canManageLicense'],
    );
    expect(await screen.findByRole('heading', { name: 'Platform settings' })).toBeTruthy();
  });
});
