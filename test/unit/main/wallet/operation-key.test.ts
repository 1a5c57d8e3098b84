import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { bech32 } from '@scure/base';
import { createCipheriv, pbkdf2Sync, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  cryptoIsReady,
  decryptExchangeOperationKey,
  generateOperationKey,
  harden,
  operationKeyFromXprv,
  SigningKey,
} from '../../../../src-main/wallet';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
} from '../../../fixtures/cardano/wallet-services';

beforeAll(cryptoIsReady);

const hexOf = (bytes: Uint8Array) => HexBlob(Buffer.from(bytes).toString('hex'));

const newXprv = (): { xprv: string; expectedHash: string } => {
  const root = Crypto.Bip32PrivateKey.fromBip39Entropy(randomBytes(32), '');
  const child = root.derive([harden(1852), harden(1815), harden(0), 0, 0]);
  return {
    xprv: bech32.encode('xprv', bech32.toWords(root.bytes()), 1023),
    expectedHash: child.toRawKey().toPublic().hash().hex(),
  };
};

/** Encrypts like the real service (real-service.md): PBKDF2-SHA256 100000, AES-256-GCM. */
const exchangeBlob = (xprv: string, password: string, salted: boolean): string => {
  const iv = randomBytes(12);
  const salt = salted ? randomBytes(16) : Buffer.alloc(iv.length);
  const key = pbkdf2Sync(password, salt, 100_000, 32, 'sha256');
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(xprv, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return JSON.stringify({
    iv: iv.toString('base64'),
    ...(salted ? { salt: salt.toString('base64') } : {}),
    ciphertext: data.toString('base64'),
  });
};

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error('expected a failure');
};

describe('operation key', () => {
  it('is generated fresh each time as a 64-byte extended key', () => {
    const a = generateOperationKey();
    const b = generateOperationKey();
    expect(a).toHaveLength(64);
    expect(a.equals(b)).toBe(false);
  });

  it('comes out of an xprv root key at m/1852’/1815’/0’/0/0', () => {
    const { xprv, expectedHash } = newXprv();
    expect(new SigningKey(operationKeyFromXprv(xprv)).keyHash).toBe(expectedHash);
    expect(() => operationKeyFromXprv('xpub1qqqq')).toThrow(/not a key Countersign can use/);
  });

  it.each([
    ['salted', true],
    ['legacy unsalted', false],
  ])('decrypts the exchange’s %s blob with the trading password', async (_name, salted) => {
    const { xprv, expectedHash } = newXprv();
    const blob = exchangeBlob(xprv, 'trading pw', salted);
    const key = await decryptExchangeOperationKey(blob, 'trading pw');
    expect(new SigningKey(key).keyHash).toBe(expectedHash);
    expect(await codeOf(decryptExchangeOperationKey(blob, 'trading pv'))).toBe(
      ErrorCode.WrongPassword,
    );
    expect(await codeOf(decryptExchangeOperationKey('{"iv":1}', 'trading pw'))).toBe(
      ErrorCode.VaultCorrupted,
    );
  });

  it('replaces a wallet’s operation key only when the key hash matches', async () => {
    const world = await walletWorld();
    const wallet = await world.wallet.restore({
      name: 'Main',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    const { xprv, expectedHash } = newXprv();
    const blob = exchangeBlob(xprv, 'trading pw', true);
    const request = {
      walletId: wallet.id,
      encryptedOperationKey: blob,
      tradingPassword: 'trading pw',
      spendingPassword: STRONG_PASSWORD,
    };
    const before = await world.store.read(`wallet/${wallet.id}/operation-key`);
    await expect(
      world.wallet.importExchangeOperationKey({ ...request, operationKeyHash: 'ab'.repeat(28) }),
    ).rejects.toThrow(/does not match the key hash/);
    expect(
      await codeOf(
        world.wallet.importExchangeOperationKey({
          ...request,
          operationKeyHash: expectedHash,
          spendingPassword: 'not the spending password',
        }),
      ),
    ).toBe(ErrorCode.WrongPassword);
    expect(await world.store.read(`wallet/${wallet.id}/operation-key`)).toBe(before);

    const updated = await world.wallet.importExchangeOperationKey({
      ...request,
      operationKeyHash: expectedHash.toUpperCase(),
    });
    expect(updated.operationKeyHash).toBe(expectedHash);
    await world.session.unlock(STRONG_PASSWORD);
    expect(world.session.withOperationKey((k) => k.keyHash)).toBe(expectedHash);
    await world.cleanup();
  });
  it('counts a wrong trading password like a wrong spending password, in parallel too', async () => {
    const world = await walletWorld();
    const wallet = await world.wallet.restore({
      name: 'Main',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    const { xprv, expectedHash } = newXprv();
    const request = {
      walletId: wallet.id,
      encryptedOperationKey: exchangeBlob(xprv, 'trading pw', true),
      operationKeyHash: expectedHash,
      spendingPassword: STRONG_PASSWORD,
    };
    // Wrong spending passwords, then a right trading password with a wrong spending one: the
    // right trading password does not give the spent guesses back.
    for (let i = 0; i < 3; i++) {
      expect(await codeOf(world.session.unlock(`wrong ${i}`))).toBe(ErrorCode.WrongPassword);
    }
    expect(
      await codeOf(
        world.wallet.importExchangeOperationKey({
          ...request,
          tradingPassword: 'trading pw',
          spendingPassword: 'wrong spending',
        }),
      ),
    ).toBe(ErrorCode.WrongPassword);
    // Ten wrong trading passwords at once: the fifth guess is the last free one, the
    // other nine are refused.
    const codes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        codeOf(
          world.wallet.importExchangeOperationKey({ ...request, tradingPassword: `guess ${i}` }),
        ),
      ),
    );
    expect(codes.filter((c) => c === ErrorCode.WrongPassword)).toHaveLength(1);
    expect(codes.filter((c) => c === ErrorCode.TooManyAttempts)).toHaveLength(9);
    // And the spending password now waits too: the count is one, whatever was guessed.
    expect(await codeOf(world.session.unlock(STRONG_PASSWORD))).toBe(ErrorCode.TooManyAttempts);
    await world.cleanup();
  });
});

describe('signing key in memory', () => {
  it('signs exactly as the SDK’s extended Ed25519 does, and its signatures verify', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 0, maxLength: 64 }),
        (seed, message) => {
          // A BIP32-Ed25519 root key from any entropy, then a child: keys as wallets make them.
          const root = Crypto.Bip32PrivateKey.fromBip39Entropy(Buffer.from(seed), '');
          const child = root.derive([harden(1852), harden(1815), harden(0), 0, 0]);
          const raw = Buffer.from(child.toRawKey().bytes());
          const sdk = Crypto.Ed25519PrivateKey.fromExtendedBytes(raw);
          const ours = new SigningKey(Buffer.from(raw));
          const signature = ours.sign(message);
          expect(signature.toString('hex')).toBe(sdk.sign(hexOf(message)).hex());
          expect(
            sdk.toPublic().verify(Crypto.Ed25519Signature.fromBytes(signature), hexOf(message)),
          ).toBe(true);
        },
      ),
      { numRuns: 200, seed: 20261125 },
    );
  });

  it('zeroes its bytes when wiped and refuses to sign after', () => {
    const bytes = generateOperationKey();
    const key = new SigningKey(bytes);
    expect(key.sign(Buffer.alloc(32, 1))).toHaveLength(64);
    key.wipe();
    expect(bytes.every((b) => b === 0)).toBe(true);
    expect(() => key.sign(Buffer.alloc(32, 1))).toThrow(/wiped/);
  });
});
