import { Trans } from '@lingui/react/macro';
import { APPLICATION_CODES, type ApplicationCode } from '../../contract/permissions.ts';
import { APPLICATION_NAMES } from './role-labels.ts';
import './role-picker.css';

/** A role as the picker offers it. */
export interface RoleChoice {
  id: string;
  name: string;
  app_code: ApplicationCode;
  built_in: boolean;
  /** Why the role cannot be chosen (it grants more than the caller holds); absent when it can. */
  unavailable?: string | undefined;
}

interface RolePickerProps {
  /** The roles the user may be given, of every application; grouped here by application. */
  roles: readonly RoleChoice[];
  selected: ReadonlySet<string>;
  onChange: (selected: ReadonlySet<string>) => void;
  /** The name the form's errors use (`role_ids`): the server's field error lands here. */
  name: string;
  error?: string | undefined;
  disabled?: boolean;
}

/**
 * Roles per application as groups of checkboxes (decision 018 §8): one fieldset per application that
 * has roles to offer, built-in and custom roles told apart, and a role the caller may not give shown
 * disabled with the reason (decision 018 §8.4 step 3). Presentational: each feature feeds it from
 * its own query and keeps the choice in its own state. Native checkboxes keep the platform's keyboard
 * and screen-reader behaviour; the group's error is tied to every box.
 */
export function RolePicker({ roles, selected, onChange, name, error, disabled }: RolePickerProps) {
  const errorId = `${name}-error`;
  const toggle = (id: string, checked: boolean) => {
    const next = new Set(selected);
    if (checked) next.add(id);
    else next.delete(id);
    onChange(next);
  };
  const applications = APPLICATION_CODES.filter((code) => roles.some((role) => role.app_code === code));
  return (
    <div className="role-picker" data-field={name}>
      {applications.map((code) => (
        <fieldset key={code} className="role-picker__application">
          <legend>{APPLICATION_NAMES[code]}</legend>
          {roles
            .filter((role) => role.app_code === code)
            .map((role) => (
              <label key={role.id} className="role-picker__choice">
                <input
                  type="checkbox"
                  name={name}
                  value={role.id}
                  checked={selected.has(role.id)}
                  disabled={disabled || role.unavailable !== undefined}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={
                    [error ? errorId : null, role.unavailable ? `${name}-${role.id}-why` : null]
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                  onChange={(event) => toggle(role.id, event.currentTarget.checked)}
                />
                <span>{role.name}</span>
                {role.built_in ? null : (
                  <span className="role-picker__note">
                    <Trans>Custom</Trans>
                  </span>
                )}
                {role.unavailable ? (
                  <span id={`${name}-${role.id}-why`} className="role-picker__note">
                    {role.unavailable}
                  </span>
                ) : null}
              </label>
            ))}
        </fieldset>
      ))}
      {error ? (
        <p id={errorId} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
