import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { BulkRowCode, BulkRowError } from '../../../contract/schemas/bulk-import.ts';
import { isValidationCode } from '../../../contract/validation.ts';
import { validationMessage } from '../../lib/validation-messages.ts';

/** The row reasons that are not a field rule's: what the job or the creator's rights decided. */
const JOB_REASONS: Partial<Record<BulkRowCode, MessageDescriptor>> = {
  inUse: msg`A user with this user name already exists.`,
  permissionNotHeld: msg`This role grants a permission you do not hold yourself.`,
  accountUnavailable: msg`The account is inactive or no longer yours to manage.`,
  creatorLostPermission: msg`Stopped: you may no longer create users in this account.`,
  internalError: msg`This user could not be created. Try again.`,
};

/** One reason of a row in the reader's language, the column first. */
export function rowReasonText(error: BulkRowError, i18n: I18n): string {
  const own = JOB_REASONS[error.code];
  const sentence = own
    ? i18n._(own)
    : isValidationCode(error.code)
      ? validationMessage(error.code, i18n)
      : i18n._(msg`This value is not allowed.`);
  const firstRow = error.first_row;
  const detail =
    error.code === 'duplicateInFile' && firstRow !== undefined ? ` ${i18n._(msg`(row ${firstRow})`)}` : '';
  return error.column === 'row' ? `${sentence}${detail}` : `${error.column}: ${sentence}${detail}`;
}
