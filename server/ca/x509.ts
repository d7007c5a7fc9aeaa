/**
 * @peculiar/x509 on Node's WebCrypto, the one import of the library in the server: its decorators
 * need reflect-metadata loaded first, and its default crypto provider is set here once.
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

/** The WebCrypto types as the library declares them (Node's and the PKCS#11 token's both fit). */
export type WebCrypto = NonNullable<Parameters<typeof x509.X509CertificateGenerator.create>[1]>;
export type WebCryptoKey = x509.X509CrlCreateParams['signingKey'];
export type WebCryptoKeyPair = x509.X509CertificateCreateSelfSignedParams['keys'];
export type SigningAlgorithm = x509.X509CrlCreateParams['signingAlgorithm'];

/** Node's WebCrypto. */
export const nodeCrypto = webcrypto as unknown as WebCrypto;
x509.cryptoProvider.set(nodeCrypto);

export { x509 };
