import { Trans } from '@lingui/react/macro';
import { useId } from 'react';
import './role-picker.css';
import { Checkbox } from './ui/checkbox.tsx';

export interface RoleChoice {
  id: string;
  name: string;
  app_code: string;
  built_in: boolean;
  /** False when the role grants a permission the chooser does not hold (decision 018 G5). */
  grantable: boolean;
}

export interface ApplicationGroup {
  code: string;
  name: string;
}

interface RolePickerProps {
  legend: string;
  /** The input name of every choice; the roles chosen are the form's values under it. */
  name: string;
  applications: readonly ApplicationGroup[];
  roles: readonly RoleChoice[];
  /** The roles chosen when the form opens. */
  selected: ReadonlySet<string>;
  error?: string | undefined;
}

/**
 * The roles to give a user, per application, as checkboxes (decision 039): a role the chooser may
 * not grant is shown disabled with the reason; one the user already holds stays chosen through a
 * hidden input, since taking it away is not what the form is for.
 */
export function RolePicker({ legend, name, applications, roles, selected, error }: RolePickerProps) {
  const id = useId();
  const reasonId = `${id}-not-grantable`;
  const errorId = `${id}-error`;
  const anyRefused = roles.some((role) => !role.grantable);
  return (
    <fieldset
      className="role-picker"
      name={name}
      // The form kit focuses the group when a submit finds no role chosen.
      tabIndex={-1}
      aria-invalid={Boolean(error) || undefined}
      aria-describedby={error ? errorId : undefined}
    >
      <legend className="role-picker__legend">{legend}</legend>
      {error ? (
        <div className="field__error" id={errorId}>
          {error}
        </div>
      ) : null}
      {anyRefused ? (
        <p className="field__hint" id={reasonId}>
          <Trans>
            Roles you cannot grant are shown disabled: they include permissions you do not hold yourself.
          </Trans>
        </p>
      ) : null}
      {applications.map((application) => {
        const own = roles.filter((role) => role.app_code === application.code);
        // An application without a role to give is left out, unless no application has one.
        if (own.length === 0 && roles.length > 0) return null;
        return (
          <fieldset key={application.code} className="role-picker__application">
            <legend className="role-picker__application-name">{application.name}</legend>
            {own.length === 0 ? (
              <p className="field__hint">
                <Trans>No roles in this application.</Trans>
              </p>
            ) : (
              own.map((role) => (
                <div key={role.id} className="role-picker__role">
                  <Checkbox
                    name={name}
                    value={role.id}
                    defaultChecked={selected.has(role.id)}
                    disabled={!role.grantable}
                    describedBy={role.grantable ? undefined : reasonId}
                  >
                    {role.name}
                    {role.built_in ? null : (
                      <span className="role-picker__kind">
                        {' '}
                        <Trans>(custom)</Trans>
                      </span>
                    )}
                    {role.grantable ? null : (
                      <span className="role-picker__kind">
                        {' '}
                        <Trans>(you cannot grant it)</Trans>
                      </span>
                    )}
                  </Checkbox>
                  {!role.grantable && selected.has(role.id) ? (
                    <input type="hidden" name={name} value={role.id} />
                  ) : null}
                </div>
              ))
            )}
          </fieldset>
        );
      })}
    </fieldset>
  );
}
