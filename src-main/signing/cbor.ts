import { Tokenizer, Type, type Token } from 'cborg';

/**
 * A strict, one-pass CBOR reader for transactions: cborg's tokenizer reads each item's head
 * (well-kept, about 2 µs for a whole order transaction), and this reader walks the structure,
 * knows where every item starts and ends in the original bytes, and refuses what could be read
 * two ways: floats, `undefined`, chunked (indefinite-length) byte and text strings, and anything
 * after the last item. Repeated map keys are refused by the callers, which know the keys' meaning.
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

const OPTIONS = {
  allowIndefinite: true,
  allowUndefined: false,
  allowInfinity: false,
  allowNaN: false,
  allowBigInt: true,
  strict: false,
} as const;

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

export class CborReader {
  readonly #tokens: Tokenizer;

  constructor(readonly bytes: Uint8Array) {
    this.#tokens = new Tokenizer(bytes, OPTIONS);
  }

  /** Offset of the next item. */
  get pos(): number {
    return this.#tokens.pos();
  }

  get done(): boolean {
    return this.#tokens.done();
  }

  fail(message: string, at = this.pos): never {
    throw new CborError(message, at);
  }

  #next(): Token {
    if (this.#tokens.done()) this.fail('the data ends too early');
    try {
      return this.#tokens.next();
    } catch (error) {
      return this.fail(
        error instanceof Error
          ? error.message.replace(/^CBOR decode error: /, '')
          : 'unreadable CBOR',
      );
    }
  }

  /** Major type of the next item (7 for simple values, floats and break). */
  peekMajor(): number {
    if (this.done) this.fail('the data ends too early');
    return (this.bytes[this.pos] as number) >> 5;
  }

  /** The next byte is a break: the end of an indefinite-length array or map. */
  atBreak(): boolean {
    return !this.done && this.bytes[this.pos] === BREAK;
  }

  isNull(): boolean {
    return !this.done && this.bytes[this.pos] === 0xf6;
  }

  #expect(type: Type, what: string): Token {
    const at = this.pos;
    const token = this.#next();
    if (!Type.equals(token.type, type)) this.fail(`expected ${what}, found ${token.type.name}`, at);
    return token;
  }

  uint(): bigint {
    const value = this.#expect(Type.uint, 'an unsigned integer').value as number | bigint;
    return BigInt(value);
  }

  /** A uint that fits a JS number (indexes, small enumerations). */
  small(limit = Number.MAX_SAFE_INTEGER): number {
    const at = this.pos;
    const value = this.uint();
    if (value > BigInt(limit)) this.fail(`the number ${value} is too large here`, at);
    return Number(value);
  }

  int(): bigint {
    const at = this.pos;
    const token = this.#next();
    if (!Type.equals(token.type, Type.uint) && !Type.equals(token.type, Type.negint)) {
      this.fail(`expected an integer, found ${token.type.name}`, at);
    }
    return BigInt(token.value as number | bigint);
  }

  bytesValue(length?: number): Uint8Array {
    const at = this.pos;
    const value = this.#expect(Type.bytes, 'a byte string').value as Uint8Array;
    if (length !== undefined && value.length !== length) {
      this.fail(`expected ${length} bytes, found ${value.length}`, at);
    }
    return value;
  }

  hex(length?: number): string {
    return Buffer.from(this.bytesValue(length)).toString('hex');
  }

  bool(): boolean {
    const at = this.pos;
    const token = this.#next();
    if (Type.equals(token.type, Type.true)) return true;
    if (Type.equals(token.type, Type.false)) return false;
    return this.fail(`expected true or false, found ${token.type.name}`, at);
  }

  null(): void {
    this.#expect(Type.null, 'null');
  }

  /** Starts an array: its length, or null when indefinite (then read until `atBreak`). */
  array(): number | null {
    const value = this.#expect(Type.array, 'an array').value as number;
    return value === Infinity ? null : value;
  }

  map(): number | null {
    const value = this.#expect(Type.map, 'a map').value as number;
    return value === Infinity ? null : value;
  }

  tag(): number {
    const value = this.#expect(Type.tag, 'a tag').value as number | bigint;
    return Number(value);
  }

  /**
   * True while the container started with `length` has items left after `i` read. For an
   * indefinite container it consumes the closing break.
   */
  more(length: number | null, i: number): boolean {
    if (length !== null) return i < length;
    if (this.atBreak()) {
      this.#next();
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
    this.#next();
  }

  /** Skips one whole item, of any kind, checking it is well formed. */
  skip(): void {
    const at = this.pos;
    const token = this.#next();
    const type = token.type;
    if (Type.equals(type, Type.array) || Type.equals(type, Type.map)) {
      const per = Type.equals(type, Type.map) ? 2 : 1;
      const length = token.value as number;
      for (let i = 0; this.more(length === Infinity ? null : length * per, i); i++) this.skip();
    } else if (Type.equals(type, Type.tag)) {
      this.skip();
    } else if (Type.equals(type, Type.break)) {
      this.fail('unexpected break', at);
    } else if (Type.equals(type, Type.float)) {
      this.fail('unexpected floating-point number', at);
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
