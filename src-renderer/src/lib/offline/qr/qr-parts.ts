/**
 * A transaction file carried as QR codes between the online Countersign and the offline device
 * that holds the wallet key, for a computer with a camera instead of a USB stick.
 *
 * What travels is the file's content: the text envelope's type and its CBOR, nothing else. A
 * transaction of a few hundred bytes to a few kilobytes is split over several codes shown one
 * after another; a key witness (about 100 bytes) fits in one. Each code's text is
 *
 *     CS1:<TX|WIT>:<part>/<parts>:<checksum>:<HEX>
 *
 * all in the characters of a QR code's alphanumeric mode (upper-case hex, digits, ':' and '/'),
 * which packs 5.5 bits a character rather than 8. `checksum` is the CRC-32 of the whole hex, in
 * 8 hex digits: it tells the parts of one transaction from another's, and a wrong assembly from
 * a right one. Reassembled, the content is a text envelope again and goes through the very checks
 * a file does (main reads it as if it had been loaded from a file).
 */

/** The text envelope types that travel, by their short name in a code. */
const TYPES = {
  TX: { type: 'Tx ConwayEra', description: 'Ledger Cddl Format' },
  WIT: { type: 'TxWitness ConwayEra', description: 'Key Witness ShelleyEra' },
} as const;
export type QrKind = keyof typeof TYPES;

/** Hex characters a code carries: a QR code of version 13 or so, which a webcam reads at arm's length. */
export const HEX_PER_CODE = 400;

const PART = /^CS1:(TX|WIT):(\d{1,3})\/(\d{1,3}):([0-9A-F]{8}):((?:[0-9A-F]{2})+)$/;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (IEEE) of a string's character codes, as 8 upper-case hex digits. */
export const crc32 = (text: string): string => {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc = (CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] ?? 0) ^ (crc >>> 8);
  }
  return ((crc ^ 0xffffffff) >>> 0).toString(16).toUpperCase().padStart(8, '0');
};

/**
 * The codes that carry a text envelope (as the main process wrote it), in order; throws if the
 * text is not one of the types that travel.
 */
export const qrPartsOf = (envelope: string): string[] => {
  const parsed: unknown = JSON.parse(envelope);
  const { type, cborHex } = (parsed ?? {}) as { type?: unknown; cborHex?: unknown };
  const kind = (Object.keys(TYPES) as QrKind[]).find((k) => TYPES[k].type === type);
  if (!kind || typeof cborHex !== 'string' || !/^([0-9a-fA-F]{2})+$/.test(cborHex)) {
    throw new Error('Only a transaction or a key witness travels as QR codes.');
  }
  const hex = cborHex.toUpperCase();
  const checksum = crc32(hex);
  const count = Math.ceil(hex.length / HEX_PER_CODE);
  if (count > 999) throw new Error('This transaction is too large for QR codes: use a file.');
  return Array.from(
    { length: count },
    (_, k) =>
      `CS1:${kind}:${k + 1}/${count}:${checksum}:${hex.slice(k * HEX_PER_CODE, (k + 1) * HEX_PER_CODE)}`,
  );
};

/** Where a scan stands after a code was read. */
export type QrScan =
  | { state: 'reading'; kind: QrKind; read: number; parts: number }
  | { state: 'complete'; kind: QrKind; envelope: string }
  /** A code that is not one of ours, or not of a kind expected here: in words. */
  | { state: 'foreign'; message: string };

/**
 * Gathers the codes of one transaction as the camera reads them, in any order and any number of
 * times each, until all are there and their checksum holds. A code of another transaction starts
 * over with that one (the trader turned to another screen); a code that is not Countersign's, or
 * not of a kind `expected` here, is told in words and changes nothing.
 */
export class QrAssembler {
  #kind: QrKind | null = null;
  #checksum = '';
  #parts: (string | undefined)[] = [];
  #read = 0;
  #last: QrScan | null = null;

  constructor(
    private readonly expected: readonly QrKind[],
    /** What the trader should show the camera instead, for a foreign code. */
    private readonly advice: string,
  ) {}

  add(text: string): QrScan {
    const match = PART.exec(text.trim());
    if (!match) {
      return {
        state: 'foreign',
        message: `That QR code is not a Countersign transaction code. ${this.advice}`,
      };
    }
    const [, kindText, partText, countText, checksum, hex] = match as unknown as [
      string,
      QrKind,
      string,
      string,
      string,
      string,
    ];
    const kind = kindText;
    const part = Number(partText);
    const count = Number(countText);
    if (!this.expected.includes(kind)) {
      return {
        state: 'foreign',
        message: `That QR code carries ${kind === 'WIT' ? 'a signature' : 'a transaction'}, not what is needed here. ${this.advice}`,
      };
    }
    if (count < 1 || part < 1 || part > count) {
      return { state: 'foreign', message: `That QR code is damaged. ${this.advice}` };
    }
    if (
      this.#last?.state === 'complete' &&
      this.#checksum === checksum &&
      this.#kind === kind &&
      this.#parts.length === count
    ) {
      return this.#last;
    }
    if (this.#kind !== kind || this.#checksum !== checksum || this.#parts.length !== count) {
      this.#kind = kind;
      this.#checksum = checksum;
      this.#parts = Array.from({ length: count }, () => undefined);
      this.#read = 0;
    }
    if (this.#parts[part - 1] === undefined) {
      this.#parts[part - 1] = hex;
      this.#read++;
    }
    if (this.#read < count) {
      return (this.#last = { state: 'reading', kind, read: this.#read, parts: count });
    }
    const whole = this.#parts.join('');
    if (crc32(whole) !== checksum) {
      this.#kind = null;
      this.#parts = [];
      this.#read = 0;
      return (this.#last = {
        state: 'foreign',
        message: `The codes read do not add up to one transaction; scanning starts over. ${this.advice}`,
      });
    }
    const { type, description } = TYPES[kind];
    const envelope = `${JSON.stringify({ type, description, cborHex: whole.toLowerCase() }, null, 4)}\n`;
    return (this.#last = { state: 'complete', kind, envelope });
  }
}
