import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type {
  ExtendedKeyUsage,
  KeyUsage,
  ProfilePolicy,
  SubjectField,
  SubjectFieldRule,
} from '../../../../contract/certificate-policy.ts';

/** The spec's key usages (overview §3, Q-42) as the console names them. */
export const KEY_USAGE_LABELS: Readonly<Record<KeyUsage, MessageDescriptor>> = {
  Authentication: msg`Authentication`,
  DigitalSignature: msg`Digital signature`,
  KeyManagement: msg`Key management`,
  CardAuthentication: msg`Card authentication`,
};

export const EXTENDED_KEY_USAGE_LABELS: Readonly<Record<ExtendedKeyUsage, MessageDescriptor>> = {
  clientAuth: msg`TLS client authentication`,
  serverAuth: msg`TLS server authentication`,
  emailProtection: msg`E-mail protection`,
  codeSigning: msg`Code signing`,
  smartcardLogon: msg`Smart card logon`,
  documentSigning: msg`Document signing`,
  pivCardAuthentication: msg`PIV card authentication`,
};

export const SUBJECT_FIELD_LABELS: Readonly<Record<SubjectField, MessageDescriptor>> = {
  common_name: msg`Common name`,
  organization_name: msg`Organization`,
  organization_units: msg`Organizational units`,
  street_address: msg`Street address`,
  postal_code: msg`Postal code`,
  locality: msg`Locality`,
  state: msg`State or province`,
  country: msg`Country`,
  emails: msg`E-mail addresses`,
  dns_names: msg`DNS names`,
  user_principal_names: msg`User principal names`,
};

export const SUBJECT_RULE_LABELS: Readonly<Record<SubjectFieldRule, MessageDescriptor>> = {
  required: msg`Required`,
  optional: msg`Optional`,
  not_allowed: msg`Not allowed`,
};

/** `RSA 2048, RSA 3072, EC P-256`: the key types a policy accepts, in the contract's order. */
export function keyTypesText(policy: ProfilePolicy): string {
  return [
    ...policy.key_types.rsa.map((size) => `RSA ${size}`),
    ...policy.key_types.ec.map((curve) => `EC ${curve}`),
  ].join(', ');
}
