import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';

/**
 * An Ed25519 extended signing key (64 bytes: scalar + nonce prefix) held in memory for as long as
 * it is needed. `wipe()` zeroes the bytes; a wiped key refuses to sign.
 */
export class SigningKey {
  readonly #bytes: Buffer;
  readonly #key: Crypto.Ed25519PrivateKey;
  readonly publicKey: Buffer;
  readonly keyHash: string;
  #wiped = false;

  /** Takes ownership of `extendedKey` (it is zeroed on wipe). */
  constructor(extendedKey: Buffer) {
    if (extendedKey.length !== 64) throw new Error('an extended Ed25519 key has 64 bytes');
    this.#bytes = extendedKey;
    this.#key = Crypto.Ed25519PrivateKey.fromExtendedBytes(this.#bytes);
    const pub = this.#key.toPublic();
    this.publicKey = Buffer.from(pub.bytes());
    this.keyHash = pub.hash().hex();
  }

  get wiped(): boolean {
    return this.#wiped;
  }

  /** Ed25519 signature (64 bytes) of `message` (here always a 32-byte transaction id). */
  sign(message: Uint8Array): Buffer {
    if (this.#wiped) throw new Error('this signing key was wiped');
    return Buffer.from(this.#key.sign(HexBlob(Buffer.from(message).toString('hex'))).bytes());
  }

  wipe(): void {
    this.#bytes.fill(0);
    this.#wiped = true;
  }
}
