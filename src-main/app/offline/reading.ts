import { KNOWN_ASSETS } from '../../../src-shared/assets';
import type { TransactionFileReading } from '../../../src-shared/contract/offline';
import { AppError, ErrorCode } from '../../../src-shared/errors';
import {
  decodeTransaction,
  displayAmounts,
  readEnvelope,
  TRANSACTION_TYPES,
  WITNESS_TYPE,
  type Amounts,
  type DecodedTransaction,
  type Medium,
  type TransactionFlags,
} from '../../signing';
import { addressesOf, parseAccountPublicKey, type WalletRecord } from '../../wallet';
import { summarise } from '../operations/summary';

/**
 * The offline computer's half of offline signing: Countersign there, with the wallet restored
 * from its recovery phrase, reads the transaction file the online Countersign saved, shows what
 * it does and signs only what it can show and a deposit or withdrawal needs. It cannot see the
 * chain, so what the spent coins hold is not known here: only what the transaction states is.
 */

const unusable = (why: string, medium: Medium): AppError =>
  new AppError(
    ErrorCode.SignedFile,
    medium === 'qr'
      ? `These QR codes cannot be signed here: ${why}. Nothing was signed. Scan the QR codes the online Countersign shows for your deposit or withdrawal.`
      : `This file cannot be signed here: ${why}. Nothing was signed. Choose the transaction file the online Countersign saved for your deposit or withdrawal (a “Tx ConwayEra” text envelope).`,
  );

/** What the transaction carries that no deposit or withdrawal needs, by its count in the body. */
const NEVER_NEEDED: ReadonlyArray<[keyof TransactionFlags, string]> = [
  ['certificates', 'It changes staking or delegation (certificates)'],
  ['withdrawals', 'It withdraws staking rewards'],
  ['votes', 'It casts governance votes'],
  ['proposals', 'It makes governance proposals'],
  ['treasury', 'It pays or states the Cardano treasury (a donation or treasury field)'],
  ['collateral', 'It puts up collateral (coins lost if a script fails)'],
  ['scripts', 'It carries scripts with its signatures'],
  ['datums', 'It carries datums with its signatures'],
  ['bootstrapWitnesses', 'It carries Byron-era (bootstrap) signatures'],
  ['invalid', 'It is marked to fail its scripts (is_valid false)'],
  ['metadataMismatch', 'Its metadata does not match the hash its body states'],
];
const DO_NOT_SIGN = 'which a deposit or withdrawal never needs: do not sign it.';

const NETWORK_NAMES: Readonly<Record<0 | 1, string>> = {
  0: 'A Cardano test network (test coins)',
  1: 'Cardano mainnet (real money)',
};

/** The network the transaction states (its body, else its outputs), and any disagreement. */
const networkOf = (tx: DecodedTransaction): { networkId: 0 | 1 | null; mixed: boolean } => {
  const stated = [tx.networkId, ...tx.outputs.map((o) => o.networkId)].filter(
    (n): n is number => n !== null,
  );
  const first = stated[0] ?? null;
  return {
    networkId: first === 0 || first === 1 ? first : null,
    mixed: stated.some((n) => n !== first),
  };
};

const refusalsOf = (tx: DecodedTransaction, network: ReturnType<typeof networkOf>): string[] => {
  const refusals = NEVER_NEEDED.filter(([flag]) => {
    const value = tx.flags[flag];
    return value !== null && value !== false;
  }).map(([, what]) => `${what}, ${DO_NOT_SIGN}`);
  // Metadata moves no coin, but it is published on the chain under the signature: a statement
  // the trader did not write. (A mismatch with the body's hash is refused above.)
  if (tx.metadata && !tx.flags.metadataMismatch) {
    refusals.push(
      `It carries metadata, published on the chain under your signature, ${DO_NOT_SIGN}`,
    );
  }
  for (const o of tx.outputs) {
    if (o.hasScriptRef)
      refusals.push(`Output ${o.index} carries a reference script, ${DO_NOT_SIGN}`);
  }
  if (network.mixed || network.networkId === null) {
    refusals.push(
      'Its addresses are not all on one Cardano network (mainnet or a test network), so the network would refuse it: do not sign it.',
    );
  }
  return refusals;
};

const warningsOf = (tx: DecodedTransaction, assets: AssetNames): string[] => {
  const warnings = [
    'A computer without the chain cannot know what the coins this transaction spends hold: they are listed by reference only. Sign it only if the online computer showed you this deposit or withdrawal, for the amount you asked.',
  ];
  const minted = displayAmounts(tx.mint, assets);
  if (minted.length > 0) {
    const list = minted
      .map((a) => `${a.amount.startsWith('-') ? a.amount : `+${a.amount}`} ${a.name}`)
      .join(', ');
    warnings.push(
      `It creates (+) or destroys (-) tokens: ${list}. An exchange withdrawal creates one request token; if you did not ask for a withdrawal, do not sign it.`,
    );
  }
  return warnings;
};

type AssetNames = ReadonlyMap<string, { name: string; decimals: number }>;

const assetsOn = (networkId: 0 | 1): AssetNames =>
  new Map(
    KNOWN_ASSETS[networkId === 1 ? 'production' : 'sandbox'].map((a) => [
      a.unit,
      { name: a.name, decimals: a.decimals },
    ]),
  );

/** Each asset's total over the outputs that pass `which`. */
const totalOf = (tx: DecodedTransaction, which: (ours: boolean) => boolean): Amounts => {
  const total = new Map<string, bigint>();
  for (const o of tx.outputs) {
    if (!which(o.party === 'own' || o.party === 'own-other')) continue;
    for (const [unit, quantity] of o.amounts) total.set(unit, (total.get(unit) ?? 0n) + quantity);
  }
  return total;
};

export interface OfflineTransaction {
  decoded: DecodedTransaction;
  reading: TransactionFileReading;
}

/**
 * Reads a transaction file for a wallet that holds its key: refuses a file that is not a
 * transaction, and says what the transaction does, why it will not be signed (if so) and what
 * the trader must know first.
 */
export const readTransactionFile = (
  text: string,
  wallet: WalletRecord,
  medium: Medium = 'file',
): OfflineTransaction => {
  const refuse = (why: string) => unusable(why, medium);
  const envelope = readEnvelope(text.trim(), refuse);
  if (envelope.type === WITNESS_TYPE) {
    throw refuse(
      'it holds a signature (a key witness), not a transaction: it goes to the online computer',
    );
  }
  if (!TRANSACTION_TYPES.includes(envelope.type)) {
    throw refuse(`it holds a “${envelope.type.slice(0, 60)}”, not a transaction`);
  }
  const account = parseAccountPublicKey(wallet.accountPublicKey);
  const decode = (networkId: 0 | 1): DecodedTransaction => {
    const own = addressesOf(account, networkId);
    try {
      return decodeTransaction(envelope.cborHex.toLowerCase(), {
        networkId,
        own: {
          addresses: [own.baseAddress],
          paymentKeyHash: own.paymentKeyHash,
          stakeKeyHash: own.stakeKeyHash,
          otherKeyHashes: [wallet.operationKeyHash],
        },
        assets: assetsOn(networkId),
      });
    } catch (error) {
      if (error instanceof AppError) throw refuse('its transaction cannot be read');
      throw error;
    }
  };
  // Whose an address is depends on the network: read again on mainnet when it says so.
  const first = decode(0);
  const network = networkOf(first);
  const networkId = network.networkId ?? 0;
  const decoded = networkId === 0 ? first : decode(networkId);
  const assets = assetsOn(networkId);
  const summary = summarise(
    decoded,
    networkId,
    { operationKeyHash: wallet.operationKeyHash, paymentKeyHash: decoded.ownPaymentKeyHash },
    null,
  );
  return {
    decoded,
    reading: {
      summary,
      network: network.networkId === null ? 'Unknown' : NETWORK_NAMES[network.networkId],
      leaves: displayAmounts(
        totalOf(decoded, (ours) => !ours),
        assets,
      ),
      returns: displayAmounts(
        totalOf(decoded, (ours) => ours),
        assets,
      ),
      refusals: refusalsOf(decoded, network),
      warnings: warningsOf(decoded, assets),
    },
  };
};

/** Why signing is refused, as one message; null when it may be signed. */
export const refusalOf = (reading: TransactionFileReading): AppError | null =>
  reading.refusals.length === 0
    ? null
    : new AppError(
        ErrorCode.InvalidTransaction,
        `Countersign will not sign this transaction. ${reading.refusals.join(' ')} Nothing was signed: prepare the deposit or withdrawal again on the online computer, and if this happens again, stop and contact the exchange.`,
      );

/** The name the witness file is offered under. */
export const witnessFileName = (txId: string): string =>
  `countersign-${txId.slice(0, 8)}.witness.json`;
