import * as v from 'valibot';
import {
  MULTI_VALUE_SUBJECT_FIELDS,
  SUBJECT_FIELDS,
  type SubjectField,
} from '../../../contract/certificate-policy.ts';
import { SUBJECT_LIST_MAX, subjectTextSchema } from '../../../contract/schemas/certificates.ts';
import { ENROLLMENT_LINK_FAILURES, type PublicEnrollment } from '../../../contract/schemas/enrollments.ts';
import { PIN_MAX_LENGTH, PIN_MIN_LENGTH } from '../../../contract/trust-agent/constants.ts';
import {
  emailSchema,
  optionalTextLineSchema,
  personNameSchema,
  type ValidationCode,
} from '../../../contract/validation.ts';
import type { FieldCodes, FormValues } from '../../lib/form/use-form.ts';

/** A keystore PIN as the agent accepts it (contract/trust-agent: 4 to 64 characters). */
const pinSchema = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.nonEmpty('required' satisfies ValidationCode),
  v.minLength(PIN_MIN_LENGTH, 'invalidPinLength' satisfies ValidationCode),
  v.maxLength(PIN_MAX_LENGTH, 'invalidPinLength' satisfies ValidationCode),
);

export const pinFormSchema = v.object({ pin: pinSchema });

/** The software keystore's creation: its label and a new PIN, typed twice. */
export const newKeystoreFormSchema = v.object({
  label: v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.trim(),
    v.nonEmpty('required' satisfies ValidationCode),
    v.maxLength(32, 'tooLong' satisfies ValidationCode),
  ),
  pin: pinSchema,
  repeatedPin: v.string('invalidType' satisfies ValidationCode),
});

export function pinRepetitionIssue(values: FormValues): FieldCodes {
  return values.repeatedPin === values.pin ? {} : { repeatedPin: 'pinConfirmationMismatch' };
}

export type AskedSubjectField = Exclude<SubjectField, 'common_name' | 'emails'>;

/**
 * The subject fields the form asks for besides the common name: those the profile requires or
 * allows. E-mail addresses come from the form's e-mail field.
 */
/** The profile's rules as the enrollment states them; a field it does not name is not allowed. */
export type SubjectRules = PublicEnrollment['subject_rules'];

export function askedSubjectFields(rules: SubjectRules): AskedSubjectField[] {
  return SUBJECT_FIELDS.filter(
    (field): field is AskedSubjectField =>
      field !== 'common_name' && field !== 'emails' && (rules[field] ?? 'not_allowed') !== 'not_allowed',
  );
}

/** A multi-value subject field's values as typed on the form: one per line, blank lines ignored. */
export function subjectLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** Whether the form asks for the field as several values, one per line. */
export function isMultiValueField(field: AskedSubjectField): boolean {
  return (MULTI_VALUE_SUBJECT_FIELDS as readonly string[]).includes(field);
}

/** The form keeps its text; each line must be a subject value the certificate request accepts. */
const subjectLinesText = v.pipe(
  v.string('invalidType' satisfies ValidationCode),
  v.check((text) => subjectLines(text).length <= SUBJECT_LIST_MAX, 'tooManyValues' satisfies ValidationCode),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const line of subjectLines(dataset.value)) {
      const result = v.safeParse(subjectTextSchema, line);
      if (!result.success) {
        addIssue({ message: result.issues[0].message });
        return;
      }
    }
  }),
);

/**
 * The enrollment form (overview §3, §5): the person's names (a device's name) and e-mail, the common name, and each
 * subject field the profile asks for, non-empty where the profile requires it.
 */
export function detailsFormSchema(rules: SubjectRules, seatKind: PublicEnrollment['seat_kind']) {
  const subject = Object.fromEntries(
    askedSubjectFields(rules).map((field) => {
      const text = isMultiValueField(field) ? subjectLinesText : subjectTextSchema;
      return [
        field,
        rules[field] === 'required'
          ? v.pipe(
              text,
              v.check((value) => value.trim() !== '', 'required' satisfies ValidationCode),
            )
          : v.optional(text, ''),
      ];
    }),
  );
  return v.object({
    first_name: personNameSchema,
    // A device's seat has its name only; a person's has both names.
    last_name: seatKind === 'device' ? optionalTextLineSchema : personNameSchema,
    email: emailSchema,
    common_name: v.pipe(
      v.string('invalidType' satisfies ValidationCode),
      v.trim(),
      v.nonEmpty('required' satisfies ValidationCode),
      v.maxLength(64, 'tooLong' satisfies ValidationCode),
      v.regex(/^\P{Cc}*$/u, 'invalidValue' satisfies ValidationCode),
    ),
    subject: v.object(subject),
  });
}

/**
 * The enrollment's id and code in a mailed link (`…/enrollment/{id}/{code}`) or an install link
 * (`…/enrollment-link/{id}/{secret}`, the same code: decision 021 §6); null for anything else.
 */
export function enrollmentLinkParts(text: string): { id: string; code: string } | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const match = /\/enrollment(?:-link)?\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
  if (!match?.[1] || !match[2]) return null;
  return { id: decodeURIComponent(match[1]), code: decodeURIComponent(match[2]) };
}

const pickupText = v.pipe(v.optional(v.string('invalidType' satisfies ValidationCode), ''), v.trim());

/** The pickup form: the mailed link, or the enrollment's id and code typed from the mail. */
export const certificatePickupFormSchema = v.object({
  link: pickupText,
  enrollment_id: pickupText,
  code: pickupText,
});

export function certificatePickupIssues(values: FormValues): FieldCodes {
  const link = values.link?.trim() ?? '';
  if (link !== '') return enrollmentLinkParts(link) ? {} : { link: 'invalidValue' };
  return {
    ...((values.enrollment_id?.trim() ?? '') === '' ? { enrollment_id: 'required' } : {}),
    ...((values.code?.trim() ?? '') === '' ? { code: 'required' } : {}),
  };
}

/**
 * The link error page's address beside its status (decision 031): the failure's code, and when a
 * throttled link may be opened again. A value that is not one of them is dropped, not refused: the
 * page still says what its status means.
 */
export const enrollmentLinkErrorSearchSchema = v.object({
  reason: v.fallback(v.optional(v.picklist(ENROLLMENT_LINK_FAILURES)), undefined),
  retry_at: v.fallback(v.optional(v.pipe(v.string(), v.isoTimestamp())), undefined),
});
export type EnrollmentLinkErrorSearch = v.InferOutput<typeof enrollmentLinkErrorSearchSchema>;

/** Where a refused enrollment call leads: the status, and the reason and retry time it carried. */
export function enrollmentLinkErrorOf(
  status: number,
  code: string | null,
  retryAfterSeconds: number | null,
  now = Date.now(),
): { errorCode: string; search: EnrollmentLinkErrorSearch } {
  const reason = ENROLLMENT_LINK_FAILURES.find((failure) => failure === code);
  const retryAt =
    status === 429 && retryAfterSeconds !== null
      ? new Date(now + retryAfterSeconds * 1000).toISOString()
      : undefined;
  return {
    errorCode: String(status).toLowerCase(),
    search: {
      ...(reason === undefined ? {} : { reason }),
      ...(retryAt === undefined ? {} : { retry_at: retryAt }),
    },
  };
}
