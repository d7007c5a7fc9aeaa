import * as v from 'valibot';
import { CERTIFICATE_STATUSES } from '../certificate-policy.ts';
import type { ValidationCode } from '../validation.ts';
import { listSchema, resourceIdSchema } from './common.ts';
import { pagingQueryEntries } from './query.ts';

/**
 * Client-authentication certificates of administrators and service users (decision 019,
 * client-authentication certificates; overview §5 and §9, account administration §7).
 *
 * The one upload type is an X.509 certificate labelled `application/x-x509-ca-cert`, the media type
 * browsers and operating systems give `.crt` and `.cer` files; its content is one certificate, PEM or
 * DER. The spec's "size limit 4" is 4 KB (4096 bytes): a single certificate, even RSA 4096 with long
 * names, is under about 2.5 KB in PEM, and 4 MB would let one request make the server parse megabytes.
 */
export const CLIENT_AUTH_UPLOAD_MEDIA_TYPE = 'application/x-x509-ca-cert';
export const CLIENT_AUTH_CERTIFICATE_MAX_BYTES = 4096;
/** What the file chooser offers: the extensions certificate files carry, and the media type. */
export const CLIENT_AUTH_UPLOAD_ACCEPT = [
  '.crt',
  '.cer',
  '.pem',
  '.der',
  CLIENT_AUTH_UPLOAD_MEDIA_TYPE,
] as const;
/**
 * The largest JSON body of POST …/client-auth-certificate: a CSR or a certificate of at most
 * `CLIENT_AUTH_CERTIFICATE_MAX_BYTES` as PEM text or base64 (4/3 larger), with JSON escaping.
 */
export const CLIENT_AUTH_JSON_BODY_MAX_BYTES = 8192;
/** A PKCS#10 request in PEM; an RSA 4096 one is about 1.7 KB. */
export const CSR_MAX_LENGTH = 6000;

/** Issued by the platform CA (`certificate_id` names its certificate), or uploaded by the user. */
export const CLIENT_AUTH_SOURCES = ['issued', 'uploaded'] as const;
export type ClientAuthSource = (typeof CLIENT_AUTH_SOURCES)[number];

export const clientAuthCertificateSchema = v.object({
  id: v.string(),
  user_id: v.string(),
  source: v.picklist(CLIENT_AUTH_SOURCES),
  common_name: v.string(),
  /** ISO 8601 instant: the certificate's notAfter. */
  not_after: v.string(),
  /** Upper-case hexadecimal pairs joined by colons, as openssl prints them. */
  sha256_fingerprint: v.string(),
  enabled: v.boolean(),
  /**
   * Issued ones: revoked or expired as the certificate itself is, else issued. Uploaded ones: expired
   * after notAfter, else issued (the platform cannot revoke another CA's certificate).
   */
  status: v.picklist(CERTIFICATE_STATUSES),
  /** The platform's certificate (its page is /ca/certificates/{id}); null for uploaded ones. */
  certificate_id: v.nullable(v.string()),
  created_at: v.string(),
  /** Row version: the ETag that PUT …/enable names in If-Match. */
  version: v.number(),
});
export type ClientAuthCertificate = v.InferOutput<typeof clientAuthCertificateSchema>;

export const clientAuthCertificateListSchema = listSchema(clientAuthCertificateSchema);
export type ClientAuthCertificateList = v.InferOutput<typeof clientAuthCertificateListSchema>;

export const clientAuthCertificateListQuerySchema = v.object({ ...pagingQueryEntries });
export type ClientAuthCertificateListQuery = v.InferOutput<typeof clientAuthCertificateListQuerySchema>;

/** POST …/client-auth-certificate with a CSR: the platform CA issues; the key stays in the browser. */
export const clientAuthGenerateSchema = v.strictObject({
  csr: v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.nonEmpty('required' satisfies ValidationCode),
    v.maxLength(CSR_MAX_LENGTH, 'tooLong' satisfies ValidationCode),
  ),
});
export type ClientAuthGenerate = v.InferOutput<typeof clientAuthGenerateSchema>;

/**
 * POST …/client-auth-certificate with a certificate in JSON: PEM text (one block), or the DER bytes
 * in base64. The same upload may also be the raw file with Content-Type
 * `application/x-x509-ca-cert`.
 */
export const clientAuthUploadSchema = v.strictObject({
  certificate: v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.nonEmpty('required' satisfies ValidationCode),
  ),
});
export type ClientAuthUpload = v.InferOutput<typeof clientAuthUploadSchema>;

/** The answer to a generation: the row, the certificate, and the chain up to the root, PEM each. */
export const clientAuthGeneratedSchema = v.object({
  item: clientAuthCertificateSchema,
  certificate: v.string(),
  chain: v.array(v.string()),
});
export type ClientAuthGenerated = v.InferOutput<typeof clientAuthGeneratedSchema>;

export const clientAuthEnableSchema = v.strictObject({
  enabled: v.boolean('invalidType' satisfies ValidationCode),
});
export type ClientAuthEnable = v.InferOutput<typeof clientAuthEnableSchema>;

export const clientAuthCertificateParamsSchema = v.object({
  id: resourceIdSchema,
  certId: resourceIdSchema,
});

/** Keys the browser makes for a generated certificate: RSA 2048 by default, or ECDSA P-256. */
export const CLIENT_AUTH_KEY_CHOICES = ['RSA-2048', 'ECDSA-P256'] as const;
export type ClientAuthKeyChoice = (typeof CLIENT_AUTH_KEY_CHOICES)[number];

/**
 * The generate form, which never reaches the server: the key type and the password of the PKCS#12
 * file, typed twice. At least 12 characters, as account passwords: the file may be copied anywhere,
 * and only its password stands between a copy and the user's sign-in. No character classes are
 * required: a long passphrase is the stronger habit for a file password.
 */
export const PKCS12_PASSWORD_MIN_LENGTH = 12;
export const PKCS12_PASSWORD_MAX_LENGTH = 255;
export const clientAuthGenerateFormSchema = v.object({
  key_type: v.picklist(CLIENT_AUTH_KEY_CHOICES, 'invalidValue' satisfies ValidationCode),
  password: v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.nonEmpty('required' satisfies ValidationCode),
    v.minLength(PKCS12_PASSWORD_MIN_LENGTH, 'passwordInvalidLength' satisfies ValidationCode),
    v.maxLength(PKCS12_PASSWORD_MAX_LENGTH, 'passwordInvalidMaxLength' satisfies ValidationCode),
  ),
  password_confirmation: v.pipe(
    v.string('invalidType' satisfies ValidationCode),
    v.nonEmpty('required' satisfies ValidationCode),
  ),
});
export type ClientAuthGenerateForm = v.InferOutput<typeof clientAuthGenerateFormSchema>;

/** The repeated password's rule, between two fields: the code for `password_confirmation`, or null. */
export function pkcs12ConfirmationIssue(
  password: string,
  confirmation: string,
): 'passwordConfirmationMismatch' | null {
  return confirmation !== '' && password !== confirmation ? 'passwordConfirmationMismatch' : null;
}
