import * as v from 'valibot';
import { toValidationCode, type ValidationCode } from './validation.ts';

/** The English of each rule, as the server words a refused value for clients that show its text. */
export const VALIDATION_TEXT: Readonly<Record<ValidationCode, string>> = {
  required: 'is required',
  requiredUserName: 'user name is required',
  invalidUserName: 'invalid user name',
  invalidEmail: 'invalid email',
  passwordInvalidLength: 'must be at least 12 characters',
  passwordInvalidMaxLength: 'must be at most 255 characters',
  enterValidPassword: 'enter valid password',
  passwordConfirmationMismatch: 'does not match the password',
  invalidPinLength: 'must be 4 to 64 characters',
  pinConfirmationMismatch: 'does not match the PIN',
  tooLong: 'is too long',
  invalidName: 'contains characters that are not allowed',
  invalidLocale: 'is not a supported language',
  invalidType: 'has the wrong type',
  invalidValue: 'has a value that is not allowed',
  invalidAccountName: 'invalid account name',
  invalidDate: 'must be a date as YYYY-MM-DD',
  endDateNotInFuture: 'must be after today',
  endDateBeforeStartDate: 'must not be before the start date',
  invalidCountry: 'is not a country that can be chosen',
  invalidPhone: 'invalid phone number',
  invalidNumber: 'must be a whole number in the allowed range',
  invalidSort: 'must be columnKey:asc or columnKey:desc with a sortable column',
  licenceUnreadable: 'is not a readable licence text',
  licenceUntrustedKey: 'is signed by a key this platform does not trust',
  licenceTampered: 'has a signature that does not match its content',
  licenceExpired: 'is a licence that has expired',
  licenceNotYetValid: 'is a licence that is not valid yet',
  permissionNotForAccount: 'names a permission this account type does not allow',
  noPermissionsForApplication: 'is an application without permissions to grant',
  roleNotForUser: 'names a user this role cannot be given to',
  invalidIdentifier: 'invalid identifier',
  tooManyAliases: 'has more aliases than allowed',
  tooManyValues: 'has more values than allowed',
  positiveNumber: 'must be a positive whole number without a leading zero',
  cannotExceed: 'exceeds what may be changed',
  optionNotOffered: 'is not a change this licence type offers',
  belowMinimum: 'is less than the accounts under it already hold',
  belowUse: 'is less than the account already uses; send confirm_over_use to leave it over its licence',
  trialNeedsEndDate: 'needs an end date for a trial account',
  featureEndDateAfterAccount: 'ends after the account',
  featuresExclusive: 'cannot be on together with the key-locker account feature',
  publicIssuanceRequired: 'cannot be turned off while the key-locker account feature is on',
  duplicateAlias: 'repeats an alias identifier',
  wrongPassword: 'is not the current password',
  invalidLogin: 'is not the user name of this user',
  linkExpired: 'is a link that has expired or was already used',
  samePassword: 'must differ from the current password',
  notUtf8: 'is not UTF-8 text; save it as CSV UTF-8',
  emptyFile: 'holds no header row',
  tooManyRows: 'has more than 10,000 rows',
  missingColumn: 'is a required column missing from the header row',
  unknownColumn: 'is a column the file may not have',
  malformedCsv: 'is where the CSV cannot be read (an unclosed quote)',
  controlCharacter: 'holds a control character (such as NUL) that no name or address may hold',
  wrongCellCount: 'has a number of cells other than the header row',
  duplicateInFile: 'repeats a user name of an earlier row',
  unknownRole: 'names a role that does not exist for this account',
  formulaCell: 'starts like a spreadsheet formula',
  csrInvalid: 'is not one PEM certificate request (PKCS#10)',
  csrSignatureInvalid: 'has a signature that does not verify with its own key',
  keyTooWeak: 'has a key that is too weak',
  keyTypeNotAllowed: 'has a key type the profile does not accept',
  notAllowed: 'is not allowed by the profile',
  certificateUnreadable: 'is not an X.509 certificate in PEM or DER',
  notOneCertificate: 'must hold exactly one certificate and nothing after it',
  certificateExpired: 'is a certificate that has expired',
  certificateNotYetValid: 'is a certificate that is not valid yet',
};

/** A failed request value as the server answers it: where, which rule, and the rule in English. */
export interface FirstIssue {
  /** Dot path of the value (`service_period.to`); absent when the whole body or query is at fault. */
  field?: string;
  code: ValidationCode;
  /** `"password: enter valid password"`: readable by clients that show the text as it is. */
  message: string;
}

/** The first failing value of a request: the field and code of the server's 400, and its message. */
export function firstIssue(issues: readonly v.BaseIssue<unknown>[]): FirstIssue {
  const [first] = issues;
  if (!first) return { code: 'invalidValue', message: 'The request is not valid.' };
  const field = v.getDotPath(first) ?? undefined;
  const code = toValidationCode(first.message);
  return field
    ? { field, code, message: describeFieldIssue(field, code) }
    : { code, message: `request body ${VALIDATION_TEXT[code]}` };
}

/** The English message of a field's rule, as `firstIssue` words it. */
export function describeFieldIssue(field: string, code: ValidationCode): string {
  return `${field}: ${VALIDATION_TEXT[code]}`;
}
