import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { OutboxEntryView } from '../../../../contract/outbox.ts';
import { formatDataTime } from '../../../components/cached-data-notice.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { postOutboxCommand, useOutbox } from '../../../lib/offline/outbox-client.ts';
import {
  bodyFromForm,
  compareFields,
  displayValue,
  type EditableField,
  editableFields,
  groupOf,
  OUTBOX_STATE_LABELS,
  type OutboxGroup,
} from '../outbox-model.ts';
import './outbox.css';

interface OutboxPanelProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  entries: readonly OutboxEntryView[];
  /** The latest change of state, for the panel's own live region (the page behind is hidden). */
  announcement: string;
}

function FieldValue({ value }: { value: unknown }) {
  const text = displayValue(value);
  if (text !== '') return text;
  return (
    <span className="outbox__empty">
      <Trans>(empty)</Trans>
    </span>
  );
}

/** The queued change and the server's current version, field by field; differing rows are marked. */
function ConflictComparison({ entry }: { entry: OutboxEntryView }) {
  const rows = compareFields(entry.body, entry.current?.value);
  if (!entry.current) {
    return (
      <p>
        <Trans>
          The server did not send its current version. Discard the change, or apply it on the current version.
        </Trans>
      </p>
    );
  }
  return (
    <table className="outbox__comparison">
      <caption className="visually-hidden">
        <Trans>Your change beside the current version on the server</Trans>
      </caption>
      <thead>
        <tr>
          <th scope="col">
            <Trans>Field</Trans>
          </th>
          <th scope="col">
            <Trans>Your change</Trans>
          </th>
          <th scope="col">
            <Trans>On the server now</Trans>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.path} className={row.differs ? 'outbox__row--differs' : undefined}>
            <th scope="row">
              {row.path}
              {row.differs ? (
                <span className="outbox__differs">
                  {' '}
                  <Trans>(differs)</Trans>
                </span>
              ) : null}
            </th>
            <td>
              <FieldValue value={row.queued} />
            </td>
            <td>
              <FieldValue value={row.current} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A small form over the fields of a failed change: strings, numbers and booleans; the rest read-only. */
function RetryForm({
  entry,
  onRetry,
  onCancel,
}: {
  entry: OutboxEntryView;
  onRetry: (body: unknown) => void;
  onCancel: () => void;
}) {
  const { t } = useLingui();
  const fields = editableFields(entry.body);
  const [invalid, setInvalid] = useState<string[]>([]);
  const formId = useId();
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const values: Record<string, string | boolean> = {};
    for (const field of fields) {
      const control = form.elements.namedItem(field.name);
      if (!(control instanceof HTMLInputElement)) continue;
      values[field.name] = field.kind === 'boolean' ? control.checked : control.value;
    }
    const result = bodyFromForm(fields, values);
    setInvalid(result.invalid);
    if (result.invalid.length > 0) {
      const first = form.elements.namedItem(result.invalid[0] ?? '');
      if (first instanceof HTMLElement) first.focus();
      return;
    }
    onRetry(result.body);
  };

  const input = (field: EditableField, index: number) => {
    const id = `${formId}-${field.name}`;
    const errorId = `${id}-error`;
    const ref = index === 0 ? firstRef : undefined;
    if (field.kind === 'fixed') {
      return (
        <div className="field" key={field.name}>
          <span className="field__label">
            {field.name} <Trans>(cannot be edited here)</Trans>
          </span>
          <pre className="outbox__fixed">{JSON.stringify(field.value, null, 2)}</pre>
        </div>
      );
    }
    if (field.kind === 'boolean') {
      return (
        <div className="field outbox__checkbox" key={field.name}>
          <input ref={ref} type="checkbox" id={id} name={field.name} defaultChecked={field.value} />
          <label htmlFor={id}>{field.name}</label>
        </div>
      );
    }
    const wrong = invalid.includes(field.name);
    return (
      <div className="field" key={field.name}>
        <label className="field__label" htmlFor={id}>
          {field.name}
        </label>
        <input
          ref={ref}
          className="field__control"
          id={id}
          name={field.name}
          type="text"
          inputMode={field.kind === 'number' ? 'decimal' : undefined}
          defaultValue={String(field.value)}
          aria-invalid={wrong}
          aria-describedby={wrong ? errorId : undefined}
        />
        {wrong ? (
          <div className="field__error" id={errorId}>
            <Trans>Enter a number.</Trans>
          </div>
        ) : null}
      </div>
    );
  };

  return (
    <form className="outbox__retry" onSubmit={submit} noValidate aria-label={t`Edit the change`}>
      {fields.length === 0 ? (
        <p>
          <Trans>This change has no fields to edit.</Trans>
        </p>
      ) : (
        fields.map(input)
      )}
      <div className="dialog__actions">
        <Button variant="secondary" onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit">
          <Trans>Retry</Trans>
        </Button>
      </div>
    </form>
  );
}

function EntryCard({
  entry,
  group,
  applying,
  onApply,
  onActed,
}: {
  entry: OutboxEntryView;
  /** Where the card is drawn: its own group, or the conflicts while it is being applied. */
  group: OutboxGroup;
  /** "Apply on current version" was chosen and has not settled: the card stays, its actions off. */
  applying: boolean;
  onApply: (id: string) => void;
  /** An action was posted: focus moves on, since the card's buttons may go with the new state. */
  onActed: (id: string) => void;
}) {
  const { i18n } = useLingui();
  const [mode, setMode] = useState<'view' | 'confirm-discard' | 'edit'>('view');
  const headingId = useId();
  const created = Date.parse(entry.createdAt);
  const when = Number.isNaN(created) ? entry.createdAt : formatDataTime(created, i18n.locale);
  const post = (command: Parameters<typeof postOutboxCommand>[0]) => {
    postOutboxCommand(command);
    setMode('view');
    onActed(entry.id);
  };

  return (
    <li className={`outbox__entry outbox__entry--${group}`} aria-labelledby={headingId}>
      <h3 id={headingId} className="outbox__summary" tabIndex={-1} data-entry-heading={entry.id}>
        {entry.summary}
      </h3>
      <p className="outbox__meta">
        <time dateTime={entry.createdAt}>{when}</time>
        {' · '}
        <span>{i18n._(OUTBOX_STATE_LABELS[entry.state])}</span>
      </p>
      {entry.error && group !== 'waiting' ? (
        <p className="outbox__error">
          <Trans>
            The server answered: {entry.error.message} ({entry.error.status})
          </Trans>
        </p>
      ) : null}
      {group === 'conflict' ? <ConflictComparison entry={entry} /> : null}
      {mode === 'edit' ? (
        <RetryForm
          entry={entry}
          onCancel={() => setMode('view')}
          onRetry={(body) => post({ type: 'retry', id: entry.id, body })}
        />
      ) : null}
      {mode === 'confirm-discard' ? (
        <fieldset className="outbox__confirm">
          <legend>
            <Trans>Discard this change? It will not reach the server.</Trans>
          </legend>
          <div className="dialog__actions">
            <Button variant="secondary" onClick={() => setMode('view')} autoFocus>
              <Trans>Keep it</Trans>
            </Button>
            <Button className="button--danger" onClick={() => post({ type: 'discard', id: entry.id })}>
              <Trans>Discard</Trans>
            </Button>
          </div>
        </fieldset>
      ) : null}
      {applying ? (
        <p className="outbox__state" role="status">
          <Trans>Applying on the current version…</Trans>
        </p>
      ) : null}
      {mode === 'view' && (entry.state !== 'sending' || applying) ? (
        <div className="outbox__actions">
          {group === 'conflict' ? (
            <Button
              aria-disabled={applying || undefined}
              onClick={() => {
                // Acts once, on the entry this card was drawn for: a second click lands here too.
                if (applying) return;
                onApply(entry.id);
                post({ type: 'reapply', id: entry.id });
              }}
            >
              <Trans>Apply on current version</Trans>
            </Button>
          ) : null}
          {group === 'failed' ? (
            <Button onClick={() => setMode('edit')}>
              <Trans>Edit and retry</Trans>
            </Button>
          ) : null}
          <Button
            variant="secondary"
            aria-disabled={applying || undefined}
            onClick={() => {
              if (!applying) setMode('confirm-discard');
            }}
          >
            <Trans>Discard</Trans>
          </Button>
        </div>
      ) : null}
    </li>
  );
}

const GROUP_ORDER: readonly OutboxGroup[] = ['conflict', 'failed', 'waiting'];

/**
 * The outbox (docs/decisions/013): every change of this user not yet on the server, with what each
 * needs. The worker does the work; the panel posts commands and renders what it broadcasts.
 */
export function OutboxPanel({ open, onOpenChange, entries, announcement }: OutboxPanelProps) {
  const { syncNow } = useOutbox();
  const syncRef = useRef<HTMLButtonElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const [focusAfter, setFocusAfter] = useState<string | null>(null);

  // After an action, the card's buttons may be gone: continue from its heading, or from Sync now.
  useEffect(() => {
    if (focusAfter === null) return;
    const heading = listRef.current?.querySelector<HTMLElement>(
      `[data-entry-heading="${CSS.escape(focusAfter)}"]`,
    );
    (heading ?? syncRef.current)?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  // Conflicts being applied, and whether each was seen on its way back to the server since: it keeps
  // its place among the conflicts, its actions off, until it settles (sent and gone, or a conflict or
  // failure again), so the next conflict's button never slides under a second click.
  const [applying, setApplying] = useState<ReadonlyMap<string, boolean>>(new Map());
  useEffect(() => {
    setApplying((current) => {
      if (current.size === 0) return current;
      const next = new Map<string, boolean>();
      for (const [id, seenOnItsWay] of current) {
        const entry = entries.find((candidate) => candidate.id === id);
        if (!entry) continue;
        const onItsWay = entry.state === 'pending' || entry.state === 'sending';
        if (onItsWay) next.set(id, true);
        else if (!seenOnItsWay) next.set(id, false);
      }
      return next;
    });
  }, [entries]);
  const startApplying = (id: string) => setApplying((current) => new Map(current).set(id, false));
  const drawnIn = (entry: OutboxEntryView): OutboxGroup =>
    applying.has(entry.id) ? 'conflict' : groupOf(entry);

  const groups = GROUP_ORDER.map((group) => ({
    group,
    entries: entries.filter((entry) => drawnIn(entry) === group),
  })).filter(({ entries: grouped }) => grouped.length > 0);
  const count = entries.length;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={<Trans>Outbox</Trans>}
      description={
        <Plural
          value={count}
          _0="Every change you made is on the server."
          one="# change made on this device is not on the server yet."
          other="# changes made on this device are not on the server yet."
        />
      }
    >
      <div className="outbox" ref={listRef}>
        <div aria-live="polite" aria-atomic="true" className="visually-hidden">
          {announcement}
        </div>
        <div className="outbox__toolbar">
          <Button ref={syncRef} onClick={syncNow}>
            <Trans>Sync now</Trans>
          </Button>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            <Trans>Close</Trans>
          </Button>
        </div>
        {groups.map(({ group, entries: grouped }) => (
          <section key={group} className="outbox__group" aria-labelledby={`outbox-${group}`}>
            <h2 id={`outbox-${group}`} className="outbox__group-title">
              {group === 'conflict' ? (
                <Trans>Conflicts</Trans>
              ) : group === 'failed' ? (
                <Trans>Failed</Trans>
              ) : (
                <Trans>Waiting to be sent</Trans>
              )}
            </h2>
            <ul className="outbox__list">
              {grouped.map((entry) => (
                <EntryCard
                  key={entry.id}
                  entry={entry}
                  group={group}
                  applying={applying.has(entry.id)}
                  onApply={startApplying}
                  onActed={setFocusAfter}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
