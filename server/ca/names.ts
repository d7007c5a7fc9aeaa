import type { SubjectValues } from '../../contract/certificate-policy.ts';
import { escapeNameValue } from '../../contract/distinguished-name.ts';
import { x509 } from './x509.ts';

/** One attribute of a distinguished name: its short name (or OID) and value. */
export type NameAttribute = readonly [type: string, value: string];

/** Short names of the attribute types this CA writes; others print as their OID. */
const STREET = '2.5.4.9';
const POSTAL_CODE = '2.5.4.17';
const RFC4514_NAMES: Record<string, string> = { [STREET]: 'STREET', [POSTAL_CODE]: 'postalCode' };

/**
 * A distinguished name from attributes in encoding order, most significant first (C … CN), one
 * attribute per relative distinguished name.
 */
export function buildName(attributes: readonly NameAttribute[]): x509.Name {
  return new x509.Name(attributes.map(([type, value]) => ({ [type]: [value] })));
}

/** RFC 4514: the relative distinguished names in reverse order (CN first), comma-separated. */
export function rfc4514(attributes: readonly NameAttribute[]): string {
  return [...attributes]
    .reverse()
    .map(([type, value]) => `${RFC4514_NAMES[type] ?? type}=${escapeNameValue(value)}`)
    .join(',');
}

/**
 * The subject of an end-entity certificate from the values a request asked for (already checked
 * against the profile's policy), in the conventional order country first, common name last.
 */
export function subjectAttributes(values: SubjectValues): NameAttribute[] {
  const attributes: NameAttribute[] = [];
  const single = (type: string, value: string | undefined) => {
    const trimmed = value?.trim() ?? '';
    if (trimmed !== '') attributes.push([type, trimmed]);
  };
  single('C', values.country?.toUpperCase());
  single('ST', values.state);
  single('L', values.locality);
  single(STREET, values.street_address);
  single(POSTAL_CODE, values.postal_code);
  single('O', values.organization_name);
  for (const unit of values.organization_units ?? []) single('OU', unit);
  single('CN', values.common_name);
  return attributes;
}
