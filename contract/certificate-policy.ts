import * as v from 'valibot';

/**
 * What a certificate may hold, shared by the profile editor, the issuing CA and the client-auth
 * screens (decision 019). A profile's policy decides the subject fields, key usages, extended key
 * usages, key types and validity of every certificate issued under it; nothing of that is copied
 * from the request without passing these rules.
 */

/** Key algorithms of the platform's own CAs, chosen by CA_KEY_ALGORITHM when they are created. */
export const CA_KEY_ALGORITHMS = ['ECDSA-P256', 'ECDSA-P384', 'RSA-2048', 'RSA-3072', 'RSA-4096'] as const;
export type CaKeyAlgorithm = (typeof CA_KEY_ALGORITHMS)[number];

/** The spec's certificate key usages (overview §3); decision 019 maps each to X.509 bits. */
export const KEY_USAGES = [
  'Authentication',
  'DigitalSignature',
  'KeyManagement',
  'CardAuthentication',
] as const;
export type KeyUsage = (typeof KEY_USAGES)[number];

/** Extended key usages a profile may grant, by name, with their object identifiers. */
export const EXTENDED_KEY_USAGE_OIDS = {
  clientAuth: '1.3.6.1.5.5.7.3.2',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  codeSigning: '1.3.6.1.5.5.7.3.3',
  smartcardLogon: '1.3.6.1.4.1.311.20.2.2',
  documentSigning: '1.3.6.1.4.1.311.10.3.12',
  pivCardAuthentication: '2.16.840.1.101.3.6.8',
} as const;
export type ExtendedKeyUsage = keyof typeof EXTENDED_KEY_USAGE_OIDS;
export const EXTENDED_KEY_USAGES = Object.keys(EXTENDED_KEY_USAGE_OIDS) as ExtendedKeyUsage[];

/** RSA moduli and elliptic curves a profile may accept; anything smaller is refused as weak. */
export const RSA_KEY_SIZES = [2048, 3072, 4096] as const;
export type RsaKeySize = (typeof RSA_KEY_SIZES)[number];
export const EC_CURVES = ['P-256', 'P-384', 'P-521'] as const;
export type EcCurve = (typeof EC_CURVES)[number];

/** Subject fields of a certificate request (overview §3, the enrollment fields). */
export const SUBJECT_FIELDS = [
  'common_name',
  'organization_name',
  'organization_units',
  'street_address',
  'postal_code',
  'locality',
  'state',
  'country',
  'emails',
  'dns_names',
  'user_principal_names',
] as const;
export type SubjectField = (typeof SUBJECT_FIELDS)[number];
/** The fields that take a list of values (the last three go to the subject alternative name). */
export const MULTI_VALUE_SUBJECT_FIELDS = [
  'organization_units',
  'emails',
  'dns_names',
  'user_principal_names',
] as const satisfies readonly SubjectField[];

export const SUBJECT_FIELD_RULES = ['required', 'optional', 'not_allowed'] as const;
export type SubjectFieldRule = (typeof SUBJECT_FIELD_RULES)[number];

/** Shortest and longest validity a profile may give, in days. */
export const PROFILE_VALIDITY_DAYS = { min: 1, max: 1095 } as const;

export const CERTIFICATE_STATUSES = ['issued', 'revoked', 'expired'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];

/** RFC 5280 reasons an administrator may give; certificateHold is left out: revocation is final. */
export const REVOCATION_REASONS = [
  'unspecified',
  'keyCompromise',
  'affiliationChanged',
  'superseded',
  'cessationOfOperation',
  'privilegeWithdrawn',
] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

const subjectRules = v.object(
  Object.fromEntries(
    SUBJECT_FIELDS.map((field) => [field, v.picklist(SUBJECT_FIELD_RULES, 'invalidValue')]),
  ) as {
    [F in SubjectField]: v.PicklistSchema<typeof SUBJECT_FIELD_RULES, 'invalidValue'>;
  },
  'invalidType',
);

/**
 * A profile's policy as stored and as the API takes it. Every refusal names its field and a contract
 * validation code (`key_types` when no key type is accepted, `subject.common_name` when the common
 * name is not allowed), so the editor shows it beside the right control.
 */
export const profilePolicySchema = v.pipe(
  v.object(
    {
      subject: subjectRules,
      validity_days: v.pipe(
        v.number('invalidNumber'),
        v.integer('invalidNumber'),
        v.minValue(PROFILE_VALIDITY_DAYS.min, 'invalidNumber'),
        v.maxValue(PROFILE_VALIDITY_DAYS.max, 'invalidNumber'),
      ),
      key_usages: v.pipe(
        v.array(v.picklist(KEY_USAGES, 'invalidValue'), 'invalidType'),
        v.minLength(1, 'required'),
        v.maxLength(KEY_USAGES.length, 'tooLong'),
      ),
      extended_key_usages: v.pipe(
        v.array(v.picklist(EXTENDED_KEY_USAGES, 'invalidValue'), 'invalidType'),
        v.maxLength(EXTENDED_KEY_USAGES.length, 'tooLong'),
      ),
      key_types: v.object(
        {
          rsa: v.pipe(
            v.array(v.picklist(RSA_KEY_SIZES, 'invalidValue'), 'invalidType'),
            v.maxLength(RSA_KEY_SIZES.length, 'tooLong'),
          ),
          ec: v.pipe(
            v.array(v.picklist(EC_CURVES, 'invalidValue'), 'invalidType'),
            v.maxLength(EC_CURVES.length, 'tooLong'),
          ),
        },
        'invalidType',
      ),
    },
    'invalidType',
  ),
  // 'A profile must accept at least one key type.'
  v.forward(
    v.partialCheck(
      [
        ['key_types', 'rsa'],
        ['key_types', 'ec'],
      ],
      (policy) => policy.key_types.rsa.length + policy.key_types.ec.length > 0,
      'required',
    ),
    ['key_types'],
  ),
  // 'Every certificate needs a common name.'
  v.forward(
    v.partialCheck(
      [['subject', 'common_name']],
      (policy) => policy.subject.common_name !== 'not_allowed',
      'invalidValue',
    ),
    ['subject', 'common_name'],
  ),
);
export type ProfilePolicy = v.InferOutput<typeof profilePolicySchema>;

/** The values a request asks to put in the subject and its alternative names. */
export interface SubjectValues {
  common_name?: string;
  organization_name?: string;
  organization_units?: string[];
  street_address?: string;
  postal_code?: string;
  locality?: string;
  state?: string;
  country?: string;
  emails?: string[];
  dns_names?: string[];
  user_principal_names?: string[];
}

/** A key as read from a CSR or certificate. */
export type KeyDescription = { algorithm: 'RSA'; size: number } | { algorithm: 'EC'; curve: string };

export function describeKey(key: KeyDescription): string {
  return key.algorithm === 'RSA' ? `RSA ${key.size}` : `EC ${key.curve}`;
}

/**
 * A key type by the name of the CA's own key algorithms (decision 019), as the enrollment page
 * receives a profile's: `RSA-2048`, `ECDSA-P256`.
 */
export function keyTypeName(key: KeyDescription): string {
  return key.algorithm === 'RSA' ? `RSA-${key.size}` : `ECDSA-${key.curve.replace('-', '')}`;
}

/** The keys of a policy's key types, RSA first, each in the policy's order. */
function keysOf(keyTypes: { rsa: readonly number[]; ec: readonly string[] }): KeyDescription[] {
  return [
    ...keyTypes.rsa.map((size) => ({ algorithm: 'RSA' as const, size })),
    ...keyTypes.ec.map((curve) => ({ algorithm: 'EC' as const, curve })),
  ];
}

/** The names of the key types a policy accepts (`keyTypeName`), RSA first. */
export function policyKeyTypeNames(policy: ProfilePolicy): string[] {
  return keysOf(policy.key_types).map(keyTypeName);
}

const PROFILE_KEYS = keysOf({ rsa: RSA_KEY_SIZES, ec: EC_CURVES });

/** The key a key type name stands for; undefined for a name of no key a profile can accept. */
export function keyOfTypeName(name: string): KeyDescription | undefined {
  return PROFILE_KEYS.find((key) => keyTypeName(key) === name);
}

/** Whether the policy accepts this key; RSA below 2048 bits is never accepted. */
export function policyAcceptsKey(policy: ProfilePolicy, key: KeyDescription): boolean {
  return key.algorithm === 'RSA'
    ? (policy.key_types.rsa as readonly number[]).includes(key.size)
    : (policy.key_types.ec as readonly string[]).includes(key.curve);
}

function hasValue(value: string | string[] | undefined): boolean {
  return Array.isArray(value) ? value.some((item) => item.trim() !== '') : (value ?? '').trim() !== '';
}

/**
 * The subject fields a request gets wrong under a policy: a required field left empty, or a field
 * the policy does not allow given a value. The server refuses such a request; the console shows the
 * same problems before it is sent.
 */
export function subjectIssues(
  policy: ProfilePolicy,
  values: SubjectValues,
): { field: SubjectField; code: 'required' | 'notAllowed' }[] {
  const issues: { field: SubjectField; code: 'required' | 'notAllowed' }[] = [];
  for (const field of SUBJECT_FIELDS) {
    const rule = policy.subject[field];
    const present = hasValue(values[field]);
    if (rule === 'required' && !present) issues.push({ field, code: 'required' });
    if (rule === 'not_allowed' && present) issues.push({ field, code: 'notAllowed' });
  }
  return issues;
}

/**
 * The policy of administrators' and service users' client-authentication certificates: the common
 * name is the user name, the organization the user's account; one year; TLS client authentication.
 */
export const CLIENT_AUTH_POLICY: ProfilePolicy = {
  subject: {
    common_name: 'required',
    organization_name: 'optional',
    organization_units: 'not_allowed',
    street_address: 'not_allowed',
    postal_code: 'not_allowed',
    locality: 'not_allowed',
    state: 'not_allowed',
    country: 'not_allowed',
    emails: 'optional',
    dns_names: 'not_allowed',
    user_principal_names: 'not_allowed',
  },
  validity_days: 365,
  key_usages: ['Authentication'],
  extended_key_usages: ['clientAuth'],
  key_types: { rsa: [2048, 3072, 4096], ec: ['P-256', 'P-384'] },
};
