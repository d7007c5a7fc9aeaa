import * as v from 'valibot';
import { CA_KEY_ALGORITHMS } from '../certificate-policy.ts';
import { listSchema } from './common.ts';

/**
 * The parts of a distinguished name the console shows (overview §3, parsed certificate details);
 * a part the name does not hold is null.
 */
export const distinguishedNameSchema = v.object({
  distinguished_name: v.string(),
  common_name: v.nullable(v.string()),
  organizational_unit: v.nullable(v.string()),
  organization: v.nullable(v.string()),
  locality: v.nullable(v.string()),
  state: v.nullable(v.string()),
  country: v.nullable(v.string()),
  email: v.nullable(v.string()),
});
export type DistinguishedName = v.InferOutput<typeof distinguishedNameSchema>;

/** Parsed certificate details (overview §3): issuer, subject, validity and version. */
export const parsedCertificateSchema = v.object({
  issuer: distinguishedNameSchema,
  subject: distinguishedNameSchema,
  /** ISO 8601 instants. */
  validFrom: v.string(),
  validTo: v.string(),
  /** Whether now lies between validFrom and validTo (revocation is the certificate's status). */
  isValid: v.boolean(),
  /** X.509 version as written in certificates: 3 for v3. */
  version: v.number(),
  /** Lower-case hexadecimal. */
  serial_number: v.string(),
  /** Upper-case hexadecimal pairs joined by colons, as openssl prints them. */
  sha256_fingerprint: v.string(),
  sha1_fingerprint: v.string(),
  /** e.g. "RSA 2048", "EC P-256". */
  key_algorithm: v.string(),
  signature_algorithm: v.string(),
});
export type ParsedCertificate = v.InferOutput<typeof parsedCertificateSchema>;

/** One of the platform's CAs as its page shows it. */
export const certificateAuthoritySchema = v.object({
  id: v.string(),
  kind: v.picklist(['root', 'issuing']),
  key_algorithm: v.picklist(CA_KEY_ALGORITHMS),
  key_custody: v.picklist(['encrypted', 'pkcs11']),
  details: parsedCertificateSchema,
  /** Where its certificate and (issuing CA) its CRL are published; anyone may fetch them. */
  certificate_url: v.string(),
  crl_url: v.nullable(v.string()),
  crl_number: v.number(),
  crl_this_update: v.nullable(v.string()),
  crl_next_update: v.nullable(v.string()),
  created_at: v.string(),
});
export type CertificateAuthority = v.InferOutput<typeof certificateAuthoritySchema>;
/** The working CAs, root first, as every list: items and total. */
export const certificateAuthorityListSchema = listSchema(certificateAuthoritySchema);
export type CertificateAuthorityList = v.InferOutput<typeof certificateAuthorityListSchema>;

/** Formats one certificate is exported in (`certificate/export`). */
export const CERTIFICATE_EXPORT_FORMATS = ['pem', 'der', 'p7b'] as const;
export type CertificateExportFormat = (typeof CERTIFICATE_EXPORT_FORMATS)[number];
