import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { ClientAuthKeyChoice } from '../../../contract/schemas/client-auth.ts';
import { x509 } from '../../lib/x509.ts';

/**
 * The key of a client-authentication certificate, made and kept in the browser (decision 019): a
 * WebCrypto key pair, a PKCS#10 request that carries only its public key to the server, and the
 * password-protected PKCS#12 file the user downloads. Loaded lazily by the generate dialog, so
 * @peculiar/x509 and pkijs weigh on no other page. Runs unchanged in Node (tests), whose WebCrypto is
 * the same API.
 */

export type KeyChoice = ClientAuthKeyChoice;

const KEY_ALGORITHMS: Record<KeyChoice, RsaHashedKeyGenParams | EcKeyGenParams> = {
  'RSA-2048': {
    name: 'RSASSA-PKCS1-v1_5',
    modulusLength: 2048,
    publicExponent: new Uint8Array([1, 0, 1]),
    hash: 'SHA-256',
  } as RsaHashedKeyGenParams,
  'ECDSA-P256': { name: 'ECDSA', namedCurve: 'P-256' },
};

const SIGNING: Record<KeyChoice, Algorithm | EcdsaParams> = {
  'RSA-2048': { name: 'RSASSA-PKCS1-v1_5' },
  'ECDSA-P256': { name: 'ECDSA', hash: 'SHA-256' } as EcdsaParams,
};

/** PBKDF2-SHA256 rounds protecting the key bag (OWASP's 2023 figure for PBKDF2-HMAC-SHA256). */
export const KEY_BAG_ITERATIONS = 600_000;
/** Rounds of the PKCS#12 MAC key derivation, OpenSSL's default; the MAC guards integrity only. */
export const MAC_ITERATIONS = 2048;

function webCrypto(): Crypto {
  return globalThis.crypto;
}

let engineSet = false;
function selectWebCrypto(): void {
  if (engineSet) return;
  const crypto = webCrypto();
  x509.cryptoProvider.set(crypto);
  pkijs.setEngine('webcrypto', new pkijs.CryptoEngine({ name: 'webcrypto', crypto }));
  engineSet = true;
}

/** Escapes a value for an RFC 4514 name, as the CSR's subject is written (the server ignores it anyway). */
function rdnValue(value: string): string {
  return value.replace(/[\\,+"<>;=#]/g, (character) => `\\${character}`);
}

/**
 * A key pair (extractable, so it can go into the PKCS#12 file; it never leaves the page otherwise)
 * and a CSR in PEM signed with it. The CSR's subject is only a label: the server writes the
 * certificate's subject from the user's record.
 */
export async function generateKeyAndCsr(
  choice: KeyChoice,
  commonName: string,
): Promise<{ keys: CryptoKeyPair; csr: string }> {
  selectWebCrypto();
  const keys = (await webCrypto().subtle.generateKey(KEY_ALGORITHMS[choice], true, [
    'sign',
    'verify',
  ])) as CryptoKeyPair;
  const request = await x509.Pkcs10CertificateRequestGenerator.create({
    name: `CN=${rdnValue(commonName)}`,
    keys,
    signingAlgorithm: { ...KEY_ALGORITHMS[choice], ...SIGNING[choice] },
  });
  return { keys, csr: request.toString('pem') };
}

function pemToDer(pem: string): ArrayBuffer {
  const body = pem.replace(/-----(BEGIN|END) [A-Z0-9 ]+-----/g, '').replace(/\s+/g, '');
  const bytes = Uint8Array.from(atob(body), (character) => character.charCodeAt(0));
  return bytes.buffer;
}

function certificateOf(pem: string): pkijs.Certificate {
  return pkijs.Certificate.fromBER(pemToDer(pem));
}

/** The bag attributes that pair a key with its certificate on import (Windows, macOS, Firefox). */
function bagAttributes(localKeyId: ArrayBuffer, friendlyName: string | null): pkijs.Attribute[] {
  const attributes = [
    new pkijs.Attribute({
      type: '1.2.840.113549.1.9.21', // localKeyID
      values: [new asn1js.OctetString({ valueHex: localKeyId })],
    }),
  ];
  if (friendlyName !== null) {
    attributes.push(
      new pkijs.Attribute({
        type: '1.2.840.113549.1.9.20', // friendlyName
        values: [new asn1js.BmpString({ value: friendlyName })],
      }),
    );
  }
  return attributes;
}

function certificateBag(certificate: pkijs.Certificate, attributes?: pkijs.Attribute[]): pkijs.SafeBag {
  return new pkijs.SafeBag({
    bagId: '1.2.840.113549.1.12.10.1.3',
    bagValue: new pkijs.CertBag({ parsedValue: certificate }),
    ...(attributes ? { bagAttributes: attributes } : {}),
  });
}

/**
 * The PKCS#12 file of the key, its certificate and the chain: the key in a shrouded key bag under
 * PBES2 (PBKDF2-SHA256, AES-256-CBC), the certificates in the clear as usual, the whole under an
 * HMAC-SHA256 MAC, both keyed by `password`. What OpenSSL 3 writes by default, and what Windows 10+,
 * macOS and Firefox import.
 */
export async function buildPkcs12(options: {
  privateKey: CryptoKey;
  certificate: string;
  chain: readonly string[];
  password: string;
  friendlyName: string;
}): Promise<Uint8Array<ArrayBuffer>> {
  selectWebCrypto();
  const crypto = webCrypto();
  const password = new TextEncoder().encode(options.password).buffer as ArrayBuffer;
  const pkcs8 = await crypto.subtle.exportKey('pkcs8', options.privateKey);
  const leaf = certificateOf(options.certificate);
  const localKeyId = await crypto.subtle.digest('SHA-256', pemToDer(options.certificate));

  const keyBag = new pkijs.PKCS8ShroudedKeyBag({
    parsedValue: pkijs.PrivateKeyInfo.fromBER(pkcs8),
  });
  const pfx = new pkijs.PFX({
    parsedValue: {
      integrityMode: 0, // password-based integrity (the MAC)
      authenticatedSafe: new pkijs.AuthenticatedSafe({
        parsedValue: {
          safeContents: [
            {
              privacyMode: 0, // the bags themselves: the key bag is shrouded, certificates are public
              value: new pkijs.SafeContents({
                safeBags: [
                  new pkijs.SafeBag({
                    bagId: '1.2.840.113549.1.12.10.1.2',
                    bagValue: keyBag,
                    bagAttributes: bagAttributes(localKeyId, options.friendlyName),
                  }),
                  certificateBag(leaf, bagAttributes(localKeyId, options.friendlyName)),
                  ...options.chain.map((pem) => certificateBag(certificateOf(pem))),
                ],
              }),
            },
          ],
        },
      }),
    },
  });
  await keyBag.makeInternalValues({
    password,
    // pkijs draws the IV itself for each encryption.
    contentEncryptionAlgorithm: {
      name: 'AES-CBC',
      length: 256,
    } as unknown as pkijs.ContentEncryptionAesCbcParams,
    hmacHashAlgorithm: 'SHA-256',
    iterationCount: KEY_BAG_ITERATIONS,
  });
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new Error('The PKCS#12 structure has no authenticated safe.');
  await safe.makeInternalValues({ safeContents: [{}] });
  await pfx.makeInternalValues({
    password,
    iterations: MAC_ITERATIONS,
    pbkdf2HashAlgorithm: 'SHA-256',
    hmacHashAlgorithm: 'SHA-256',
  });
  return new Uint8Array(pfx.toSchema().toBER(false));
}
