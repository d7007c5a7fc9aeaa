import type { I18n } from '@lingui/core';
import type { BulkRowCode, BulkRowError } from '../../contract/schemas/bulk-import.ts';

/**
 * The sentences of the bulk report's reasons (decision 038), in the server catalog
 * (`server/i18n/locales/{locale}/server.po`, §6.4): explicit `i18n._({ id, message })` descriptors
 * on a parameter named `i18n`, which the extractor collects. The report writes each beside its
 * stable code, so a reader of any language can still search for the code.
 */
const REASONS: Record<BulkRowCode, (i18n: I18n, values: { firstRow: string }) => string> = {
  required: (i18n) => i18n._({ id: 'bulk.reason.required', message: 'A value is required.' }),
  requiredUserName: (i18n) =>
    i18n._({ id: 'bulk.reason.requiredUserName', message: 'A user name is required.' }),
  invalidUserName: (i18n) =>
    i18n._({
      id: 'bulk.reason.invalidUserName',
      message: "The user name may hold letters, digits and _ - + ! # $ % & ' * / ` = ? @ . , only.",
    }),
  invalidEmail: (i18n) =>
    i18n._({ id: 'bulk.reason.invalidEmail', message: 'The e-mail address is not valid.' }),
  invalidName: (i18n) =>
    i18n._({ id: 'bulk.reason.invalidName', message: 'The name holds characters that are not allowed.' }),
  invalidLocale: (i18n) =>
    i18n._({
      id: 'bulk.reason.invalidLocale',
      message: 'The language is not one of en_US, de_DE, fr_FR, es_ES, ja_JP, zh_CN, zh_TW, pt_BR.',
    }),
  invalidPhone: (i18n) =>
    i18n._({ id: 'bulk.reason.invalidPhone', message: 'The phone number is not valid.' }),
  invalidValue: (i18n) => i18n._({ id: 'bulk.reason.invalidValue', message: 'The value is not allowed.' }),
  tooLong: (i18n) => i18n._({ id: 'bulk.reason.tooLong', message: 'The value is too long.' }),
  wrongCellCount: (i18n) =>
    i18n._({
      id: 'bulk.reason.wrongCellCount',
      message: 'The row has a different number of cells than the header row.',
    }),
  duplicateInFile: (i18n, values) =>
    i18n._({
      id: 'bulk.reason.duplicateInFile',
      message: 'Row {firstRow} of the file already has this user name.',
      values,
    }),
  formulaCell: (i18n) =>
    i18n._({
      id: 'bulk.reason.formulaCell',
      message: 'The cell starts like a spreadsheet formula (=, +, -, @, a tab).',
    }),
  unknownRole: (i18n) =>
    i18n._({ id: 'bulk.reason.unknownRole', message: 'No role of this name exists for the account.' }),
  roleNotForUser: (i18n) =>
    i18n._({
      id: 'bulk.reason.roleNotForUser',
      message: 'The role cannot be given to users of this account.',
    }),
  permissionNotHeld: (i18n) =>
    i18n._({
      id: 'bulk.reason.permissionNotHeld',
      message: 'The role grants a permission you do not hold yourself.',
    }),
  inUse: (i18n) => i18n._({ id: 'bulk.reason.inUse', message: 'A user with this user name already exists.' }),
  accountUnavailable: (i18n) =>
    i18n._({
      id: 'bulk.reason.accountUnavailable',
      message: 'The account is inactive or no longer yours to manage.',
    }),
  creatorLostPermission: (i18n) =>
    i18n._({
      id: 'bulk.reason.creatorLostPermission',
      message: 'The job stopped: its creator may no longer create users here.',
    }),
  internalError: (i18n) =>
    i18n._({ id: 'bulk.reason.internalError', message: 'The user could not be created. Try again.' }),
};

/** One reason as the report writes it: the column, the sentence, and the code in brackets. */
export function reasonText(i18n: I18n, error: BulkRowError): string {
  const sentence = REASONS[error.code](i18n, { firstRow: String(error.first_row ?? '') });
  return `${error.column}: ${sentence} [${error.code}]`;
}
