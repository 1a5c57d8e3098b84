import { LOVELACE } from '../../src-shared/assets';
import { smallestUnitText } from '../../src-shared/money';
import { readAddress, readAddressBytes, type ReadAddress } from './address';
import { CborError, Major, type CborReader } from './cbor';
import { readPlutusData, readPlutusDataAt, type PlutusData } from './plutus-data';
import {
  blake2b256,
  readVkeyWitnesses,
  invalidTransaction,
  splitTransaction,
  transactionIdOf,
  type TransactionBytes,
  type VkeyWitness,
} from './transaction-bytes';

/**
 * Reads a transaction once, strictly, for display and for the intent checks: who gets what (our
 * own address, another address of our keys, the exchange's, or a stranger's; multi-asset values
 * in human units), what is spent, fee, validity, required signers, network, metadata, mint,
 * redeemers, the witnesses already there, and every structure an exchange operation might not
 * need. A repeated map key, a field the Conway ledger does not have, or bytes after the
 * transaction make it unreadable: the ledger and this reader must never see two different
 * transactions in the same bytes.
 */

/** Quantities in smallest units by unit: `lovelace`, or policy id + asset name (hex). */
export type Amounts = ReadonlyMap<string, bigint>;

export interface AssetInfo {
  /** What the trader calls it: ADA, USDM. */
  name: string;
  decimals: number;
}

/**
 * Whose an address is. `own` is exactly the wallet's base address, the only place our money may
 * go; `own-other` is any other address payable to one of our keys (enterprise, pointer, reward,
 * a base address with another stake part): ours to spend, yet invisible in the balance.
 */
export type Party =
  | 'own'
  | 'own-other'
  | 'exchange-intent'
  | 'exchange-deposit'
  | 'exchange-treasury'
  | 'exchange-account'
  | 'foreign';

export interface ExchangeAddresses {
  /** The user-intent address, where orders, cancels and withdrawals leave their intent. */
  intent?: string | undefined;
  deposit?: string | undefined;
  treasury?: string | undefined;
  /** The trader's own account at the exchange (where the free balance lives). */
  account?: string | undefined;
}

export interface OwnWallet {
  /** The wallet's base address on this network (bech32): exactly "our address". */
  addresses: readonly string[];
  paymentKeyHash?: string | undefined;
  stakeKeyHash?: string | undefined;
  /** Further keys of this wallet (its operation key): what pays to them is ours too. */
  otherKeyHashes?: readonly string[] | undefined;
}

export interface KnownOutput {
  address: string;
  amounts: Amounts;
}

export interface DecodeContext {
  networkId: 0 | 1;
  own: OwnWallet;
  exchange?: ExchangeAddresses;
  /** Outputs the wallet knows, by `txId#index` (its own UTxOs, the order being cancelled…). */
  knownOutputs?: ReadonlyMap<string, KnownOutput>;
  /** Outputs the chain was asked about and does not know: no coin on L1, so none of ours. */
  absentOutputs?: ReadonlySet<string>;
  assets?: ReadonlyMap<string, AssetInfo>;
}

export interface DisplayAmount {
  unit: string;
  /** ADA, USDM, or `policy.assetname` when unknown. */
  name: string;
  /** Smallest units, as an integer string. */
  quantity: string;
  /** Human units when the decimals are known, else the smallest-unit quantity. */
  amount: string;
}

export interface DecodedInput {
  id: string;
  known: (KnownOutput & { party: Party; display: DisplayAmount[] }) | null;
  /** The chain was asked and knows no such output: it is not a coin on L1. */
  absent: boolean;
}

export interface DecodedOutput {
  index: number;
  /** bech32 (or `byron:<hex>`). */
  address: string;
  party: Party;
  networkId: number | null;
  amounts: Amounts;
  display: DisplayAmount[];
  datum: 'none' | 'inline' | 'hash';
  /** The inline datum, for checks that read it (an order's terms); null if none or unreadable. */
  inlineDatum: PlutusData | null;
  /** Why an inline datum could not be read as Plutus data. */
  datumProblem: string | null;
  hasScriptRef: boolean;
}

export type RedeemerTag = 'spend' | 'mint' | 'certify' | 'reward' | 'vote' | 'propose';

export interface Redeemer {
  tag: RedeemerTag;
  index: number;
  data: PlutusData;
}

/** How many items a structure carries: null when absent (0 when present but empty). */
export type Count = number | null;

export interface TransactionFlags {
  mint: Count;
  certificates: Count;
  withdrawals: Count;
  votes: Count;
  proposals: Count;
  collateral: Count;
  /** Scripts in the witness set (native or Plutus). */
  scripts: Count;
  /** Datums in the witness set. */
  datums: Count;
  bootstrapWitnesses: Count;
  /** A current treasury value or a donation field. */
  treasury: Count;
  scriptDataHash: boolean;
  /** is_valid false: a transaction meant to fail its scripts and forfeit its collateral. */
  invalid: boolean;
  /** Metadata without its hash in the body, or a hash that does not match it. */
  metadataMismatch: boolean;
}

export interface DecodedTransaction {
  id: string;
  bytes: TransactionBytes;
  /** The body's network id field, when present. */
  networkId: number | null;
  inputs: DecodedInput[];
  referenceInputs: string[];
  collateralInputs: string[];
  outputs: DecodedOutput[];
  fee: bigint;
  validFromSlot: number | null;
  validUntilSlot: number | null;
  requiredSigners: string[];
  /** The wallet's payment key hash (from the context), to tell its signature from others. */
  ownPaymentKeyHash: string | null;
  ownStakeKeyHash: string | null;
  metadata: boolean;
  mint: Amounts;
  redeemers: Redeemer[];
  /** Vkey witnesses already in the transaction. */
  witnesses: VkeyWitness[];
  flags: TransactionFlags;
}

export { LOVELACE };
const ADA: AssetInfo = { name: 'ADA', decimals: 6 };

/**
 * An asset the wallet does not know, named as cardano-cli writes it: its policy id, then a dot and
 * its name (unprintable characters as `?`) when it has one.
 */
const unknownAssetName = (unit: string): string => {
  const policy = unit.slice(0, 56);
  if (unit.length === 56) return policy;
  const name = Buffer.from(unit.slice(56), 'hex')
    .toString('utf8')
    .replace(/[^\x20-\x7e]/g, '?');
  return `${policy}.${name}`;
};

export const displayAmounts = (
  amounts: Amounts,
  assets?: ReadonlyMap<string, AssetInfo>,
): DisplayAmount[] =>
  [...amounts]
    .filter(([unit, quantity]) => quantity !== 0n || unit === LOVELACE)
    .map(([unit, quantity]) => {
      const info = unit === LOVELACE ? ADA : assets?.get(unit);
      const name = info?.name ?? unknownAssetName(unit);
      return {
        unit,
        name,
        quantity: quantity.toString(),
        amount: info ? smallestUnitText(quantity, info.decimals) : quantity.toString(),
      };
    });

/** Whose an address is, for this wallet and exchange. */
export const partyOfAddress = (address: ReadAddress, context: DecodeContext): Party => {
  const exchange = context.exchange ?? {};
  const text = address.text;
  if (exchange.intent === text) return 'exchange-intent';
  if (exchange.deposit === text) return 'exchange-deposit';
  if (exchange.treasury === text) return 'exchange-treasury';
  if (exchange.account === text) return 'exchange-account';
  const own = context.own;
  if (own.addresses.includes(text)) return 'own';
  const ours = [own.paymentKeyHash, own.stakeKeyHash, ...(own.otherKeyHashes ?? [])];
  const payment = address.payment;
  if (payment?.type === 'key' && ours.includes(payment.hash)) return 'own-other';
  return 'foreign';
};

export const partyOf = (address: string, context: DecodeContext): Party => {
  const read = readAddress(address);
  return read ? partyOfAddress(read, context) : 'foreign';
};

// ---- reading the body ----

const fail = (r: CborReader, message: string, at?: number): never => r.fail(message, at);

/** A set: optionally tagged 258, then an array; repeated elements are refused. */
const readSet = <T>(r: CborReader, what: string, item: () => T, key: (t: T) => string): T[] => {
  if (r.peekMajor() === Major.tag && r.tag() !== 258) fail(r, `${what} has an unexpected tag`);
  const items: T[] = [];
  const seen = new Set<string>();
  const length = r.array();
  for (let i = 0; r.more(length, i); i++) {
    const at = r.pos;
    const value = item();
    const k = key(value);
    if (seen.has(k)) fail(r, `${what} lists ${k} twice`, at);
    seen.add(k);
    items.push(value);
  }
  return items;
};

const readInput = (r: CborReader): string => {
  const indefinite = r.tuple(2, 'an input');
  const id = `${r.hex(32)}#${r.small(2 ** 16)}`;
  r.endTuple(indefinite, 'an input');
  return id;
};

const readInputs = (r: CborReader, what: string): string[] =>
  readSet(
    r,
    what,
    () => readInput(r),
    (id) => id,
  );

/** A multi-asset map `{policy: {name: quantity}}`, `nonZero` for mints (signed). */
const readMultiAsset = (
  r: CborReader,
  into: Map<string, bigint>,
  what: string,
  signed: boolean,
): void => {
  const policies = r.map();
  const seen = new Set<string>();
  for (let i = 0; r.more(policies, i); i++) {
    const at = r.pos;
    const policy = r.hex(28);
    if (seen.has(policy)) fail(r, `${what} names policy ${policy} twice`, at);
    seen.add(policy);
    const names = r.map();
    for (let j = 0; r.more(names, j); j++) {
      const nameAt = r.pos;
      const name = r.bytesValue();
      if (name.length > 32) fail(r, `${what} has an asset name longer than 32 bytes`, nameAt);
      const unit = policy + Buffer.from(name).toString('hex');
      if (into.has(unit)) fail(r, `${what} names asset ${unit} twice`, nameAt);
      const quantity = signed ? r.int() : r.uint();
      if (quantity === 0n) fail(r, `${what} lists asset ${unit} with quantity 0`, nameAt);
      into.set(unit, quantity);
    }
    if (names === 0) fail(r, `${what} has a policy without assets`, at);
  }
};

const readValue = (r: CborReader, what: string): Map<string, bigint> => {
  const amounts = new Map<string, bigint>();
  if (r.peekMajor() === Major.uint) {
    amounts.set(LOVELACE, r.uint());
    return amounts;
  }
  const indefinite = r.tuple(2, what);
  amounts.set(LOVELACE, r.uint());
  readMultiAsset(r, amounts, what, false);
  r.endTuple(indefinite, what);
  return amounts;
};

interface RawOutput {
  address: ReadAddress;
  amounts: Map<string, bigint>;
  datum: 'none' | 'inline' | 'hash';
  inlineDatum: PlutusData | null;
  datumProblem: string | null;
  hasScriptRef: boolean;
}

const readAddressField = (r: CborReader, what: string): ReadAddress => {
  const at = r.pos;
  return readAddressBytes(r.bytesValue()) ?? fail(r, `${what} has an unreadable address`, at);
};

const readInlineDatum = (
  r: CborReader,
  what: string,
): Pick<RawOutput, 'inlineDatum' | 'datumProblem'> => {
  const at = r.pos;
  if (r.tag() !== 24) fail(r, `${what}'s inline datum is not tagged as CBOR`, at);
  const bytes = r.bytesValue();
  try {
    return { inlineDatum: readPlutusData(bytes), datumProblem: null };
  } catch (error) {
    if (error instanceof CborError) return { inlineDatum: null, datumProblem: error.message };
    throw error;
  }
};

const readOutput = (r: CborReader, index: number): RawOutput => {
  const what = `output ${index}`;
  if (r.peekMajor() === Major.array) {
    const length = r.array();
    if (length !== null && length !== 2 && length !== 3) fail(r, `${what} has ${length} parts`);
    const address = readAddressField(r, what);
    const amounts = readValue(r, `${what}'s value`);
    let datum: RawOutput['datum'] = 'none';
    if (length === 3 || (length === null && !r.atBreak())) {
      r.hex(32);
      datum = 'hash';
    }
    if (length === null && !r.atBreak()) fail(r, `${what} has too many parts`);
    r.more(length, length ?? 0);
    return { address, amounts, datum, inlineDatum: null, datumProblem: null, hasScriptRef: false };
  }
  const length = r.map();
  const seen = new Set<number>();
  let address: ReadAddress | null = null;
  let amounts: Map<string, bigint> | null = null;
  let datum: RawOutput['datum'] = 'none';
  let inline: Pick<RawOutput, 'inlineDatum' | 'datumProblem'> = {
    inlineDatum: null,
    datumProblem: null,
  };
  let hasScriptRef = false;
  for (let i = 0; r.more(length, i); i++) {
    const at = r.pos;
    const key = r.small(255);
    if (seen.has(key)) fail(r, `${what} repeats its field ${key}`, at);
    seen.add(key);
    if (key === 0) address = readAddressField(r, what);
    else if (key === 1) amounts = readValue(r, `${what}'s value`);
    else if (key === 2) {
      const indefinite = r.tuple(2, `${what}'s datum`);
      const kind = r.small(1);
      if (kind === 0) {
        r.hex(32);
        datum = 'hash';
      } else {
        inline = readInlineDatum(r, what);
        datum = 'inline';
      }
      r.endTuple(indefinite, `${what}'s datum`);
    } else if (key === 3) {
      if (r.tag() !== 24) fail(r, `${what}'s script reference is not tagged as CBOR`, at);
      r.bytesValue();
      hasScriptRef = true;
    } else fail(r, `${what} has a field (${key}) outputs do not have`, at);
  }
  if (!address || !amounts) return fail(r, `${what} lacks its address or its value`);
  return { address, amounts, datum, ...inline, hasScriptRef };
};

const REDEEMER_TAGS: readonly RedeemerTag[] = [
  'spend',
  'mint',
  'certify',
  'reward',
  'vote',
  'propose',
];

const readExUnits = (r: CborReader): void => {
  const indefinite = r.tuple(2, 'execution units');
  r.uint();
  r.uint();
  r.endTuple(indefinite, 'execution units');
};

/** Redeemers in either Conway form: `[[tag, index, data, ex]]` or `{[tag, index]: [data, ex]}`. */
const readRedeemers = (r: CborReader): Redeemer[] => {
  const redeemers: Redeemer[] = [];
  const seen = new Set<string>();
  const add = (tag: number, index: number, data: PlutusData, at: number) => {
    const name = REDEEMER_TAGS[tag] ?? fail(r, `a redeemer has an unknown purpose (${tag})`, at);
    if (seen.has(`${tag}/${index}`)) fail(r, `two redeemers are for the same ${name} ${index}`, at);
    seen.add(`${tag}/${index}`);
    redeemers.push({ tag: name, index, data });
  };
  if (r.peekMajor() === Major.map) {
    const length = r.map();
    for (let i = 0; r.more(length, i); i++) {
      const at = r.pos;
      const k = r.tuple(2, 'a redeemer key');
      const tag = r.small(255);
      const index = r.small(2 ** 32);
      r.endTuple(k, 'a redeemer key');
      const v = r.tuple(2, 'a redeemer');
      const data = readPlutusDataAt(r);
      readExUnits(r);
      r.endTuple(v, 'a redeemer');
      add(tag, index, data, at);
    }
    return redeemers;
  }
  const length = r.array();
  for (let i = 0; r.more(length, i); i++) {
    const at = r.pos;
    const t = r.tuple(4, 'a redeemer');
    const tag = r.small(255);
    const index = r.small(2 ** 32);
    const data = readPlutusDataAt(r);
    readExUnits(r);
    r.endTuple(t, 'a redeemer');
    add(tag, index, data, at);
  }
  return redeemers;
};

interface WitnessContents {
  redeemers: Redeemer[];
  scripts: Count;
  datums: Count;
  bootstrap: Count;
  vkeys: VkeyWitness[];
}

/** A container's item count without reading the items (they are skipped). */
const countItems = (r: CborReader): number => {
  if (r.peekMajor() === Major.tag) r.tag();
  const length = r.array();
  let n = 0;
  for (; r.more(length, n); n++) r.skip();
  return n;
};

/** Reads the witness set where the reader stands (its vkey witnesses among the rest). */
const readWitnessSet = (r: CborReader): WitnessContents => {
  const out: WitnessContents = {
    redeemers: [],
    scripts: null,
    datums: null,
    bootstrap: null,
    vkeys: [],
  };
  const seen = new Set<number>();
  const length = r.map();
  for (let i = 0; r.more(length, i); i++) {
    const at = r.pos;
    const key = r.small(255);
    if (seen.has(key)) fail(r, `the witness set repeats its field ${key}`, at);
    seen.add(key);
    switch (key) {
      case 0:
        out.vkeys = readVkeyWitnesses(r).items.map(({ vkey, signature }) => ({ vkey, signature }));
        break;
      case 1:
      case 3:
      case 6:
      case 7:
        out.scripts = (out.scripts ?? 0) + countItems(r);
        break;
      case 2:
        out.bootstrap = countItems(r);
        break;
      case 4:
        out.datums = countItems(r);
        break;
      case 5:
        out.redeemers = readRedeemers(r);
        break;
      default:
        fail(r, `the witness set has a field (${key}) the ledger does not have`, at);
    }
  }
  return out;
};

interface RawBody {
  inputs: string[];
  outputs: RawOutput[];
  fee: bigint;
  ttl: number | null;
  validFrom: number | null;
  auxiliaryDataHash: string | null;
  mint: Map<string, bigint>;
  scriptDataHash: string | null;
  collateralInputs: string[];
  requiredSigners: string[];
  networkId: number | null;
  referenceInputs: string[];
  counts: Omit<
    TransactionFlags,
    'scripts' | 'datums' | 'bootstrapWitnesses' | 'scriptDataHash' | 'invalid' | 'metadataMismatch'
  >;
}

const SLOT_LIMIT = 2 ** 53 - 1;

/** Reads the body where the reader stands. */
const readBody = (r: CborReader): RawBody => {
  const start = r.pos;
  const body: RawBody = {
    inputs: [],
    outputs: [],
    fee: -1n,
    ttl: null,
    validFrom: null,
    auxiliaryDataHash: null,
    mint: new Map(),
    scriptDataHash: null,
    collateralInputs: [],
    requiredSigners: [],
    networkId: null,
    referenceInputs: [],
    counts: {
      mint: null,
      certificates: null,
      withdrawals: null,
      votes: null,
      proposals: null,
      collateral: null,
      treasury: null,
    },
  };
  const seen = new Set<number>();
  const length = r.map();
  for (let i = 0; r.more(length, i); i++) {
    const at = r.pos;
    const key = r.small(255);
    if (seen.has(key)) fail(r, `the body repeats its field ${key}`, at);
    seen.add(key);
    const c = body.counts;
    switch (key) {
      case 0:
        body.inputs = readInputs(r, 'the inputs');
        break;
      case 1: {
        const n = r.array();
        for (let j = 0; r.more(n, j); j++) body.outputs.push(readOutput(r, j));
        break;
      }
      case 2:
        body.fee = r.uint();
        break;
      case 3:
        body.ttl = r.small(SLOT_LIMIT);
        break;
      case 4:
        c.certificates = countItems(r);
        break;
      case 5: {
        const n = r.map();
        let count = 0;
        for (; r.more(n, count); count++) {
          r.skip();
          r.skip();
        }
        c.withdrawals = count;
        break;
      }
      case 7:
        body.auxiliaryDataHash = r.hex(32);
        break;
      case 8:
        body.validFrom = r.small(SLOT_LIMIT);
        break;
      case 9:
        readMultiAsset(r, body.mint, 'the mint', true);
        c.mint = body.mint.size;
        break;
      case 11:
        body.scriptDataHash = r.hex(32);
        break;
      case 13:
        body.collateralInputs = readInputs(r, 'the collateral inputs');
        c.collateral = (c.collateral ?? 0) + body.collateralInputs.length;
        break;
      case 14:
        body.requiredSigners = readSet(
          r,
          'the required signers',
          () => r.hex(28),
          (h) => h,
        );
        break;
      case 15:
        body.networkId = r.small(1);
        break;
      case 16:
        readOutput(r, -1);
        c.collateral = (c.collateral ?? 0) + 1;
        break;
      case 17:
        r.uint();
        c.collateral = (c.collateral ?? 0) + 1;
        break;
      case 18:
        body.referenceInputs = readInputs(r, 'the reference inputs');
        break;
      case 19: {
        const n = r.map();
        let count = 0;
        for (; r.more(n, count); count++) {
          r.skip();
          r.skip();
        }
        c.votes = count;
        break;
      }
      case 20:
        c.proposals = countItems(r);
        break;
      case 21:
      case 22:
        r.uint();
        c.treasury = (c.treasury ?? 0) + 1;
        break;
      default:
        fail(r, `the body has a field (${key}) Conway transactions do not have`, at);
    }
  }
  if (!seen.has(0) || !seen.has(1) || !seen.has(2)) {
    fail(r, 'the body lacks its inputs, outputs or fee', start);
  }
  if (body.inputs.length === 0) fail(r, 'the transaction spends nothing', start);
  return body;
};

const knownInput = (id: string, context: DecodeContext): DecodedInput['known'] => {
  const known = context.knownOutputs?.get(id);
  if (!known) return null;
  return {
    ...known,
    party: partyOf(known.address, context),
    display: displayAmounts(known.amounts, context.assets),
  };
};

export const decodeTransaction = (txHex: string, context: DecodeContext): DecodedTransaction => {
  // The body and the witness set are read in the pass that cuts the transaction into its parts.
  let body: RawBody | undefined;
  let witnesses: WitnessContents | undefined;
  const bytes = splitTransaction(txHex, {
    body: (r) => (body = readBody(r)),
    witnessSet: (r) => (witnesses = readWitnessSet(r)),
  });
  if (!body || !witnesses) throw invalidTransaction('its body or witness set was not read');
  const vkeys = witnesses.vkeys;
  const outputs: DecodedOutput[] = body.outputs.map((o, index) => ({
    index,
    address: o.address.text,
    party: partyOfAddress(o.address, context),
    networkId: o.address.networkId,
    amounts: o.amounts,
    display: displayAmounts(o.amounts, context.assets),
    datum: o.datum,
    inlineDatum: o.inlineDatum,
    datumProblem: o.datumProblem,
    hasScriptRef: o.hasScriptRef,
  }));
  const aux = bytes.auxiliaryData;
  const metadataMismatch = aux
    ? body.auxiliaryDataHash !== blake2b256(aux)
    : body.auxiliaryDataHash !== null;
  return {
    id: transactionIdOf(bytes.body),
    bytes,
    networkId: body.networkId,
    inputs: body.inputs.map((id) => {
      const known = knownInput(id, context);
      return { id, known, absent: known === null && (context.absentOutputs?.has(id) ?? false) };
    }),
    referenceInputs: body.referenceInputs,
    collateralInputs: body.collateralInputs,
    outputs,
    fee: body.fee,
    validFromSlot: body.validFrom,
    validUntilSlot: body.ttl,
    requiredSigners: body.requiredSigners,
    ownPaymentKeyHash: context.own.paymentKeyHash ?? null,
    ownStakeKeyHash: context.own.stakeKeyHash ?? null,
    metadata: aux !== null,
    mint: body.mint,
    redeemers: witnesses.redeemers,
    witnesses: vkeys,
    flags: {
      ...body.counts,
      scripts: witnesses.scripts,
      datums: witnesses.datums,
      bootstrapWitnesses: witnesses.bootstrap,
      scriptDataHash: body.scriptDataHash !== null,
      invalid: !bytes.isValid,
      metadataMismatch,
    },
  };
};

/** A value of a known output, for display. */
export { readAddress };
