import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { type APIRequestContext, expect } from '@playwright/test';
import { CLIENT_AUTH_POLICY } from '../../contract/certificate-policy.ts';
import { apiPaths } from '../../contract/paths.ts';
import type { CertificateProfile } from '../../contract/schemas/certificate-profiles.ts';
import type { CertificateIssued } from '../../contract/schemas/certificates.ts';

function bearer(accessToken: string): Record<string, string> {
  return { Authorization: `Bearer ${accessToken}` };
}

/** A certificate profile of `accountId` through POST profile: client authentication, a year. */
export async function createProfileThroughApi(
  request: APIRequestContext,
  accessToken: string,
  accountId: string,
  name: string,
): Promise<CertificateProfile> {
  const response = await request.post(apiPaths.certificateProfiles.profiles, {
    data: { account_id: accountId, name, description: 'Browser story', policy: CLIENT_AUTH_POLICY },
    headers: bearer(accessToken),
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CertificateProfile;
}

/** A fresh EC P-256 key and its PKCS#10 request, PEM, as a device would send it. */
export async function createCsr(subject: string): Promise<string> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, false, ['sign', 'verify'])) as CryptoKeyPair;
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: subject,
    keys,
    signingAlgorithm: algorithm,
  });
  return csr.toString('pem');
}

/** Issues a certificate under `profileId` through POST certificate. */
export async function issueCertificateThroughApi(
  request: APIRequestContext,
  accessToken: string,
  profileId: string,
  commonName: string,
): Promise<CertificateIssued> {
  const response = await request.post(apiPaths.certificates.list, {
    data: { profile_id: profileId, csr: await createCsr(`CN=${commonName}`), common_name: commonName },
    headers: bearer(accessToken),
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as CertificateIssued;
}
