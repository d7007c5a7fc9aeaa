import * as asn1js from 'asn1js';
import { pkijs } from './x509.ts';

/**
 * The software keystore's file format: a PKCS#12 (PFX) of one unencrypted SafeContents holding
 * - the keystore's label and serial in a SecretBag of type id-data (so a backup carries them, and an
 *   empty keystore still has a bag: PKI.js reads no SafeContents without one),
 * - each private key as a PKCS8ShroudedKeyBag, encrypted on its own with PBES2 (PBKDF2-HMAC-SHA-256,
 *   `KEY_ITERATIONS`, AES-256-CBC), and
 * - each certificate as a CertBag, readable without the PIN (certificates are public; `certificate`
 *   lists them before any PIN is asked for),
 * a key and its certificate sharing a localKeyId attribute, and the whole file under an
 * HMAC-SHA-256 MAC keyed from the PIN (RFC 7292 appendix B), which is how a PIN is checked. OpenSSL
 * reads it (`openssl pkcs12 -info`), so a backup is usable outside the agent.
 */

/** OWASP's 2023 figure for PBKDF2-HMAC-SHA-256. */
export const KEY_ITERATIONS = 600_000;
/**
 * The MAC checks the PIN, so it is as costly to try a PIN against as a key is: an attacker holding
 * the file gains nothing by attacking the MAC instead of a key.
 */
export const MAC_ITERATIONS = 600_000;

const LOCAL_KEY_ID = '1.2.840.113549.1.9.21';
const FRIENDLY_NAME = '1.2.840.113549.1.9.20';
const SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const CERT_BAG = '1.2.840.113549.1.12.10.1.3';
const X509_CERTIFICATE = '1.2.840.113549.1.9.22.1';
const SECRET_BAG = '1.2.840.113549.1.12.10.1.5';
const ID_DATA = '1.2.840.113549.1.7.1';

/** A wrong PIN or a file altered since it was written: the MAC does not verify. */
export class Pkcs12MacMismatch extends Error {}

export interface Pkcs12Key {
  keyId: string;
  label: string;
  bag: pkijs.SafeBag;
}

export interface Pkcs12Certificate {
  keyId: string | null;
  der: Uint8Array<ArrayBuffer>;
}

export interface KeystoreInfo {
  label: string;
  serial: string;
}

export interface Pkcs12Contents {
  info: KeystoreInfo;
  keys: Pkcs12Key[];
  certificates: Pkcs12Certificate[];
}

function secret(pin: string): ArrayBuffer {
  const bytes = new TextEncoder().encode(pin);
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function localKeyId(keyId: string): pkijs.Attribute {
  return new pkijs.Attribute({
    type: LOCAL_KEY_ID,
    values: [new asn1js.OctetString({ valueHex: Buffer.from(keyId, 'hex') })],
  });
}

function attribute(bag: pkijs.SafeBag, type: string): asn1js.AsnType | undefined {
  return bag.bagAttributes?.find((item) => item.type === type)?.values[0];
}

/** PKI.js writes a SecretBag's value through its `toSchema()`, which a bare ASN.1 value lacks. */
function schemaOf(value: asn1js.OctetString): pkijs.SchemaCompatible {
  return { toSchema: () => value, toJSON: () => value.toJSON() } as unknown as pkijs.SchemaCompatible;
}

function readPfx(bytes: Uint8Array<ArrayBuffer>): pkijs.PFX {
  return pkijs.PFX.fromBER(new Uint8Array(bytes));
}

function contentsOf(authenticatedSafe: pkijs.AuthenticatedSafe): Pkcs12Contents {
  const contents: Pkcs12Contents = { info: { label: '', serial: '' }, keys: [], certificates: [] };
  for (const safe of authenticatedSafe.parsedValue?.safeContents ?? []) {
    for (const bag of safe.value.safeBags) {
      const idAttribute = attribute(bag, LOCAL_KEY_ID);
      const keyId =
        idAttribute instanceof asn1js.OctetString
          ? Buffer.from(idAttribute.valueBlock.valueHexView).toString('hex')
          : null;
      if (
        bag.bagId === SECRET_BAG &&
        bag.bagValue instanceof pkijs.SecretBag &&
        bag.bagValue.secretTypeId === ID_DATA
      ) {
        const value = bag.bagValue.secretValue;
        if (value instanceof asn1js.OctetString) {
          const info = JSON.parse(
            Buffer.from(value.valueBlock.valueHexView).toString('utf8'),
          ) as Partial<KeystoreInfo>;
          contents.info = { label: String(info.label ?? ''), serial: String(info.serial ?? '') };
        }
      } else if (bag.bagId === SHROUDED_KEY_BAG && keyId !== null) {
        const name = attribute(bag, FRIENDLY_NAME);
        contents.keys.push({
          keyId,
          label: name instanceof asn1js.BmpString ? name.valueBlock.value : '',
          bag,
        });
      } else if (
        bag.bagId === CERT_BAG &&
        bag.bagValue instanceof pkijs.CertBag &&
        bag.bagValue.certId === X509_CERTIFICATE
      ) {
        const value = bag.bagValue.certValue;
        if (value instanceof asn1js.OctetString) {
          contents.certificates.push({ keyId, der: new Uint8Array(value.valueBlock.valueHexView) });
        }
      }
    }
  }
  return contents;
}

async function authenticatedSafe(
  bytes: Uint8Array<ArrayBuffer>,
  pin: string | null,
): Promise<pkijs.AuthenticatedSafe> {
  const pfx = readPfx(bytes);
  try {
    await pfx.parseInternalValues({ password: secret(pin ?? ''), checkIntegrity: pin !== null });
  } catch (error) {
    if (pin !== null && error instanceof Error && error.message.includes('Integrity'))
      throw new Pkcs12MacMismatch();
    throw error;
  }
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (safe === undefined) throw new Error('The PKCS#12 file has no authenticated safe');
  await safe.parseInternalValues({ safeContents: safe.safeContents.map(() => ({})) });
  return safe;
}

/** The keys and certificates of a PKCS#12 file whose MAC the PIN verifies; keys stay encrypted. */
export function openPkcs12(bytes: Uint8Array<ArrayBuffer>, pin: string): Promise<Pkcs12Contents> {
  return authenticatedSafe(bytes, pin).then(contentsOf);
}

/**
 * The bags of a PKCS#12 file read without the PIN and without checking the MAC: for listing the
 * certificates, which are not secret, and which keys exist; keys stay encrypted.
 */
export async function readPkcs12WithoutPin(bytes: Uint8Array<ArrayBuffer>): Promise<Pkcs12Contents> {
  return contentsOf(await authenticatedSafe(bytes, null));
}

/** A private key (PKCS#8 DER) encrypted under the PIN, as a bag of the file. */
export async function shroudKey(
  pkcs8: Uint8Array<ArrayBuffer>,
  keyId: string,
  label: string,
  pin: string,
): Promise<Pkcs12Key> {
  const shrouded = new pkijs.PKCS8ShroudedKeyBag({
    parsedValue: pkijs.PrivateKeyInfo.fromBER(new Uint8Array(pkcs8)),
  });
  await shrouded.makeInternalValues({
    password: secret(pin),
    // PKI.js draws the IV itself for PBES2; the type asks for one all the same.
    contentEncryptionAlgorithm: {
      name: 'AES-CBC',
      length: 256,
    } as unknown as pkijs.ContentEncryptionAlgorithm,
    hmacHashAlgorithm: 'SHA-256',
    iterationCount: KEY_ITERATIONS,
  });
  // The plain key is dropped from the bag: only the encrypted form goes on.
  shrouded.parsedValue = undefined;
  const bag = new pkijs.SafeBag({
    bagId: SHROUDED_KEY_BAG,
    bagValue: shrouded,
    bagAttributes: [
      localKeyId(keyId),
      new pkijs.Attribute({ type: FRIENDLY_NAME, values: [new asn1js.BmpString({ value: label })] }),
    ],
  });
  return { keyId, label, bag };
}

/** A key's PKCS#8 DER; the caller has already checked the PIN against the MAC. */
export async function decryptKey(key: Pkcs12Key, pin: string): Promise<Uint8Array<ArrayBuffer>> {
  const shrouded = key.bag.bagValue as pkijs.PKCS8ShroudedKeyBag;
  const encrypted = new pkijs.EncryptedData({
    encryptedContentInfo: new pkijs.EncryptedContentInfo({
      contentEncryptionAlgorithm: shrouded.encryptionAlgorithm,
      encryptedContent: shrouded.encryptedData,
    }),
  });
  return new Uint8Array(await encrypted.decrypt({ password: secret(pin) }));
}

/** The file's bytes: its bags, and a new MAC under the PIN. */
export async function sealPkcs12(contents: Pkcs12Contents, pin: string): Promise<Uint8Array<ArrayBuffer>> {
  const safeBags = [
    new pkijs.SafeBag({
      bagId: SECRET_BAG,
      bagValue: new pkijs.SecretBag({
        secretTypeId: ID_DATA,
        secretValue: schemaOf(
          new asn1js.OctetString({ valueHex: Buffer.from(JSON.stringify(contents.info)) }),
        ),
      }),
    }),
    ...contents.keys.map((key) => key.bag),
    ...contents.certificates.map(
      (certificate) =>
        new pkijs.SafeBag({
          bagId: CERT_BAG,
          bagValue: new pkijs.CertBag({
            certId: X509_CERTIFICATE,
            certValue: new asn1js.OctetString({ valueHex: certificate.der }),
          }),
          bagAttributes: certificate.keyId === null ? undefined : [localKeyId(certificate.keyId)],
        }),
    ),
  ];
  const safe = new pkijs.AuthenticatedSafe({
    parsedValue: { safeContents: [{ privacyMode: 0, value: new pkijs.SafeContents({ safeBags }) }] },
  });
  await safe.makeInternalValues({ safeContents: [{}] });
  const pfx = new pkijs.PFX({ parsedValue: { integrityMode: 0, authenticatedSafe: safe } });
  await pfx.makeInternalValues({
    password: secret(pin),
    iterations: MAC_ITERATIONS,
    pbkdf2HashAlgorithm: 'SHA-256',
    hmacHashAlgorithm: 'SHA-256',
  });
  return new Uint8Array(pfx.toSchema().toBER(false));
}

/** Every key decrypted with the old PIN and encrypted again with the new one. */
export async function reencrypt(
  contents: Pkcs12Contents,
  pin: string,
  newPin: string,
): Promise<Pkcs12Contents> {
  const keys: Pkcs12Key[] = [];
  for (const key of contents.keys) {
    const pkcs8 = await decryptKey(key, pin);
    keys.push(await shroudKey(pkcs8, key.keyId, key.label, newPin));
    pkcs8.fill(0);
  }
  return { ...contents, keys };
}
