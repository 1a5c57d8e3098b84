import { bech32 } from '@scure/base';

/**
 * Cardano addresses read from their bytes (CIP-19): who can spend what is paid there (the payment
 * credential), whose stake it counts towards, and which network it is for.
 */
export interface Credential {
  type: 'key' | 'script';
  hash: string;
}

export interface ReadAddress {
  /** bech32 (`addr…`, `stake…`), or `byron:<hex>` for a Byron address. */
  text: string;
  hex: string;
  kind: 'base' | 'pointer' | 'enterprise' | 'reward' | 'byron';
  networkId: number | null;
  /** Who can spend what is paid here; for a reward address, its stake credential. */
  payment: Credential | null;
  /** Whose stake it counts towards (base addresses); null for the others. */
  stake: Credential | null;
}

const KINDS: Record<number, ReadAddress['kind']> = {
  0: 'base',
  1: 'base',
  2: 'base',
  3: 'base',
  4: 'pointer',
  5: 'pointer',
  6: 'enterprise',
  7: 'enterprise',
  8: 'byron',
  14: 'reward',
  15: 'reward',
};

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** Reads a pointer's three variable-length naturals; returns the offset after them, or -1. */
const pointerEnd = (bytes: Uint8Array, from: number): number => {
  let at = from;
  for (let n = 0; n < 3; n++) {
    let more = true;
    let length = 0;
    while (more) {
      if (at >= bytes.length || length >= 9) return -1;
      more = ((bytes[at] as number) & 0x80) !== 0;
      at++;
      length++;
    }
  }
  return at;
};

/**
 * Addresses already read, by their hex and by their text. The same few (the exchange's, the
 * wallet's) recur in every transaction, and their bech32 text costs more than the rest of a
 * body's reading. Frozen: a reading is shared, never changed.
 */
const MEMO_SIZE = 512;
const byHex = new Map<string, ReadAddress | null>();
const byText = new Map<string, ReadAddress | null>();
const remember = <K>(memo: Map<K, ReadAddress | null>, key: K, value: ReadAddress | null) => {
  if (memo.size >= MEMO_SIZE) memo.clear();
  memo.set(key, value);
  return value;
};

/** Reads an address from its bytes, or returns null when they are not a well-formed address. */
export const readAddressBytes = (bytes: Uint8Array): ReadAddress | null => {
  const key = hex(bytes);
  const known = byHex.get(key);
  if (known !== undefined || byHex.has(key)) return known ?? null;
  return remember(byHex, key, freeze(readFresh(bytes)));
};

const freeze = (read: ReadAddress | null): ReadAddress | null => {
  if (!read) return null;
  if (read.payment) Object.freeze(read.payment);
  if (read.stake) Object.freeze(read.stake);
  return Object.freeze(read);
};

const readFresh = (bytes: Uint8Array): ReadAddress | null => {
  if (bytes.length === 0) return null;
  const header = bytes[0] as number;
  const type = header >> 4;
  const kind = KINDS[type];
  if (!kind) return null;
  const networkId = header & 0x0f;
  const hexText = hex(bytes);
  if (kind === 'byron') {
    return {
      text: `byron:${hexText}`,
      hex: hexText,
      kind,
      networkId: null,
      payment: null,
      stake: null,
    };
  }
  const first: Credential = { type: type & 1 ? 'script' : 'key', hash: hex(bytes.subarray(1, 29)) };
  let stake: Credential | null = null;
  if (kind === 'base') {
    if (bytes.length !== 57) return null;
    stake = { type: type & 2 ? 'script' : 'key', hash: hex(bytes.subarray(29, 57)) };
  } else if (kind === 'pointer') {
    if (pointerEnd(bytes, 29) !== bytes.length) return null;
  } else if (bytes.length !== 29) {
    return null;
  }
  if (networkId > 1) return null;
  const prefix =
    kind === 'reward'
      ? networkId === 1
        ? 'stake'
        : 'stake_test'
      : networkId === 1
        ? 'addr'
        : 'addr_test';
  return {
    text: bech32.encode(prefix, bech32.toWords(bytes), 1023),
    hex: hexText,
    kind,
    networkId,
    payment: first,
    stake,
  };
};

/** The bytes of a bech32 address, or null when it is not one. */
export const addressBytesOf = (text: string): Uint8Array | null => {
  try {
    const { words } = bech32.decode(text.toLowerCase() as `${string}1${string}`, 1023);
    return bech32.fromWords(words);
  } catch {
    return null;
  }
};

export const readAddress = (text: string): ReadAddress | null => {
  const known = byText.get(text);
  if (known !== undefined || byText.has(text)) return known ?? null;
  const bytes = addressBytesOf(text);
  return remember(byText, text, bytes ? readAddressBytes(bytes) : null);
};
