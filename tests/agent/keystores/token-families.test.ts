import { describe, expect, it } from 'vitest';
import { keystoreTypeOf } from '../../../agent/keystores/pkcs11.ts';

describe('the keystore type of a token', () => {
  it.each([
    ['Yubico', 'YUBIKEY'],
    ['SafeNet, Inc.', 'ETOKEN'],
    ['Feitian Technologies Co., Ltd.', 'EPASS'],
    ['A.E.T. Europe B.V.', 'SAFESIGN'],
    ['Athena Smartcard Solutions', 'ATHEIDP'],
    ['SoftHSM project', 'PKCS11'],
  ])('names a token made by %s as %s', (manufacturer, type) => {
    expect(keystoreTypeOf(manufacturer)).toBe(type);
  });
});
