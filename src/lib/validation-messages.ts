import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ValidationCode } from '../../contract/validation.ts';

/** What a form shows for each contract validation code (overview §5). */
const VALIDATION_MESSAGES: Readonly<Record<ValidationCode, MessageDescriptor>> = {
  required: msg`This field is required.`,
  requiredUserName: msg`Username is required.`,
  invalidUserName: msg`Invalid user name.`,
  invalidEmail: msg`Invalid email.`,
  passwordInvalidLength: msg`The password must be at least 12 characters long.`,
  passwordInvalidMaxLength: msg`The password must be at most 255 characters long.`,
  enterValidPassword: msg`Enter a valid password: use upper-case and lower-case letters, a digit and a symbol.`,
  passwordConfirmationMismatch: msg`The passwords do not match.`,
  tooLong: msg`This value is too long.`,
  invalidName: msg`This value contains characters that are not allowed.`,
  invalidLocale: msg`This language is not supported.`,
  invalidType: msg`This value has the wrong type.`,
  invalidValue: msg`This value is not allowed.`,
  invalidAccountName: msg`Invalid account name.`,
  invalidDate: msg`Enter a date as YYYY-MM-DD.`,
  endDateNotInFuture: msg`The end date must be after today.`,
  endDateBeforeStartDate: msg`The end date must not be before the start date.`,
  invalidCountry: msg`Choose a country from the list.`,
  invalidPhone: msg`Invalid phone number.`,
  invalidNumber: msg`Enter a whole number in the allowed range.`,
  invalidSort: msg`This sort order is not supported.`,
  licenceUnreadable: msg`The licence text is not readable: paste the whole text, including the BEGIN and END lines.`,
  licenceUntrustedKey: msg`The licence is signed by a key this platform does not trust.`,
  licenceTampered: msg`The licence signature does not match its content: the text has been altered.`,
  licenceExpired: msg`The licence has expired.`,
  licenceNotYetValid: msg`The licence is not valid yet.`,
  permissionNotForAccount: msg`This account type does not allow one of the chosen permissions.`,
  noPermissionsForApplication: msg`This application has no permissions to grant yet.`,
  roleNotForUser: msg`This role cannot be given to one of the chosen users.`,
  invalidIdentifier: msg`Invalid identifier.`,
  tooManyAliases: msg`There are more aliases than allowed.`,
  duplicateAlias: msg`This identifier is already used by another alias.`,
  wrongPassword: msg`This is not the current password.`,
  invalidLogin: msg`This is not the username of this account.`,
  linkExpired: msg`This link has expired or was already used. Ask for a new one.`,
  samePassword: msg`The new password must differ from the current one.`,
  notUtf8: msg`The file is not UTF-8 text. Save it as "CSV UTF-8" and choose it again.`,
  emptyFile: msg`The file is empty. It needs a header row and one row per user.`,
  tooManyRows: msg`The file has more than 10,000 rows. Split it into several files.`,
  missingColumn: msg`A required column is missing from the header row.`,
  unknownColumn: msg`The header row names a column the file may not have.`,
  malformedCsv: msg`The file cannot be read as CSV: a quote is not closed.`,
  wrongCellCount: msg`This row has a different number of cells than the header row.`,
  duplicateInFile: msg`This user name is already used by an earlier row of the file.`,
  unknownRole: msg`This role does not exist for the chosen account.`,
  formulaCell: msg`This cell starts like a spreadsheet formula (=, +, -, @).`,
};

export function validationMessage(code: ValidationCode, i18n: I18n): string {
  return i18n._(VALIDATION_MESSAGES[code]);
}
