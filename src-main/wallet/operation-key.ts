import * as Crypto from '@cardano-sdk/crypto';
import { bech32 } from '@scure/base';
import { createDecipheriv, pbkdf2, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { ACCOUNT_PATH, PAYMENT_KEY_PATH } from './derivation';

/**
 * The operation key: a separate trading key that signs orders and cancels and cannot withdraw.
 * Like the real service's, it is the m/1852'/1815'/0'/0/0 key of its own root key: generated on
 * this machine, or imported from the exchange's encrypted copy.
 */
const OPERATION_KEY_PATH = [...ACCOUNT_PATH, ...PAYMENT_KEY_PATH];

/** The 64-byte extended signing key of a root key's m/1852'/1815'/0'/0/0; wipes the root. */
const operationKeyOfRoot = (rootBytes: Uint8Array): Buffer => {
  const root = Crypto.Bip32PrivateKey.fromBytes(rootBytes);
  const child = root.derive(OPERATION_KEY_PATH);
  const raw = Buffer.from(child.toRawKey().bytes());
  child.bytes().fill(0);
  rootBytes.fill(0);
  return raw;
};

/** A fresh operation key from the OS's random source (after `cryptoIsReady()`). */
export const generateOperationKey = (): Buffer => {
  const entropy = randomBytes(32);
  const root = Crypto.Bip32PrivateKey.fromBip39Entropy(entropy, '');
  entropy.fill(0);
  return operationKeyOfRoot(root.bytes());
};

/** The operation key of a bech32 `xprv1…` root key. */
export const operationKeyFromXprv = (xprv: string): Buffer => {
  let bytes: Uint8Array;
  try {
    const decoded = bech32.decode(xprv.trim() as `${string}1${string}`, 1023);
    if (decoded.prefix !== 'xprv') throw new Error('not an xprv');
    bytes = bech32.fromWords(decoded.words);
  } catch {
    throw notAnOperationKey();
  }
  if (bytes.length !== 96) throw notAnOperationKey();
  return operationKeyOfRoot(bytes);
};

const notAnOperationKey = (): AppError =>
  new AppError(
    ErrorCode.VaultCorrupted,
    "The exchange's copy of the operation key decrypted, but it is not a key Countersign can use. " +
      'Nothing was changed; contact the exchange.',
  );

const EncryptedOperationKey = z.object({
  iv: z.string().min(1),
  salt: z.string().min(1).optional(),
  ciphertext: z.string().min(1),
});

export const EXCHANGE_PBKDF2_ITERATIONS = 100_000;

const pbkdf2Key = (password: string, salt: Buffer): Promise<Buffer> =>
  new Promise((resolve, reject) =>
    pbkdf2(password, salt, EXCHANGE_PBKDF2_ITERATIONS, 32, 'sha256', (e, k) =>
      e ? reject(e) : resolve(k),
    ),
  );

/**
 * Decrypts `encrypted_operation_key` from the real service's `GET /accounts/operation-key`:
 * a JSON string `{iv, salt?, ciphertext}` (base64), key = PBKDF2-HMAC-SHA256(trading password,
 * salt, 100000, 32), AES-256-GCM with the tag at the end of the ciphertext; without `salt`, an
 * all-zero salt of the iv's length. Returns the 64-byte operation signing key.
 */
export const decryptExchangeOperationKey = async (
  encryptedJson: string,
  tradingPassword: string,
): Promise<Buffer> => {
  let parsed: z.infer<typeof EncryptedOperationKey>;
  try {
    parsed = EncryptedOperationKey.parse(JSON.parse(encryptedJson));
  } catch {
    throw new AppError(
      ErrorCode.VaultCorrupted,
      "The exchange's encrypted operation key is not in the expected form. Nothing was changed; contact the exchange.",
    );
  }
  const iv = Buffer.from(parsed.iv, 'base64');
  const salt = parsed.salt ? Buffer.from(parsed.salt, 'base64') : Buffer.alloc(iv.length);
  const data = Buffer.from(parsed.ciphertext, 'base64');
  const key = await pbkdf2Key(tradingPassword, salt);
  let plain: Buffer;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(data.subarray(data.length - 16));
    plain = Buffer.concat([decipher.update(data.subarray(0, data.length - 16)), decipher.final()]);
  } catch {
    throw new AppError(
      ErrorCode.WrongPassword,
      'That trading password does not open the operation key stored at the exchange. Check it and try again.',
    );
  } finally {
    key.fill(0);
  }
  try {
    return operationKeyFromXprv(plain.toString('utf8'));
  } finally {
    plain.fill(0);
  }
};
