import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import type { LicenceChangeOption, LicenceQuantityIssue } from '../../../../contract/licences.ts';
import { API_ERROR_CODES } from '../../../../contract/schemas/common.ts';
import type { AccountLicence, LicenceRow } from '../../../../contract/schemas/licences.ts';
import { isValidationCode } from '../../../../contract/validation.ts';
import { notify } from '../../../components/notify.ts';
import { APPLICATION_NAMES } from '../../../components/role-labels.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Checkbox } from '../../../components/ui/checkbox.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { errorPageText } from '../../../lib/error-messages.ts';
import { isQueued, newIdempotencyKey } from '../../../lib/offline/queueable-request.ts';
import {
  editOutcome,
  licenceAmount,
  licenceTypeLabel,
  NO_CHANGE,
  offersResetAll,
  overUseAfter,
  type RowEdit,
  resetAllEdits,
  rowIssue,
  rowOptions,
} from '../model.ts';
import { useChangeLicence } from '../mutations.ts';

/** J-30, J-31: the licence data is read again 500 ms after a change, and the view returns after 1000 ms. */
export const REFETCH_AFTER_MS = 500;
export const RETURN_AFTER_MS = 1000;

const OPTION_LABELS: Readonly<Record<LicenceChangeOption, MessageDescriptor>> = {
  noChange: msg`No change`,
  add: msg`Add`,
  subtract: msg`Subtract`,
  reset: msg`Reset to`,
};

const GENERIC_FAILURE = msg`The licence could not be updated.`;

function issueText(issue: LicenceQuantityIssue, i18n: I18n): string {
  switch (issue.code) {
    case 'positiveNumber':
      return i18n._(msg`Enter a positive whole number.`);
    case 'cannotExceed': {
      const maximum = i18n.number(issue.maximum);
      return i18n._(msg`The quantity cannot exceed ${maximum}.`);
    }
    default: {
      const minimum = i18n.number(issue.minimum);
      return i18n._(msg`The quantity cannot be below ${minimum}.`);
    }
  }
}

/**
 * A failed change (J-28, J-29): our sentence for a code we know, the connection's own failure as such,
 * else the generic licence error rather than a status sentence that says less.
 */
export function licenceFailureText(error: unknown, i18n: I18n): string {
  if (error instanceof ApiError) {
    const known =
      error.code !== null &&
      ((API_ERROR_CODES as readonly string[]).includes(error.code) || isValidationCode(error.code));
    return known ? errorPageText(error, i18n) : i18n._(GENERIC_FAILURE);
  }
  return errorPageText(error, i18n);
}

interface RowEditorProps {
  licence: AccountLicence;
  row: LicenceRow;
  edit: RowEdit;
  disabled: boolean;
  onChange: (edit: RowEdit) => void;
}

/** One licence type: what it holds, the options it offers, and the quantity with its rule (J-11 … J-24). */
function RowEditor({ licence, row, edit, disabled, onChange }: RowEditorProps) {
  const { i18n } = useLingui();
  const name = `licence-${row.featureId}`;
  const legendId = useId();
  const quantityRef = useRef<HTMLInputElement>(null);
  const options = rowOptions(licence, row);
  const issue = rowIssue(row, edit);
  const label = licenceTypeLabel(row.featureId, i18n);
  const total = licenceAmount(row.totalAllocated, i18n);
  const used = licenceAmount(row.used, i18n);
  const available = licenceAmount(row.licenseAllocation, i18n);
  const overUse = overUseAfter(row, edit);
  const overUseText = i18n.number(overUse);
  const choose = (option: LicenceChangeOption) => {
    onChange({ option, quantity: option === 'noChange' ? '' : edit.quantity });
    // The quantity is what comes next once a change is chosen.
    if (option !== 'noChange') requestAnimationFrame(() => quantityRef.current?.focus());
  };
  return (
    <fieldset className="licence-edit__row" aria-labelledby={legendId}>
      <legend id={legendId} className="licence-edit__legend">
        {label}
      </legend>
      <p className="licence-edit__figures">
        <Trans>
          Total allocated: {total}. Used: {used}. Available to allocate: {available}.
        </Trans>
      </p>
      <div className="licence-edit__options">
        {options.map((option) => (
          <label key={option} className="licence-edit__option">
            <input
              type="radio"
              name={name}
              value={option}
              checked={edit.option === option}
              disabled={disabled}
              onChange={() => choose(option)}
            />
            {i18n._(OPTION_LABELS[option])}
          </label>
        ))}
      </div>
      {edit.option === 'noChange' ? null : (
        <TextField
          ref={quantityRef}
          label={<Trans>Quantity of {label}</Trans>}
          name={`${name}-quantity`}
          inputMode="numeric"
          autoComplete="off"
          value={edit.quantity}
          disabled={disabled}
          required
          error={issue && edit.quantity !== '' ? issueText(issue, i18n) : undefined}
          onChange={(event) => onChange({ option: edit.option, quantity: event.currentTarget.value })}
          className="licence-edit__quantity"
        />
      )}
      {overUse > 0 ? (
        <Alert tone="warning">
          <Trans>
            {used} are in use: this total leaves the account {overUseText} over its licence.
          </Trans>
        </Alert>
      ) : null}
    </fieldset>
  );
}

interface LicenceEditDialogProps {
  accountId: string;
  accountName: string;
  licence: AccountLicence;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Reads the licence data again (J-30), and what follows from it. */
  onChanged: () => void;
}

/**
 * The edit of one application's licences (J-11 … J-31), as a dialog over the page: a handful of rows,
 * reached and left by keyboard without losing the place on the account's page.
 */
export function LicenceEditDialog({ open, onOpenChange, licence, ...props }: LicenceEditDialogProps) {
  const application = APPLICATION_NAMES[licence.id];
  const parentName = licence.parent.name;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={<Trans>Edit {application} licences</Trans>}
      description={<Trans>Allocations are drawn from the licences of {parentName}.</Trans>}
    >
      <LicenceEditForm licence={licence} onClose={() => onOpenChange(false)} {...props} />
    </Dialog>
  );
}

function LicenceEditForm({
  accountId,
  accountName,
  licence,
  onChanged,
  onClose,
}: Omit<LicenceEditDialogProps, 'open' | 'onOpenChange'> & { onClose: () => void }) {
  const { t, i18n } = useLingui();
  const change = useChangeLicence(accountId, accountName, licence.id);
  const [edits, setEdits] = useState<Readonly<Record<string, RowEdit>>>({});
  const [done, setDone] = useState(false);
  const [overUseConfirmed, setOverUseConfirmed] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const outcome = editOutcome(licence, edits);
  const busy = change.isPending || done;
  const needsConfirmation = outcome.kind === 'ready' && outcome.overUse.length > 0;
  const ready = outcome.kind === 'ready' && (!needsConfirmation || overUseConfirmed);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (outcome.kind !== 'ready' || !ready || busy) return;
    try {
      const result = await change.mutateAsync({
        change: needsConfirmation ? { ...outcome.request, confirm_over_use: true } : outcome.request,
        version: licence.version,
        base: Object.fromEntries(licence.data.map((row) => [row.featureId, row.totalAllocated])),
        idempotencyKey: newIdempotencyKey(),
      });
      if (isQueued(result)) {
        notify('info', t`Saved on this device. The change is sent when the connection returns.`);
        onClose();
        return;
      }
      notify('success', t`Licence updated.`);
      setDone(true);
      timers.current.push(setTimeout(onChanged, REFETCH_AFTER_MS), setTimeout(onClose, RETURN_AFTER_MS));
    } catch (error) {
      notify('error', licenceFailureText(error, i18n));
      // Someone else moved the pool: the rows show the current figures, the user's choices stay.
      if (error instanceof ApiError && error.status === 412) onChanged();
    }
  };

  return (
    <form className="dialog__form licence-edit" onSubmit={(event) => void submit(event)} noValidate>
      {licence.data.map((row) => (
        <RowEditor
          key={row.featureId}
          licence={licence}
          row={row}
          edit={edits[row.featureId] ?? NO_CHANGE}
          disabled={busy}
          onChange={(edit) => setEdits((current) => ({ ...current, [row.featureId]: edit }))}
        />
      ))}
      {needsConfirmation ? (
        <Checkbox checked={overUseConfirmed} onCheckedChange={setOverUseConfirmed} disabled={busy}>
          <Trans>Leave the account over its licence: its applications go on counting what it uses.</Trans>
        </Checkbox>
      ) : null}
      {outcome.kind === 'unchanged' ? (
        <p className="licence-edit__hint" role="status">
          <Trans>Choose a change for at least one licence type.</Trans>
        </p>
      ) : null}
      <div className="dialog__actions">
        {offersResetAll(licence) ? (
          <Button variant="secondary" disabled={busy} onClick={() => setEdits(resetAllEdits(licence, edits))}>
            <Trans>Reset all</Trans>
          </Button>
        ) : null}
        <Button variant="secondary" onClick={onClose} disabled={done}>
          <Trans>Cancel</Trans>
        </Button>
        <Button type="submit" disabled={!ready || done} busy={change.isPending}>
          <Trans>Update</Trans>
        </Button>
      </div>
    </form>
  );
}
