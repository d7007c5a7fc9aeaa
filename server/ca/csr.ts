import * as asn1js from 'asn1js';
import type { KeyDescription } from '../../contract/certificate-policy.ts';
import { ApiError } from '../http/errors.ts';
import { describeSpki } from './keys.ts';
import { x509 } from './x509.ts';

/** A certificate request whose form, signature and key were checked. */
export interface ParsedCsr {
  request: x509.Pkcs10CertificateRequest;
  key: KeyDescription;
}

const BEGIN = /-----BEGIN ([A-Z0-9 ]+)-----/g;
const PEM_BLOCK =
  /^-----BEGIN (NEW )?CERTIFICATE REQUEST-----\r?\n([A-Za-z0-9+/=\r\n\t ]+?)\r?\n?-----END (NEW )?CERTIFICATE REQUEST-----$/;

/** Longest CSR accepted: an RSA 4096 request with extensions is about 2 KB of PEM. */
export const CSR_MAX_LENGTH = 16_384;

function refuse(message: string, code: 'csrInvalid' | 'csrSignatureInvalid' | 'keyTooWeak'): never {
  throw new ApiError(400, `csr: ${message}`, { field: 'csr', code });
}

/**
 * Reads one PKCS#10 request in PEM: exactly one CERTIFICATE REQUEST block, surrounding white space
 * allowed, nothing else before or after it, DER with no trailing bytes, a self-signature that
 * verifies with the request's own key, and an RSA key of at least 2048 bits or an EC key on P-256,
 * P-384 or P-521. Throws ApiError 400 (field `csr`) naming the problem. Whether the profile accepts
 * the key is the caller's check (`policyAcceptsKey`).
 */
export async function parseCsr(pem: string): Promise<ParsedCsr> {
  if (pem.length > CSR_MAX_LENGTH) refuse(`is longer than ${CSR_MAX_LENGTH} characters.`, 'csrInvalid');
  const text = pem.trim();
  const blocks = [...text.matchAll(BEGIN)];
  if (blocks.length === 0) {
    refuse(
      'is not a PEM certificate request: it must start with -----BEGIN CERTIFICATE REQUEST-----.',
      'csrInvalid',
    );
  }
  if (blocks.length > 1) {
    refuse(`holds ${blocks.length} PEM blocks; send exactly one certificate request.`, 'csrInvalid');
  }
  if (!/^-----BEGIN (NEW )?CERTIFICATE REQUEST-----/.test(text)) {
    refuse(
      blocks[0]?.index === 0
        ? `is a PEM "${blocks[0]?.[1]}" block, not a CERTIFICATE REQUEST.`
        : 'has text before -----BEGIN CERTIFICATE REQUEST-----.',
      'csrInvalid',
    );
  }
  const end = /-----END (NEW )?CERTIFICATE REQUEST-----/.exec(text);
  if (end === null) refuse('has no -----END CERTIFICATE REQUEST----- line.', 'csrInvalid');
  if (end.index + end[0].length !== text.length) {
    refuse('has text after -----END CERTIFICATE REQUEST-----.', 'csrInvalid');
  }
  const match = PEM_BLOCK.exec(text);
  const body = match?.[2]?.replace(/\s+/g, '') ?? '';
  if (match === null || (match[1] ?? '') !== (match[3] ?? '') || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) {
    refuse('is not valid PEM: the lines between BEGIN and END must be base64.', 'csrInvalid');
  }
  const der = new Uint8Array(Buffer.from(body, 'base64'));
  const ber = asn1js.fromBER(der);
  if (ber.offset === -1 || ber.offset !== der.length) {
    refuse(
      ber.offset === -1 ? 'is not DER-encoded PKCS#10.' : 'has bytes after the PKCS#10 structure.',
      'csrInvalid',
    );
  }
  let request: x509.Pkcs10CertificateRequest;
  try {
    request = new x509.Pkcs10CertificateRequest(der);
  } catch {
    refuse('is not a PKCS#10 certificate request.', 'csrInvalid');
  }
  let spki: ReturnType<typeof describeSpki>;
  try {
    spki = describeSpki(request.publicKey.rawData);
  } catch {
    refuse('holds a public key that cannot be read.', 'csrInvalid');
  }
  if (spki.kind === 'unsupported') {
    throw new ApiError(400, `csr: holds an ${spki.label} key; only RSA and EC keys are accepted.`, {
      field: 'csr',
      code: 'keyTypeNotAllowed',
    });
  }
  if (spki.kind === 'weak') {
    refuse(
      `holds an ${spki.label} key, which is too weak: use RSA of at least 2048 bits or EC on P-256, P-384 or P-521.`,
      'keyTooWeak',
    );
  }
  let verified = false;
  try {
    verified = await request.verify();
  } catch {
    verified = false;
  }
  if (!verified) {
    refuse("has a signature that does not verify with the request's own key.", 'csrSignatureInvalid');
  }
  return { request, key: spki.key };
}
