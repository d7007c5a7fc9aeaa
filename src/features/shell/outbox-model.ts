import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { OutboxEntryView, OutboxState } from '../../../contract/outbox.ts';

export const OUTBOX_STATE_LABELS: Readonly<Record<OutboxState, MessageDescriptor>> = {
  pending: msg`Waiting to be sent`,
  sending: msg`Sending`,
  held: msg`On hold until you sign in again`,
  conflict: msg`Conflict`,
  failed: msg`Failed`,
};

export type OutboxGroup = 'waiting' | 'conflict' | 'failed';

export function groupOf(entry: Pick<OutboxEntryView, 'state'>): OutboxGroup {
  if (entry.state === 'conflict') return 'conflict';
  if (entry.state === 'failed') return 'failed';
  return 'waiting';
}

/** One line of a comparison: a field of the queued change beside the server's current value. */
export interface ComparedField {
  /** Dotted path of the field (`service_period.to`). */
  path: string;
  queued: unknown;
  current: unknown;
  differs: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flatten(value: unknown, prefix: string, into: Map<string, unknown>): void {
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [key, nested] of Object.entries(value))
      flatten(nested, prefix ? `${prefix}.${key}` : key, into);
    return;
  }
  into.set(prefix, value);
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The queued change beside the server's current version, field by field: every field the change
 * sends (nested objects by dotted path), with the server's value at the same place. Fields only the
 * server has are left out: the change does not touch them.
 */
export function compareFields(queued: unknown, current: unknown): ComparedField[] {
  const queuedFields = new Map<string, unknown>();
  const currentFields = new Map<string, unknown>();
  flatten(queued, '', queuedFields);
  flatten(current, '', currentFields);
  return [...queuedFields].map(([path, value]) => {
    const server = currentFields.get(path);
    return { path, queued: value, current: server, differs: !same(value, server) };
  });
}

/** A field's value as text for the comparison and the read-only parts of the edit form. */
export function displayValue(value: unknown): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** An editable field of a failed change's body: strings, numbers and booleans; the rest is shown read-only. */
export type EditableField =
  | { name: string; kind: 'string'; value: string }
  | { name: string; kind: 'number'; value: number }
  | { name: string; kind: 'boolean'; value: boolean }
  | { name: string; kind: 'fixed'; value: unknown };

export function editableFields(body: unknown): EditableField[] {
  if (!isRecord(body)) return [];
  return Object.entries(body).map(([name, value]): EditableField => {
    if (typeof value === 'string') return { name, kind: 'string', value };
    if (typeof value === 'number') return { name, kind: 'number', value };
    if (typeof value === 'boolean') return { name, kind: 'boolean', value };
    return { name, kind: 'fixed', value };
  });
}

/**
 * The body again from the form's values, with each field's own type; `null` and the names of the
 * fields that are not valid when a number field does not hold a number.
 */
export function bodyFromForm(
  fields: readonly EditableField[],
  values: Readonly<Record<string, string | boolean>>,
): { body: Record<string, unknown>; invalid: string[] } {
  const body: Record<string, unknown> = {};
  const invalid: string[] = [];
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'string') body[field.name] = typeof value === 'string' ? value : field.value;
    else if (field.kind === 'boolean') body[field.name] = typeof value === 'boolean' ? value : field.value;
    else if (field.kind === 'number') {
      const text = typeof value === 'string' ? value.trim() : String(field.value);
      const parsed = Number(text);
      if (text === '' || !Number.isFinite(parsed)) invalid.push(field.name);
      else body[field.name] = parsed;
    } else body[field.name] = field.value;
  }
  return { body, invalid };
}
