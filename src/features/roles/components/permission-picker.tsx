import { Trans, useLingui } from '@lingui/react/macro';
import { useId } from 'react';
import type { PermissionGroupList } from '../../../../contract/schemas/users.ts';
import {
  PERMISSION_GROUP_LABELS,
  permissionLabel,
  permissionSubjectLabel,
} from '../../../components/role-labels.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import {
  type OfferedPermission,
  type PermissionRow,
  permissionRows,
  toggle,
  toggleGroup,
} from '../permission-model.ts';

interface PermissionPickerProps {
  groups: PermissionGroupList['items'];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
}

/**
 * The permissions of a role, group by group: a View and a Manage box per subject (Manage ticks
 * View), names the viewer cannot grant disabled with the reason, and "Select all grantable" per group.
 */
export function PermissionPicker({ groups, selected, onChange }: PermissionPickerProps) {
  const reasonId = useId();
  const anyLocked = groups.some((group) => group.permissions.some((permission) => !permission.grantable));
  return (
    <div className="permission-picker">
      {anyLocked ? (
        <p id={reasonId} className="permission-picker__reason">
          <Trans>
            Greyed-out permissions cannot be granted: you do not hold them yourself, or this account's type
            does not allow them.
          </Trans>
        </p>
      ) : null}
      {groups.map((group) => (
        <PermissionGroup
          key={group.id}
          groupId={group.id}
          permissions={group.permissions}
          selected={selected}
          onChange={onChange}
          reasonId={anyLocked ? reasonId : undefined}
        />
      ))}
    </div>
  );
}

function PermissionGroup({
  groupId,
  permissions,
  selected,
  onChange,
  reasonId,
}: {
  groupId: PermissionGroupList['items'][number]['id'];
  permissions: readonly OfferedPermission[];
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
  reasonId: string | undefined;
}) {
  const { i18n } = useLingui();
  const rows = permissionRows(permissions);
  const grantable = permissions.filter((permission) => permission.grantable);
  const allChosen = grantable.length > 0 && grantable.every((permission) => selected.has(permission.name));
  const group = i18n._(PERMISSION_GROUP_LABELS[groupId]);
  return (
    <fieldset className="permission-group">
      <legend className="permission-group__title">{group}</legend>
      <div className="permission-group__select-all">
        <Button
          variant="secondary"
          disabled={grantable.length === 0}
          onClick={() => onChange(toggleGroup(selected, permissions))}
        >
          {allChosen ? <Trans>Clear {group}</Trans> : <Trans>Select all grantable in {group}</Trans>}
        </Button>
      </div>
      <ul className="permission-group__rows">
        {rows.map((row) => (
          <li key={row.subject} className="permission-row">
            <span className="permission-row__subject">{permissionSubjectLabel(row.subject, i18n)}</span>
            <PermissionBox
              row={row}
              which="view"
              selected={selected}
              onChange={onChange}
              reasonId={reasonId}
            />
            <PermissionBox
              row={row}
              which="change"
              selected={selected}
              onChange={onChange}
              reasonId={reasonId}
            />
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

function PermissionBox({
  row,
  which,
  selected,
  onChange,
  reasonId,
}: {
  row: PermissionRow;
  which: 'view' | 'change';
  selected: ReadonlySet<string>;
  onChange: (selected: Set<string>) => void;
  reasonId: string | undefined;
}) {
  const { i18n } = useLingui();
  const permission = row[which];
  if (!permission) return <span className="permission-row__empty" />;
  return (
    <Checkbox
      checked={selected.has(permission.name)}
      disabled={!permission.grantable}
      describedBy={permission.grantable ? undefined : reasonId}
      onCheckedChange={(checked) => onChange(toggle(selected, row, which, checked))}
    >
      {permissionLabel(permission.name, i18n)}
    </Checkbox>
  );
}
