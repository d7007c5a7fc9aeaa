import { Trans, useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import * as v from 'valibot';
import {
  ALIAS_IDENTIFIER_MAX_LENGTH,
  ALIAS_VALUE_MAX_LENGTH,
  aliasIdentifierSchema,
  aliasValueSchema,
  MAX_ALIASES,
} from '../../contract/schemas/users.ts';
import { fieldIssues } from '../../contract/validation.ts';
import type { FieldCodes, FormState, FormValues } from '../lib/form/use-form.ts';
import { Button } from './ui/button.tsx';
import { TextField } from './ui/field.tsx';
import './aliases-editor.css';

/*
 * Shared by the own profile and the administrator pages (decision 039).
 * Aliases (E-20 … E-26) as rows of identifier and value. Inputs are named `alias.<row>.identifier`
 * and `alias.<row>.value`, so the form kit shows each row's errors under its own inputs; the request
 * gets them as the map of identifier to value the contract holds.
 */

const ROW_FIELD = /^alias\.(\d+)\.(identifier|value)$/;

interface AliasRow {
  row: string;
  identifier: string;
  value: string;
}

/** The rows the form holds, in their order on the page. */
function rowsOf(values: FormValues): AliasRow[] {
  const rows = new Map<string, AliasRow>();
  for (const [name, value] of Object.entries(values)) {
    const match = ROW_FIELD.exec(name);
    if (!match) continue;
    const [, row = '', part] = match;
    const entry = rows.get(row) ?? { row, identifier: '', value: '' };
    if (part === 'identifier') entry.identifier = value;
    else entry.value = value;
    rows.set(row, entry);
  }
  return [...rows.values()];
}

/** The aliases of the form as the request holds them: identifier → value, trimmed as the contract trims them. */
export function aliasesOf(values: FormValues): Record<string, string> {
  return Object.fromEntries(rowsOf(values).map((row) => [row.identifier.trim(), row.value.trim()]));
}

function firstCode(schema: v.GenericSchema, value: string) {
  const result = v.safeParse(schema, value);
  return result.success ? undefined : fieldIssues(result.issues)[''];
}

/**
 * The rules of each row: identifier and value by the contract's schemas, and an identifier another row
 * already has is refused on the later row (`duplicateAlias`).
 */
export function aliasRules(values: FormValues): FieldCodes {
  const codes: Record<string, FieldCodes[string]> = {};
  const seen = new Set<string>();
  for (const row of rowsOf(values)) {
    const identifierCode = firstCode(aliasIdentifierSchema, row.identifier);
    const valueCode = firstCode(aliasValueSchema, row.value);
    const identifier = row.identifier.trim();
    if (identifierCode) codes[`alias.${row.row}.identifier`] = identifierCode;
    else if (seen.has(identifier)) codes[`alias.${row.row}.identifier`] = 'duplicateAlias';
    if (valueCode) codes[`alias.${row.row}.value`] = valueCode;
    seen.add(identifier);
  }
  return codes;
}

/** The rows of aliases, with adding (up to the contract's limit) and removing. */
export function AliasesEditor({
  initial,
  form,
}: {
  initial: Readonly<Record<string, string>>;
  form: FormState;
}) {
  const { t } = useLingui();
  const next = useRef(0);
  const newRow = (identifier = '', value = ''): AliasRow => {
    next.current += 1;
    return { row: String(next.current), identifier, value };
  };
  const [rows, setRows] = useState<AliasRow[]>(() =>
    Object.entries(initial).map(([identifier, value]) => newRow(identifier, value)),
  );
  const full = rows.length >= MAX_ALIASES;
  const addButton = useRef<HTMLButtonElement>(null);

  const remove = (row: string) => {
    setRows((current) => current.filter((entry) => entry.row !== row));
    // The row and its button are gone: focus goes where the user can carry on.
    addButton.current?.focus();
  };

  return (
    <fieldset className="aliases-editor">
      <legend>
        <Trans>Aliases</Trans>
      </legend>
      <p className="field__hint">
        <Trans>
          Up to {MAX_ALIASES} aliases. Identifier: letters, digits and _ . - (at most{' '}
          {ALIAS_IDENTIFIER_MAX_LENGTH} characters). Value: at most {ALIAS_VALUE_MAX_LENGTH} characters.
        </Trans>
      </p>
      {rows.length === 0 ? (
        <p>
          <Trans>No aliases.</Trans>
        </p>
      ) : (
        <ul className="aliases-editor__rows">
          {rows.map((entry, index) => (
            <li key={entry.row} className="form__grid aliases-editor__row">
              <TextField
                label={t`Identifier ${index + 1}`}
                {...form.field(`alias.${entry.row}.identifier`)}
                defaultValue={entry.identifier}
                autoCapitalize="none"
                spellCheck={false}
                required
              />
              <TextField
                label={t`Value ${index + 1}`}
                {...form.field(`alias.${entry.row}.value`)}
                defaultValue={entry.value}
                required
              />
              <Button
                variant="secondary"
                className="aliases-editor__remove"
                onClick={() => remove(entry.row)}
              >
                <Trans>Remove alias {index + 1}</Trans>
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button
        ref={addButton}
        variant="secondary"
        aria-disabled={full || undefined}
        onClick={() => {
          if (!full) setRows((current) => [...current, newRow()]);
        }}
      >
        <Trans>Add alias</Trans>
      </Button>
      {full ? (
        <p className="field__hint">
          <Trans>You have the most aliases allowed.</Trans>
        </p>
      ) : null}
    </fieldset>
  );
}
