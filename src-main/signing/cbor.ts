/**
 * A strict, one-pass CBOR reader for transactions. It walks the structure, knows where every
 * item starts and ends in the original bytes, and refuses what could be read two ways: floats,
 * `undefined` and other simple values, chunked (indefinite-length) byte and text strings, an
 * indefinite map with a key and no value, and anything after the last item. Repeated map keys are
 * refused by the callers, which know the keys' meaning.
 *
 * It reads each item's head itself, with no token object per item: the order path runs this
 * once per order, mostly before the JIT has optimised it, and cborg's tokenizer (still the test
 * oracle for what a head means) cost most of a transaction's decoding time there.
 */
export class CborError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
    this.name = 'CborError';
  }
}

/** Major types as the first byte's top three bits. */
export const Major = {
  uint: 0,
  negint: 1,
  bytes: 2,
  text: 3,
  array: 4,
  map: 5,
  tag: 6,
  simple: 7,
} as const;

const BREAK = 0xff;

/** The name of an item's kind in messages, from its head. */
const kindOf = (major: number, minor: number): string => {
  if (major !== Major.simple) {
    return ['uint', 'negint', 'bytes', 'string', 'array', 'map', 'tag'][major] ?? 'unknown';
  }
  if (minor === 20) return 'false';
  if (minor === 21) return 'true';
  if (minor === 22) return 'null';
  if (minor === 23) return 'undefined';
  if (minor >= 25 && minor <= 27) return 'float';
  if (minor === 31) return 'break';
  return 'simple value';
};

/** The argument of an indefinite-length head (additional information 31). */
const INDEFINITE = -1;

export class CborReader {
  #pos = 0;
  /** The last head read: major type, additional information, argument, start. */
  #major = 0;
  #minor = 0;
  /** The argument as a number (INDEFINITE for 31); see `#big` past 2^53. */
  #arg = 0;
  /** The argument when it does not fit a JS number exactly, else null. */
  #big: bigint | null = null;
  #at = 0;

  constructor(readonly bytes: Uint8Array) {}

  /** Offset of the next item. */
  get pos(): number {
    return this.#pos;
  }

  get done(): boolean {
    return this.#pos >= this.bytes.length;
  }

  fail(message: string, at = this.#pos): never {
    throw new CborError(message, at);
  }

  /** Reads the next item's head, leaving the reader just after it. */
  #head(): void {
    const b = this.bytes;
    const at = this.#pos;
    if (at >= b.length) this.fail('the data ends too early');
    const first = b[at] as number;
    const minor = first & 31;
    let p = at + 1;
    let arg: number;
    this.#big = null;
    const major = first >> 5;
    if (minor < 24) arg = minor;
    else if (minor === 31) {
      // Only strings, arrays and maps have an indefinite length, and a break ends them.
      if (major < Major.bytes || major === Major.tag) {
        this.fail(
          `${kindOf(major, 0) === 'tag' ? 'a tag' : 'an integer'} of indefinite length`,
          at,
        );
      }
      arg = INDEFINITE;
    } else {
      if (minor > 27) this.fail(`a head with reserved additional information ${minor}`, at);
      const size = 1 << (minor - 24);
      if (p + size > b.length) this.fail('the data ends too early', at);
      if (size === 8) {
        const high =
          (b[p] as number) * 2 ** 24 +
          (((b[p + 1] as number) << 16) | ((b[p + 2] as number) << 8) | (b[p + 3] as number));
        const low =
          (b[p + 4] as number) * 2 ** 24 +
          (((b[p + 5] as number) << 16) | ((b[p + 6] as number) << 8) | (b[p + 7] as number));
        if (high < 0x200000) arg = high * 2 ** 32 + low;
        else {
          arg = Number.MAX_SAFE_INTEGER;
          this.#big = (BigInt(high) << 32n) | BigInt(low);
        }
      } else {
        arg = 0;
        for (let i = 0; i < size; i++) arg = arg * 256 + (b[p + i] as number);
      }
      p += size;
    }
    this.#major = major;
    this.#minor = minor;
    this.#arg = arg;
    this.#at = at;
    this.#pos = p;
  }

  /** The last head's argument as a bigint. */
  #value(): bigint {
    return this.#big ?? BigInt(this.#arg);
  }

  /** A definite length or count from the last head (none is longer than the data). */
  #length(what: string): number {
    if (this.#big !== null || this.#arg > this.bytes.length) {
      this.fail(`${what} longer than the data`, this.#at);
    }
    return this.#arg;
  }

  #expect(major: number, what: string): void {
    this.#head();
    if (this.#major !== major) {
      this.fail(`expected ${what}, found ${kindOf(this.#major, this.#minor)}`, this.#at);
    }
  }

  /** Major type of the next item (7 for simple values, floats and break). */
  peekMajor(): number {
    if (this.done) this.fail('the data ends too early');
    return (this.bytes[this.#pos] as number) >> 5;
  }

  /** The next byte is a break: the end of an indefinite-length array or map. */
  atBreak(): boolean {
    return this.bytes[this.#pos] === BREAK;
  }

  isNull(): boolean {
    return this.bytes[this.#pos] === 0xf6;
  }

  uint(): bigint {
    this.#expect(Major.uint, 'an unsigned integer');
    return this.#value();
  }

  /** A uint that fits a JS number (indexes, small enumerations). */
  small(limit = Number.MAX_SAFE_INTEGER): number {
    this.#expect(Major.uint, 'an unsigned integer');
    if (this.#big !== null || this.#arg > limit) {
      this.fail(`the number ${this.#value()} is too large here`, this.#at);
    }
    return this.#arg;
  }

  int(): bigint {
    this.#head();
    if (this.#major !== Major.uint && this.#major !== Major.negint) {
      this.fail(`expected an integer, found ${kindOf(this.#major, this.#minor)}`, this.#at);
    }
    return this.#major === Major.uint ? this.#value() : -1n - this.#value();
  }

  bytesValue(length?: number): Uint8Array {
    this.#expect(Major.bytes, 'a byte string');
    if (this.#arg === INDEFINITE) this.fail('a chunked byte string', this.#at);
    const n = this.#length('a byte string');
    if (length !== undefined && n !== length) {
      this.fail(`expected ${length} bytes, found ${n}`, this.#at);
    }
    const start = this.#pos;
    if (start + n > this.bytes.length) this.fail('the data ends too early', this.#at);
    this.#pos = start + n;
    return this.bytes.subarray(start, start + n);
  }

  hex(length?: number): string {
    return Buffer.from(this.bytesValue(length)).toString('hex');
  }

  bool(): boolean {
    this.#head();
    if (this.#major === Major.simple && this.#minor === 21) return true;
    if (this.#major === Major.simple && this.#minor === 20) return false;
    return this.fail(`expected true or false, found ${kindOf(this.#major, this.#minor)}`, this.#at);
  }

  null(): void {
    this.#head();
    if (this.#major !== Major.simple || this.#minor !== 22) {
      this.fail(`expected null, found ${kindOf(this.#major, this.#minor)}`, this.#at);
    }
  }

  /** Starts an array: its length, or null when indefinite (then read until `atBreak`). */
  array(): number | null {
    this.#expect(Major.array, 'an array');
    return this.#arg === INDEFINITE ? null : this.#length('an array');
  }

  map(): number | null {
    this.#expect(Major.map, 'a map');
    return this.#arg === INDEFINITE ? null : this.#length('a map');
  }

  tag(): number {
    this.#expect(Major.tag, 'a tag');
    return this.#big === null ? this.#arg : Number(this.#big);
  }

  /**
   * True while the container started with `length` has items left after `i` read. For an
   * indefinite container it consumes the closing break.
   */
  more(length: number | null, i: number): boolean {
    if (length !== null) return i < length;
    if (this.done) this.fail('the data ends too early');
    if (this.atBreak()) {
      this.#pos++;
      return false;
    }
    return true;
  }

  /**
   * Starts an array of exactly `length` items (definite or indefinite); pass the result to
   * `endTuple` after reading them.
   */
  tuple(length: number, what: string): boolean {
    const at = this.pos;
    const n = this.array();
    if (n !== null && n !== length) this.fail(`${what} has ${n} items instead of ${length}`, at);
    return n === null;
  }

  endTuple(indefinite: boolean, what: string): void {
    if (!indefinite) return;
    if (!this.atBreak()) this.fail(`${what} has too many items`);
    this.#pos++;
  }

  /** Skips one whole item, of any kind, checking it is well formed. */
  skip(): void {
    this.#head();
    const major = this.#major;
    const at = this.#at;
    if (major === Major.uint || major === Major.negint) {
      return;
    } else if (major === Major.bytes || major === Major.text) {
      if (this.#arg === INDEFINITE) this.fail(`a chunked ${kindOf(major, 0)}`, at);
      const n = this.#length(`a ${kindOf(major, 0)}`);
      if (this.#pos + n > this.bytes.length) this.fail('the data ends too early', at);
      this.#pos += n;
    } else if (major === Major.array || major === Major.map) {
      const per = major === Major.map ? 2 : 1;
      if (this.#arg === INDEFINITE) {
        for (let i = 0; this.more(null, i); i++) {
          this.skip();
          if (per === 2) {
            if (this.more(null, 1) === false) this.fail('a map key without its value', at);
            this.skip();
          }
        }
      } else {
        const items = this.#length(kindOf(major, 0)) * per;
        for (let i = 0; i < items; i++) this.skip();
      }
    } else if (major === Major.tag) {
      this.skip();
    } else {
      const minor = this.#minor;
      if (minor === 31) this.fail('unexpected break', at);
      if (minor >= 25 && minor <= 27) this.fail('unexpected floating-point number', at);
      if (minor < 20 || minor > 22) this.fail(`unexpected ${kindOf(major, minor)}`, at);
    }
  }

  /** The bytes of the next item, skipping it. */
  raw(): Uint8Array {
    const start = this.pos;
    this.skip();
    return this.bytes.subarray(start, this.pos);
  }

  /** Nothing may follow the last item. */
  end(): void {
    if (!this.done) this.fail('extra bytes after the end');
  }
}
