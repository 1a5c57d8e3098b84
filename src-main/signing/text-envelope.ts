import { z } from 'zod';
import { MAX_TRANSACTION_FILE_CHARS as MAX_ENVELOPE_CHARS } from '../../src-shared/contract/operations';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { CborError, CborReader } from './cbor';
import {
  existingVkeyWitnesses,
  splitTransaction,
  type TransactionBytes,
  type VkeyWitness,
} from './transaction-bytes';

/**
 * cardano-cli's text envelope, the file a transaction travels in between the computer that talks
 * to the exchange and the offline device that holds the wallet key: JSON `{type, description,
 * cborHex}`. Countersign writes a transaction as cardano-cli does today (`Tx ConwayEra`) and reads
 * back either the transaction with its signature or the signature alone (a key witness), so the
 * device on the other side can be Countersign or cardano-cli.
 */
export const TRANSACTION_TYPE = 'Tx ConwayEra';
/** Every type cardano-cli wrote for a transaction over the years; all are read. */
export const TRANSACTION_TYPES: readonly string[] = [
  TRANSACTION_TYPE,
  'Witnessed Tx ConwayEra',
  'Unwitnessed Tx ConwayEra',
];
export const WITNESS_TYPE = 'TxWitness ConwayEra';

const Envelope = z.object({
  type: z.string().max(200),
  description: z.string().max(10_000).optional(),
  cborHex: z.string().max(MAX_ENVELOPE_CHARS),
});

/** A transaction as a text envelope file (the key order and indentation cardano-cli writes). */
export const transactionEnvelope = (txHex: string): string =>
  `${JSON.stringify({ type: TRANSACTION_TYPE, description: 'Ledger Cddl Format', cborHex: txHex }, null, 4)}\n`;

/** A key witness as a text envelope file: CBOR `[0, [vkey, signature]]`. */
export const witnessEnvelope = (witness: VkeyWitness): string => {
  const bytes = Buffer.concat([
    Buffer.from([0x82, 0x00, 0x82, 0x58, 0x20]),
    witness.vkey,
    Buffer.from([0x58, 0x40]),
    witness.signature,
  ]);
  return `${JSON.stringify({ type: WITNESS_TYPE, description: 'Key Witness ShelleyEra', cborHex: bytes.toString('hex') }, null, 4)}\n`;
};

/**
 * How the text envelope travelled: as a file, or as the QR codes of one (the renderer reads the
 * codes and puts the envelope together again). Only the words said to the trader differ.
 */
export type Medium = 'file' | 'qr';

/** What a file (or QR code) from the offline device holds. */
export type SignedFile = { medium: Medium } & (
  | { kind: 'transaction'; tx: TransactionBytes; witnesses: VkeyWitness[] }
  | { kind: 'witness'; witnesses: VkeyWitness[] }
);

/** The words for what the signature came in, for the trader. */
export const MEDIUM_WORDS: Readonly<Record<Medium, { this: string; the: string; again: string }>> =
  {
    file: {
      this: 'This file',
      the: 'the file',
      again: 'Choose the file your offline device wrote after signing',
    },
    qr: {
      this: 'This QR code',
      the: 'the QR code',
      again: 'Scan the QR code your offline device shows after signing',
    },
  };

const unusable = (why: string, medium: Medium = 'file'): AppError =>
  new AppError(
    ErrorCode.SignedFile,
    `${MEDIUM_WORDS[medium].this} cannot be used: ${why}. ${MEDIUM_WORDS[medium].again}: a transaction (“Tx ConwayEra”) or a key witness (“TxWitness ConwayEra”) in cardano-cli’s text envelope.`,
  );

/**
 * Reads a text envelope; refuses anything else, in words: `refuse` turns the reason into the
 * error (the side reading it knows what the trader should choose instead).
 */
export const readEnvelope = (
  text: string,
  refuse: (why: string) => AppError = unusable,
): z.infer<typeof Envelope> => {
  if (text.length > MAX_ENVELOPE_CHARS) throw refuse('it is far larger than any transaction');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw refuse('it is not a text envelope (JSON)');
  }
  const parsed = Envelope.safeParse(json);
  if (!parsed.success)
    throw refuse('it is JSON, but not a text envelope with “type” and “cborHex”');
  if (!/^([0-9a-fA-F]{2})+$/.test(parsed.data.cborHex)) {
    throw refuse('its “cborHex” is not hex-encoded bytes');
  }
  return parsed.data;
};

/** A key witness `[0, [vkey, signature]]`; a bootstrap (Byron) witness is refused. */
const readKeyWitness = (hex: string, medium: Medium): VkeyWitness => {
  const unusableHere = (why: string) => unusable(why, medium);
  const r = new CborReader(Buffer.from(hex, 'hex'));
  try {
    const indefinite = r.tuple(2, 'a key witness');
    const tag = r.small(255);
    if (tag === 1) {
      throw unusableHere(
        'it holds a Byron-era (bootstrap) witness, and Countersign wallets sign with Shelley keys',
      );
    }
    if (tag !== 0) throw unusableHere('it is not a key witness');
    const inner = r.tuple(2, 'a vkey witness');
    const vkey = r.bytesValue();
    const signature = r.bytesValue();
    r.endTuple(inner, 'a vkey witness');
    r.endTuple(indefinite, 'a key witness');
    r.end();
    if (vkey.length !== 32 || signature.length !== 64) {
      throw unusableHere('its key or signature has the wrong length for an Ed25519 signature');
    }
    return { vkey, signature };
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof CborError) throw unusableHere('its witness is not readable CBOR');
    throw error;
  }
};

/** The transaction or the witness the offline device wrote, read from its file. */
export const readSignedFile = (text: string, medium: Medium = 'file'): SignedFile => {
  const refuse = (why: string) => unusable(why, medium);
  const envelope = readEnvelope(text.trim(), refuse);
  if (envelope.type === WITNESS_TYPE) {
    return { medium, kind: 'witness', witnesses: [readKeyWitness(envelope.cborHex, medium)] };
  }
  if (!TRANSACTION_TYPES.includes(envelope.type)) {
    throw refuse(`it holds a “${envelope.type.slice(0, 60)}”, not a transaction or a witness`);
  }
  let tx: TransactionBytes;
  let witnesses: VkeyWitness[];
  try {
    tx = splitTransaction(envelope.cborHex.toLowerCase());
    witnesses = existingVkeyWitnesses(tx.witnessSet);
  } catch {
    throw refuse('its transaction is not readable CBOR');
  }
  if (witnesses.length === 0) {
    throw refuse(
      `it holds the transaction without any signature (as ${medium === 'qr' ? 'shown' : 'saved'} here, not yet signed)`,
    );
  }
  return { medium, kind: 'transaction', tx, witnesses };
};
