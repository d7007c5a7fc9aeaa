import { describe, expect, it } from 'vitest';
import { CLIENT_AUTH_POLICY } from '../../../contract/certificate-policy.ts';
import { parseCsr } from '../../../server/ca/csr.ts';
import { extendedKeyUsageOids, keyUsageFlags } from '../../../server/ca/issue.ts';
import { rfc4514, subjectAttributes } from '../../../server/ca/names.ts';
import { x509 } from '../../../server/ca/x509.ts';
import { createCsr } from './helpers.ts';

const { digitalSignature, nonRepudiation, keyEncipherment, keyAgreement } = x509.KeyUsageFlags;
const rsa = { algorithm: 'RSA', size: 2048 } as const;
const ec = { algorithm: 'EC', curve: 'P-256' } as const;

describe('the key-usage mapping (decision 019 §4)', () => {
  it('maps each spec usage to its X.509 bits, key management by key type', () => {
    expect(keyUsageFlags(['Authentication'], rsa)).toBe(digitalSignature | keyEncipherment);
    expect(keyUsageFlags(['Authentication'], ec)).toBe(digitalSignature);
    expect(keyUsageFlags(['DigitalSignature'], ec)).toBe(digitalSignature | nonRepudiation);
    expect(keyUsageFlags(['KeyManagement'], rsa)).toBe(keyEncipherment);
    expect(keyUsageFlags(['KeyManagement'], ec)).toBe(keyAgreement);
    expect(keyUsageFlags(['CardAuthentication'], ec)).toBe(digitalSignature);
  });

  it('adds PIV card authentication for CardAuthentication and writes each extended usage once', () => {
    expect(extendedKeyUsageOids(CLIENT_AUTH_POLICY)).toEqual(['1.3.6.1.5.5.7.3.2']);
    expect(
      extendedKeyUsageOids({
        ...CLIENT_AUTH_POLICY,
        key_usages: ['CardAuthentication'],
        extended_key_usages: ['pivCardAuthentication', 'clientAuth'],
      }),
    ).toEqual(['2.16.840.1.101.3.6.8', '1.3.6.1.5.5.7.3.2']);
  });
});

describe('subject names', () => {
  it('encode country first and name CN first in RFC 4514, escaping what it must', () => {
    const attributes = subjectAttributes({
      common_name: ' Smith, John+1 ',
      organization_name: 'Example',
      organization_units: ['R&D', ''],
      country: 'de',
      street_address: 'Main Street 1',
    });
    expect(attributes.map(([type]) => type)).toEqual(['C', '2.5.4.9', 'O', 'OU', 'CN']);
    expect(rfc4514(attributes)).toBe('CN=Smith\\, John\\+1,OU=R&D,O=Example,STREET=Main Street 1,C=DE');
  });
});

describe('the PEM form of a request', () => {
  it('accepts white space around one block and the NEW CERTIFICATE REQUEST header', async () => {
    const { pem } = await createCsr('EC P-256');
    expect((await parseCsr(`\n\n  ${pem}\n\n`)).key).toEqual({ algorithm: 'EC', curve: 'P-256' });
    const legacy = pem.replaceAll('CERTIFICATE REQUEST', 'NEW CERTIFICATE REQUEST');
    expect((await parseCsr(legacy)).key).toEqual({ algorithm: 'EC', curve: 'P-256' });
    await expect(
      parseCsr(pem.replace('-----END CERTIFICATE REQUEST-----', '-----END NEW CERTIFICATE REQUEST-----')),
    ).rejects.toMatchObject({
      status: 400,
      detail: { field: 'csr', code: 'csrInvalid' },
    });
  });
});
