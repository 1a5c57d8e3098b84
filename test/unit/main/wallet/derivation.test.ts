import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  addressesOf,
  cryptoIsReady,
  parseAccountPublicKey,
  rootKeyFromEntropy,
} from '../../../../src-main/wallet/derivation';
import { recoveryPhraseEntropy } from '../../../../src-main/wallet/mnemonic';

// The published CIP-1852 test vector (cardano-serialization-lib), toolchain.md.
const VECTOR =
  'excess behave track soul table wear ocean cash stay nature item turtle palm soccer lunch horror start stumble month panic right must lock dress';
const MAINNET =
  'addr1qyy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sdn8p3d';
const TESTNET =
  'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj';

beforeAll(cryptoIsReady);

const vectorAccount = () =>
  accountKeyOf(rootKeyFromEntropy(recoveryPhraseEntropy(VECTOR.split(' ')))).toPublic();

describe('CIP-1852 derivation', () => {
  it('gives the published base addresses for mainnet and testnet', () => {
    expect(addressesOf(vectorAccount(), 1).baseAddress).toBe(MAINNET);
    expect(addressesOf(vectorAccount(), 0).baseAddress).toBe(TESTNET);
  });

  it('reads the account public key back from bech32 and hex', () => {
    const account = vectorAccount();
    const text = accountPublicKeyToBech32(account);
    expect(text.startsWith('acct_xvk1')).toBe(true);
    expect(parseAccountPublicKey(text).hex()).toBe(account.hex());
    expect(parseAccountPublicKey(` ${account.hex()} `).hex()).toBe(account.hex());
    expect(addressesOf(parseAccountPublicKey(text), 0).baseAddress).toBe(TESTNET);
  });

  it('refuses what is not an account public key, saying why', () => {
    const account = vectorAccount();
    const cases: Array<[string, string]> = [
      [account.hex().slice(0, 100), '128 characters'],
      [accountPublicKeyToBech32(account).slice(0, -1) + 'q', 'mistyped'],
      [TESTNET, 'starts with "addr_test"'],
    ];
    for (const [input, expected] of cases) {
      expect(() => parseAccountPublicKey(input)).toThrow(expected);
      try {
        parseAccountPublicKey(input);
      } catch (error) {
        expect((error as { code: string }).code).toBe(ErrorCode.InvalidInput);
      }
    }
  });
});
