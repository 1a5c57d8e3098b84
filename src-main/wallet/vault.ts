import { createCipheriv, createDecipheriv, randomBytes, scrypt } from 'node:crypto';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';

/**
 * Password-encrypted secrets. A secret is sealed with AES-256-GCM under a key derived from the
 * spending password by scrypt, into a versioned JSON blob. The blob's header (format, version,
 * KDF parameters, and the label saying which secret it is) is authenticated as associated data:
 * changing any of it, or moving a blob to another entry, makes it fail to open.
 */
export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** Production cost: 128 MiB of memory per attempt, a few hundred milliseconds on a laptop. */
export const PRODUCTION_SCRYPT_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };

export const VAULT_FORMAT = 'countersign-vault';
export const VAULT_VERSION = 1;

const b64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/);

const VaultBlob = z.object({
  format: z.literal(VAULT_FORMAT),
  version: z.number().int(),
  label: z.string(),
  kdf: z.object({
    name: z.literal('scrypt'),
    N: z
      .number()
      .int()
      .min(2)
      .max(2 ** 22),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
    salt: b64,
  }),
  cipher: z.literal('aes-256-gcm'),
  iv: b64,
  data: b64,
});
type VaultBlob = z.infer<typeof VaultBlob>;

const TAG_BYTES = 16;

const deriveKey = (password: string, salt: Buffer, cost: ScryptCost): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    scrypt(
      password.normalize('NFKC'),
      salt,
      32,
      { N: cost.N, r: cost.r, p: cost.p, maxmem: 256 * cost.N * cost.r + 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    );
  });

const headerOf = (blob: Omit<VaultBlob, 'data'>): Buffer =>
  Buffer.from(
    JSON.stringify([blob.format, blob.version, blob.label, blob.kdf, blob.cipher, blob.iv]),
  );

export const sealSecret = async (
  secret: Uint8Array,
  password: string,
  label: string,
  cost: ScryptCost = PRODUCTION_SCRYPT_COST,
): Promise<string> => {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(password, salt, cost);
  try {
    const head: Omit<VaultBlob, 'data'> = {
      format: VAULT_FORMAT,
      version: VAULT_VERSION,
      label,
      kdf: { name: 'scrypt', ...cost, salt: salt.toString('base64') },
      cipher: 'aes-256-gcm',
      iv: iv.toString('base64'),
    };
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(headerOf(head));
    const data = Buffer.concat([cipher.update(secret), cipher.final(), cipher.getAuthTag()]);
    return JSON.stringify({ ...head, data: data.toString('base64') });
  } finally {
    key.fill(0);
  }
};

const corrupted = (what: string): AppError =>
  new AppError(
    ErrorCode.VaultCorrupted,
    `The stored ${what} cannot be read: it is damaged or was not written by Countersign. ` +
      'Nothing was changed. Restore the wallet from its recovery phrase if this persists.',
  );

/** What a blob says about itself, without the password: enough to reject foreign or damaged ones. */
export const readBlobHeader = (text: string, label: string, what: string): VaultBlob => {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw corrupted(what);
  }
  const parsed = VaultBlob.safeParse(json);
  if (!parsed.success) throw corrupted(what);
  const blob = parsed.data;
  if (blob.version !== VAULT_VERSION) {
    throw new AppError(
      ErrorCode.VaultCorrupted,
      `The stored ${what} was written by a newer version of Countersign (format ${blob.version}). ` +
        'Update Countersign; nothing was changed.',
    );
  }
  if (blob.label !== label) throw corrupted(what);
  if (Buffer.from(blob.data, 'base64').length < TAG_BYTES) throw corrupted(what);
  return blob;
};

/**
 * Opens a blob. A wrong password gives `WRONG_PASSWORD`; a blob that is not ours, or whose
 * header was changed, gives `VAULT_CORRUPTED`. The caller owns (and must wipe) the result.
 */
export const openSecret = async (
  text: string,
  password: string,
  label: string,
  what = 'key',
): Promise<Buffer> => {
  const blob = readBlobHeader(text, label, what);
  const { salt, name: _name, ...cost } = blob.kdf;
  const key = await deriveKey(password, Buffer.from(salt, 'base64'), cost);
  try {
    const data = Buffer.from(blob.data, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(blob.iv, 'base64'));
    decipher.setAAD(headerOf(blob));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    try {
      return Buffer.concat([
        decipher.update(data.subarray(0, data.length - TAG_BYTES)),
        decipher.final(),
      ]);
    } catch {
      throw new AppError(
        ErrorCode.WrongPassword,
        'That spending password is not right. Check the keyboard layout and Caps Lock, then try again.',
      );
    }
  } finally {
    key.fill(0);
  }
};
