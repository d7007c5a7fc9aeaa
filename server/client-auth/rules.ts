import { X509Certificate } from 'node:crypto';
import { CLIENT_AUTH_CERTIFICATE_MAX_BYTES } from '../../contract/schemas/client-auth.ts';
import { ApiError } from '../http/errors.ts';
import { invalidField } from '../http/validate.ts';

/**
 * The rules of a client-authentication certificate (decision 019, client-authentication
 * certificates): what an upload must be, and when one is refused.
 */

const FIELD = 'certificate';
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*)-----END CERTIFICATE-----/;
const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]+-----/g;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A certificate read from an upload: its DER and what Node's parser makes of it. */
export interface ReadCertificate {
  der: Uint8Array;
  x509: X509Certificate;
}

export function tooLarge(): ApiError {
  return new ApiError(
    413,
    `The certificate is larger than ${CLIENT_AUTH_CERTIFICATE_MAX_BYTES} bytes (4 KB).`,
    {
      field: FIELD,
      code: 'tooLarge',
    },
  );
}

/**
 * The length a DER value says it has (tag, length octets and content), or null when its header is
 * not that of a SEQUENCE with a definite length: a certificate is one SEQUENCE and nothing after it.
 */
function derSequenceLength(der: Uint8Array): number | null {
  if (der.length < 2 || der[0] !== 0x30) return null;
  const first = der[1] as number;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  if (octets === 0 || octets > 4 || der.length < 2 + octets) return null;
  let length = 0;
  for (let index = 0; index < octets; index++) length = length * 256 + (der[2 + index] as number);
  return 2 + octets + length;
}

function looksLikeText(bytes: Uint8Array): boolean {
  // A DER certificate starts with the SEQUENCE tag 0x30 ('0'), then a length octet above 0x80 for
  // anything over 127 bytes, which no ASCII text has.
  return !(bytes[0] === 0x30 && (bytes[1] ?? 0) >= 0x80);
}

/** Exactly one PEM certificate block, with nothing but white space around it, as DER. */
function pemToDer(text: string): Uint8Array {
  const blocks = text.match(PEM_BEGIN) ?? [];
  if (blocks.length === 0) throw invalidField(FIELD, 'certificateUnreadable');
  if (blocks.length > 1) throw invalidField(FIELD, 'notOneCertificate');
  const match = PEM_BLOCK.exec(text);
  if (!match) throw invalidField(FIELD, 'certificateUnreadable');
  const before = text.slice(0, match.index);
  const after = text.slice(match.index + match[0].length);
  if (before.trim() !== '' || after.trim() !== '') throw invalidField(FIELD, 'notOneCertificate');
  const body = (match[1] ?? '').replace(/\s+/g, '');
  if (!BASE64.test(body)) throw invalidField(FIELD, 'certificateUnreadable');
  return new Uint8Array(Buffer.from(body, 'base64'));
}

/** Parses DER that must be exactly one X.509 certificate. */
function parseDer(der: Uint8Array): ReadCertificate {
  const length = derSequenceLength(der);
  if (length === null) throw invalidField(FIELD, 'certificateUnreadable');
  if (length < der.length) throw invalidField(FIELD, 'notOneCertificate');
  if (length > der.length) throw invalidField(FIELD, 'certificateUnreadable');
  try {
    return { der, x509: new X509Certificate(der) };
  } catch {
    throw invalidField(FIELD, 'certificateUnreadable');
  }
}

/**
 * The certificate of a raw upload (`application/x-x509-ca-cert`): the file's bytes, PEM or DER,
 * at most 4 KB (413 above, before anything is parsed).
 */
export function readCertificateFile(bytes: Uint8Array): ReadCertificate {
  if (bytes.length > CLIENT_AUTH_CERTIFICATE_MAX_BYTES) throw tooLarge();
  if (bytes.length === 0) throw invalidField(FIELD, 'required');
  if (!looksLikeText(bytes)) return parseDer(bytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidField(FIELD, 'certificateUnreadable');
  }
  return parseDer(pemToDer(text));
}

/**
 * The certificate of a JSON upload: PEM text, or the DER in base64; the file it stands for may be
 * 4 KB at most (413 above).
 */
export function readCertificateText(value: string): ReadCertificate {
  if (value.includes('-----BEGIN')) {
    if (Buffer.byteLength(value, 'utf8') > CLIENT_AUTH_CERTIFICATE_MAX_BYTES) throw tooLarge();
    return parseDer(pemToDer(value));
  }
  const compact = value.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw invalidField(FIELD, 'certificateUnreadable');
  const der = new Uint8Array(Buffer.from(compact, 'base64'));
  if (der.length > CLIENT_AUTH_CERTIFICATE_MAX_BYTES) throw tooLarge();
  return parseDer(der);
}

/** A certificate is registered only while it is valid: an expired one could never sign anybody in. */
export function assertCurrentlyValid(x509: X509Certificate, now: Date): void {
  if (new Date(x509.validTo).getTime() <= now.getTime()) throw invalidField(FIELD, 'certificateExpired');
  if (new Date(x509.validFrom).getTime() > now.getTime()) throw invalidField(FIELD, 'certificateNotYetValid');
}

/** 409: the user already holds a certificate with this SHA-256 thumbprint. */
export function certificateInUse(): ApiError {
  return new ApiError(409, 'The user already has this certificate.', { field: FIELD, code: 'inUse' });
}

/** The common name of a subject, else the whole subject (a certificate without a CN still has a name). */
export function commonNameOf(x509: X509Certificate): string {
  const lines = x509.subject.split('\n');
  const cn = lines.find((line) => line.startsWith('CN='));
  return cn ? cn.slice(3) : lines.join(', ') || x509.serialNumber;
}
