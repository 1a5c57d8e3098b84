import { createHash } from 'node:crypto';
import * as Crypto from '@cardano-sdk/crypto';
import sodium from 'libsodium-wrappers-sumo';

/**
 * An Ed25519 extended signing key (64 bytes: scalar + nonce prefix) held in memory for as long as
 * it is needed. `wipe()` zeroes the bytes; a wiped key refuses to sign.
 *
 * Signing is the SDK's extended-key Ed25519 (the same libsodium primitives, the same bytes out),
 * except that the public key is computed once here rather than again for every signature: that
 * second scalar multiplication was half the cost of signing each order. Its two SHA-512 hashes
 * are Node's own: the same digests, without a trip through the WebAssembly glue each.
 */
export class SigningKey {
  readonly #bytes: Buffer;
  readonly publicKey: Buffer;
  readonly keyHash: string;
  #wiped = false;

  /** Takes ownership of `extendedKey` (it is zeroed on wipe). Needs `cryptoIsReady()` first. */
  constructor(extendedKey: Buffer) {
    if (extendedKey.length !== 64) throw new Error('an extended Ed25519 key has 64 bytes');
    this.#bytes = extendedKey;
    const pub = Crypto.Ed25519PrivateKey.fromExtendedBytes(this.#bytes).toPublic();
    this.publicKey = Buffer.from(pub.bytes());
    this.keyHash = pub.hash().hex();
  }

  get wiped(): boolean {
    return this.#wiped;
  }

  /** Ed25519 signature (64 bytes) of `message` (here always a 32-byte transaction id). */
  sign(message: Uint8Array): Buffer {
    if (this.#wiped) throw new Error('this signing key was wiped');
    const scalar = this.#bytes.subarray(0, 32);
    const digest = createHash('sha512')
      .update(this.#bytes.subarray(32, 64))
      .update(message)
      .digest();
    const nonce = sodium.crypto_core_ed25519_scalar_reduce(digest);
    try {
      const r = sodium.crypto_scalarmult_ed25519_base_noclamp(nonce);
      const hram = sodium.crypto_core_ed25519_scalar_reduce(
        createHash('sha512').update(r).update(this.publicKey).update(message).digest(),
      );
      const s = sodium.crypto_core_ed25519_scalar_add(
        sodium.crypto_core_ed25519_scalar_mul(hram, scalar),
        nonce,
      );
      return Buffer.concat([r, s]);
    } finally {
      // The nonce and what it came from are as secret as the key.
      digest.fill(0);
      nonce.fill(0);
    }
  }

  wipe(): void {
    this.#bytes.fill(0);
    this.#wiped = true;
  }
}
