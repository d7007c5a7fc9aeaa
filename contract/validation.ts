import * as v from 'valibot';

/**
 * Field rules of the spec (overview §5, account administration §5), written once for the console's
 * forms and the server's validator. Every issue message is a code from `ValidationCode`: the console
 * shows its translation, the server answers its English text (`validation-text.ts`, which the console
 * never loads) prefixed with the field name.
 */
export const VALIDATION_CODES = [
  'required',
  'requiredUserName',
  'invalidUserName',
  'invalidEmail',
  'passwordInvalidLength',
  'passwordInvalidMaxLength',
  'enterValidPassword',
  'passwordConfirmationMismatch',
  'tooLong',
  'invalidName',
  'invalidLocale',
  'invalidType',
  'invalidValue',
  'invalidAccountName',
  'invalidDate',
  'endDateNotInFuture',
  'endDateBeforeStartDate',
  'invalidCountry',
  'invalidPhone',
  'invalidNumber',
  'invalidSort',
  'licenceUnreadable',
  'licenceUntrustedKey',
  'licenceTampered',
  'licenceExpired',
  'licenceNotYetValid',
  'permissionNotForAccount',
  'noPermissionsForApplication',
  'roleNotForUser',
  'invalidIdentifier',
  'tooManyAliases',
  'tooManyValues',
  // Licence changes and account features (decision 022).
  'positiveNumber',
  'cannotExceed',
  'optionNotOffered',
  'belowMinimum',
  'belowUse',
  'trialNeedsEndDate',
  'featureEndDateAfterAccount',
  'featuresExclusive',
  'publicIssuanceRequired',
  'duplicateAlias',
  'wrongPassword',
  'invalidLogin',
  'linkExpired',
  'samePassword',
  // The bulk user-creation file (decision 038): refusals of the whole file, then of one row.
  'notUtf8',
  'emptyFile',
  'tooManyRows',
  'missingColumn',
  'unknownColumn',
  'malformedCsv',
  'controlCharacter',
  'wrongCellCount',
  'duplicateInFile',
  'unknownRole',
  'formulaCell',
  // The certificate authority (decision 019): a certificate request and the subject asked for.
  'csrInvalid',
  'csrSignatureInvalid',
  'keyTooWeak',
  'keyTypeNotAllowed',
  'notAllowed',
  // A client-authentication certificate (decision 019, client-authentication certificates).
  'certificateUnreadable',
  'notOneCertificate',
  'certificateExpired',
  'certificateNotYetValid',
  // A keystore PIN (the enrollment page, decision 021): its length and its repetition.
  'invalidPinLength',
  'pinConfirmationMismatch',
] as const;
export type ValidationCode = (typeof VALIDATION_CODES)[number];

const CODES: ReadonlySet<string> = new Set(VALIDATION_CODES);

export function isValidationCode(code: string): code is ValidationCode {
  return CODES.has(code);
}

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 255;
export const LIGHT_PASSWORD_MIN_LENGTH = 6;
export const USER_NAME_MAX_LENGTH = 255;
export const EMAIL_MAX_LENGTH = 254;
export const PERSON_NAME_MAX_LENGTH = 100;
/** 1 to 256 characters (account administration §5, §9); decision 012 settles the 255/256 wording. */
export const ACCOUNT_NAME_MAX_LENGTH = 256;
/** Addresses, cities, states, titles: bounded like a postal line. */
export const ADDRESS_LINE_MAX_LENGTH = 255;
export const ZIP_CODE_MAX_LENGTH = 20;
export const PHONE_MAX_LENGTH = 32;

// Letters, digits, `_ - +` and the specials listed in overview §5; the trailing comma there is allowed.
export const USER_NAME_PATTERN = /^[A-Za-z0-9_\-+!#$%&'*/`=?@.,]+$/;
/** Local part with the RFC 5322 atom characters, `@`, dotted domain labels and a 2–63 letter TLD. */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
/** Word characters, space and `- . , ( ) & ' # / ~ ;` with any Unicode letter (overview §5). */
export const GENERAL_NAME_PATTERN = /^[\p{L}\p{M}\p{N}_ \-.,()&'#/~;]+$/u;
/** Digits with an optional leading `+`, spaces, dots, hyphens and parentheses; 5 to 20 digits. */
export const PHONE_PATTERN = /^\+?(?=(?:[^0-9]*[0-9]){5,20}[^0-9]*$)[0-9 ().-]+$/;
/** Text without control characters: PostgreSQL cannot store NUL, and no id, filter or title needs any. */
export const NO_CONTROL_CHARACTERS_PATTERN = /^\P{Cc}*$/u;
/** Alphanumerics and `#!$_.-` (overview §5). */
export const GENERAL_IDENTIFIER_PATTERN = /^[A-Za-z0-9#!$_.-]+$/;
/** The lighter pattern: six or more characters with a digit (overview §5). */
export const LIGHT_PASSWORD_PATTERN = /^(?=.*\d).{6,}$/;

const PASSWORD_CLASSES = [/[A-Z]/, /[a-z]/, /\d/, /[^A-Za-z0-9]/] as const;

export function hasEveryPasswordClass(password: string): boolean {
  return PASSWORD_CLASSES.every((pattern) => pattern.test(password));
}

export const userNameSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.nonEmpty('requiredUserName' satisfies ValidationCode),
  v.maxLength(USER_NAME_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  v.regex(USER_NAME_PATTERN, 'invalidUserName' satisfies ValidationCode),
);

export const emailSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.nonEmpty('required' satisfies ValidationCode),
  v.maxLength(EMAIL_MAX_LENGTH, 'invalidEmail' satisfies ValidationCode),
  v.regex(EMAIL_PATTERN, 'invalidEmail' satisfies ValidationCode),
);

export const passwordSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.nonEmpty('required' satisfies ValidationCode),
  v.minLength(PASSWORD_MIN_LENGTH, 'passwordInvalidLength' satisfies ValidationCode),
  v.maxLength(PASSWORD_MAX_LENGTH, 'passwordInvalidMaxLength' satisfies ValidationCode),
  v.check(hasEveryPasswordClass, 'enterValidPassword' satisfies ValidationCode),
);

/** The repeated password: required, minimum 12; equality is checked on the whole form. */
export const passwordConfirmationSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.nonEmpty('required' satisfies ValidationCode),
  v.minLength(PASSWORD_MIN_LENGTH, 'passwordInvalidLength' satisfies ValidationCode),
  v.maxLength(PASSWORD_MAX_LENGTH, 'passwordInvalidMaxLength' satisfies ValidationCode),
);

export const personNameSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.nonEmpty('required' satisfies ValidationCode),
  v.maxLength(PERSON_NAME_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  v.regex(GENERAL_NAME_PATTERN, 'invalidName' satisfies ValidationCode),
);

/** Account name: required, 1 to 256 characters of the general-name pattern (account administration §5). */
export const accountNameSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.nonEmpty('required' satisfies ValidationCode),
  v.maxLength(ACCOUNT_NAME_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  v.regex(GENERAL_NAME_PATTERN, 'invalidAccountName' satisfies ValidationCode),
);

/** True for `YYYY-MM-DD` naming a day that exists (no 30 February). */
export function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** `YYYY-MM-DD`, a real calendar date. */
export const dateOnlySchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.check(isCalendarDate, 'invalidDate' satisfies ValidationCode),
);

/**
 * A service end date is allowed only after today (account administration §5: "cannot be on or before
 * the end of today"). Both are `YYYY-MM-DD`, which compare correctly as strings.
 */
export function isServiceEndDateAllowed(endDate: string, today: string): boolean {
  return endDate > today;
}

/**
 * The service period rule of a new or edited account, the one cross-field rule both the form and the
 * server apply: the end date after today, unless it is the end date the account already has (editing
 * other fields of an account whose period has run out stays possible), and not before the start date.
 * Answers the code for `service_period.to`, or null when the period is allowed.
 */
export function servicePeriodIssue(
  period: { from: string; to: string },
  today: string,
  currentTo: string | null = null,
): 'endDateNotInFuture' | 'endDateBeforeStartDate' | null {
  if (period.to !== currentTo && !isServiceEndDateAllowed(period.to, today)) return 'endDateNotInFuture';
  if (period.to < period.from) return 'endDateBeforeStartDate';
  return null;
}

/** An optional free-text line (address, city, title): trimmed, bounded, general-name characters. */
export const optionalTextLineSchema = v.optional(
  v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.trim(),
    v.maxLength(ADDRESS_LINE_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
    v.check(
      (value) => value === '' || GENERAL_NAME_PATTERN.test(value),
      'invalidName' satisfies ValidationCode,
    ),
  ),
  '',
);

/** A required free-text line of the general-name pattern. */
export const requiredTextLineSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.trim(),
  v.nonEmpty('required' satisfies ValidationCode),
  v.maxLength(ADDRESS_LINE_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  v.regex(GENERAL_NAME_PATTERN, 'invalidName' satisfies ValidationCode),
);

export const optionalPhoneSchema = v.optional(
  v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.trim(),
    v.maxLength(PHONE_MAX_LENGTH, 'invalidPhone' satisfies ValidationCode),
    v.check((value) => value === '' || PHONE_PATTERN.test(value), 'invalidPhone' satisfies ValidationCode),
  ),
  '',
);

/** Password and confirmation must be equal; the issue is reported on the confirmation field. */
export function withPasswordConfirmation<
  TSchema extends v.GenericSchema<unknown, { password: string; repeatedPassword: string }>,
>(schema: TSchema) {
  return v.pipe(
    schema,
    v.rawCheck<v.InferOutput<TSchema>>(({ dataset, addIssue }) => {
      if (!dataset.typed || dataset.value.password === dataset.value.repeatedPassword) return;
      addIssue({
        message: 'passwordConfirmationMismatch' satisfies ValidationCode,
        path: [
          {
            type: 'object',
            origin: 'value',
            input: dataset.value,
            key: 'repeatedPassword',
            value: dataset.value.repeatedPassword,
          },
        ],
      });
    }),
  );
}

/** The first issue of each field, keyed by its dotted path: what a form shows under each input. */
export function fieldIssues(issues: readonly v.BaseIssue<unknown>[]): Record<string, ValidationCode> {
  const result: Record<string, ValidationCode> = {};
  for (const issue of issues) {
    const key = v.getDotPath(issue) ?? '';
    if (!(key in result)) result[key] = toValidationCode(issue.message);
  }
  return result;
}

export function toValidationCode(message: string): ValidationCode {
  return isValidationCode(message) ? message : 'invalidValue';
}
