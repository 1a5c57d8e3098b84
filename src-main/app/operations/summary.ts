import type { IntentCheck, Party, TransactionSummary } from '../../../src-shared/contract';
import { fromSmallestUnit } from '../../../src-shared/money';
import type { DecodedTransaction, IntentReport } from '../../signing';

/** Cardano slot 0 in unix seconds: the testnets the sandbox imitates (preprod) and mainnet. */
const SLOT_ZERO_UNIX_SECONDS: Readonly<Record<0 | 1, number>> = {
  0: 1_654_041_600,
  1: 1_591_566_291,
};

const partyOf = (party: string): Party => (party === 'foreign' ? 'unknown' : (party as Party));

export interface SignerNames {
  operationKeyHash: string;
  paymentKeyHash: string | null;
  exchangeKeyHashes?: readonly string[];
}

/** The main process's reading of a transaction, as the confirmation dialog shows it. */
export const summarise = (
  decoded: DecodedTransaction,
  networkId: 0 | 1,
  signers: SignerNames,
  orderTerms: TransactionSummary['orderTerms'],
): TransactionSummary => {
  const exchangeKeys = new Set(signers.exchangeKeyHashes ?? []);
  return {
    txId: decoded.id,
    networkId: decoded.networkId,
    inputs: decoded.inputs.map((input) => ({
      id: input.id,
      party: input.known ? partyOf(input.known.party) : input.absent ? 'not-on-chain' : 'unknown',
      amounts: input.known ? input.known.display : null,
    })),
    outputs: decoded.outputs.map((output) => ({
      index: output.index,
      address: output.address,
      party: partyOf(output.party),
      amounts: output.display,
      hasDatum: output.datum !== 'none',
    })),
    fee: {
      unit: 'lovelace',
      name: 'ADA',
      quantity: decoded.fee.toString(),
      amount: fromSmallestUnit(decoded.fee, 6).toFixed(6),
    },
    signers: decoded.requiredSigners.map((keyHash) => ({
      keyHash,
      whose:
        keyHash === signers.operationKeyHash
          ? 'your trading key'
          : keyHash === signers.paymentKeyHash
            ? 'your wallet key'
            : exchangeKeys.has(keyHash)
              ? 'the exchange'
              : 'an unknown key',
    })),
    validUntil:
      decoded.validUntilSlot === null
        ? null
        : new Date(
            (SLOT_ZERO_UNIX_SECONDS[networkId] + decoded.validUntilSlot) * 1000,
          ).toISOString(),
    orderTerms,
  };
};

export const checkOf = (report: IntentReport): IntentCheck => ({
  matches: report.differences.length === 0 && report.warnings.length === 0,
  differences: [...report.differences],
  warnings: [...report.warnings],
});
