import { Cardano } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { bech32 } from '@scure/base';
import sodium from 'libsodium-wrappers-sumo';
import { Hash28ByteBase16 } from '@cardano-sdk/crypto';
import { AppError, ErrorCode } from '../../src-shared/errors';

/**
 * CIP-1852 key derivation: root key from the recovery phrase's entropy, account 0
 * (m/1852'/1815'/0'), payment key 0/0 and stake key 2/0, and the base address they make.
 */
const HARDENED = 0x80000000;
export const harden = (index: number): number => index + HARDENED;
export const ACCOUNT_PATH = [harden(1852), harden(1815), harden(0)] as const;
export const PAYMENT_KEY_PATH = [0, 0] as const;
export const STAKE_KEY_PATH = [2, 0] as const;

let cryptoReady: Promise<void> | undefined;
/**
 * The SDK's synchronous crypto needs libsodium loaded once; so does the signing key's, which
 * calls libsodium itself (the same instance wherever the SDK's module format resolves to it).
 */
export const cryptoIsReady = (): Promise<void> =>
  (cryptoReady ??= Promise.all([Crypto.ready(), sodium.ready]).then(() => undefined));

export const rootKeyFromEntropy = (entropy: Uint8Array): Crypto.Bip32PrivateKey =>
  Crypto.Bip32PrivateKey.fromBip39Entropy(Buffer.from(entropy), '');

export const accountKeyOf = (root: Crypto.Bip32PrivateKey): Crypto.Bip32PrivateKey =>
  root.derive([...ACCOUNT_PATH]);

/** Raw Ed25519 extended key (64 bytes: scalar + nonce) of the account's payment key 0/0. */
export const paymentSigningKeyOf = (account: Crypto.Bip32PrivateKey): Uint8Array =>
  account
    .derive([...PAYMENT_KEY_PATH])
    .toRawKey()
    .bytes();

export interface AccountAddresses {
  paymentKeyHash: string;
  stakeKeyHash: string;
  /** Base address (payment 0/0, stake 2/0) for the given network id. */
  baseAddress: string;
}

export const keyHashOf = (publicKey: Crypto.Ed25519PublicKey): string => publicKey.hash().hex();

export const addressesOf = (
  accountPublicKey: Crypto.Bip32PublicKey,
  networkId: 0 | 1,
): AccountAddresses => {
  const paymentKeyHash = keyHashOf(accountPublicKey.derive([...PAYMENT_KEY_PATH]).toRawKey());
  const stakeKeyHash = keyHashOf(accountPublicKey.derive([...STAKE_KEY_PATH]).toRawKey());
  const baseAddress = Cardano.BaseAddress.fromCredentials(
    networkId,
    { type: Cardano.CredentialType.KeyHash, hash: Hash28ByteBase16(paymentKeyHash) },
    { type: Cardano.CredentialType.KeyHash, hash: Hash28ByteBase16(stakeKeyHash) },
  )
    .toAddress()
    .toBech32();
  return { paymentKeyHash, stakeKeyHash, baseAddress };
};

const ACCOUNT_KEY_PREFIX = 'acct_xvk';

export const accountPublicKeyToBech32 = (key: Crypto.Bip32PublicKey): string =>
  bech32.encode(ACCOUNT_KEY_PREFIX, bech32.toWords(key.bytes()), 1023);

/**
 * Reads an account public key as a trader pastes it: bech32 `acct_xvk1…` or 128 hex characters
 * (public key + chain code). Throws `INVALID_INPUT` with what is wrong.
 */
export const parseAccountPublicKey = (text: string): Crypto.Bip32PublicKey => {
  const value = text.trim();
  const bad = (why: string): AppError =>
    new AppError(
      ErrorCode.InvalidInput,
      `This is not an account public key: ${why}. Paste the acct_xvk… key your wallet exports.`,
    );
  let bytes: Uint8Array;
  if (/^[0-9a-fA-F]+$/.test(value)) {
    if (value.length !== 128)
      throw bad(`a hex key has 128 characters, this one has ${value.length}`);
    bytes = Buffer.from(value, 'hex');
  } else {
    let decoded: { prefix: string; words: number[] };
    try {
      decoded = bech32.decode(value as `${string}1${string}`, 1023);
    } catch {
      throw bad('it is neither hex nor valid bech32 (a character may be mistyped)');
    }
    if (decoded.prefix !== ACCOUNT_KEY_PREFIX) {
      throw bad(
        decoded.prefix.includes('sk') || decoded.prefix.includes('prv')
          ? 'it is a PRIVATE key, never paste one here'
          : `it starts with "${decoded.prefix}" instead of "${ACCOUNT_KEY_PREFIX}"`,
      );
    }
    bytes = bech32.fromWords(decoded.words);
    if (bytes.length !== 64) throw bad('it has the wrong length');
  }
  return Crypto.Bip32PublicKey.fromBytes(bytes);
};
