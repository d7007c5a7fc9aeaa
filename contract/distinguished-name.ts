/**
 * A distinguished name as people read it (decision 033): RFC 4514's string, its relative
 * distinguished names in reverse order of the encoding, most specific first
 * (`CN=Ada Lovelace,O=Northwind,C=DE`), as openssl's `-nameopt RFC2253`, Windows and macOS show
 * it. The encoding order (`C=DE, O=Northwind, CN=…`, what @peculiar/x509's `Name.toString()`
 * answers) reads backwards. One function for the server's certificate pages, the agent's
 * certificate entities and the enrollment page, so every screen shows a name alike.
 */

/** Relative distinguished names in encoding order, each as attribute type → values (`Name.toJSON()`). */
export type NameParts = readonly Readonly<Record<string, readonly string[]>>[];

/** RFC 4514 names of the types, or the name openssl prints; anything else keeps its OID. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  '2.5.4.3': 'CN',
  '2.5.4.11': 'OU',
  '2.5.4.10': 'O',
  '2.5.4.7': 'L',
  '2.5.4.8': 'ST',
  '2.5.4.6': 'C',
  '2.5.4.9': 'STREET',
  '2.5.4.17': 'postalCode',
  '1.2.840.113549.1.9.1': 'emailAddress',
  '0.9.2342.19200300.100.1.25': 'DC',
  '0.9.2342.19200300.100.1.1': 'UID',
  '2.5.4.5': 'serialNumber',
  E: 'emailAddress',
};

/** An attribute value escaped as RFC 4514 §2.4 asks. */
export function escapeNameValue(value: string): string {
  return value
    .replace(/[\\"+,;<=>]/g, (char) => `\\${char}`)
    .replace(/^[ #]/, (char) => `\\${char}`)
    .replace(/ $/, '\\ ');
}

/** The RFC 4514 string of a name: most specific first, multi-valued parts joined by `+`. */
export function distinguishedNameText(parts: NameParts): string {
  return [...parts]
    .reverse()
    .map((rdn) =>
      Object.entries(rdn)
        .flatMap(([type, values]) =>
          values.map((value) => `${SHORT_NAMES[type] ?? type}=${escapeNameValue(value)}`),
        )
        .join('+'),
    )
    .join(',');
}
