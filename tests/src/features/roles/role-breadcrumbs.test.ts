import { describe, expect, it } from 'vitest';
import { breadcrumbsFor } from '../../../../src/features/shell/breadcrumbs.ts';

describe('breadcrumbs of the role pages', () => {
  it('names the action segments and shows those with no page of their own as text', () => {
    const crumbs = breadcrumbsFor('/access/manage-user-roles/edit-role/role-7');
    expect(crumbs.map((crumb) => [crumb.path, crumb.label.message, crumb.disabled])).toEqual([
      ['/access', 'Access', false],
      ['/access/manage-user-roles', 'User roles', false],
      ['/access/manage-user-roles/edit-role', 'Edit role', true],
      ['/access/manage-user-roles/edit-role/role-7', 'Details', false],
    ]);
  });

  it('links the create page, which is a page of its own', () => {
    const [, , create] = breadcrumbsFor('/access/manage-user-roles/create-role');
    expect(create).toMatchObject({ path: '/access/manage-user-roles/create-role', disabled: false });
    expect(create?.label.message).toBe('Create role');
  });
});
