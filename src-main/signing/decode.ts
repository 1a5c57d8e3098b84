import { Cardano, Serialization } from '@cardano-sdk/core';
import { HexBlob } from '@cardano-sdk/util';
import { fromSmallestUnit } from '../../src-shared/money';
import { AppError, ErrorCode } from '../../src-shared/errors';
import {
  splitTransaction,
  transactionIdOf,
  witnessSetKeys,
  type TransactionBytes,
} from './transaction-bytes';
import { LOVELACE } from '../../src-shared/assets';

/**
 * Reads a transaction for display and for the intent checks: who gets what (own or foreign
 * addresses, multi-asset values in human units), what is spent (with amounts where the wallet
 * knows them), fee, validity, required signers, network, metadata, and a flag for every
 * structure an exchange transaction should not need. Only the body is parsed; the witness set is
 * scanned for which kinds of witnesses it holds.
 */

/** Quantities in smallest units by unit: `lovelace`, or policy id + asset name (hex). */
export type Amounts = ReadonlyMap<string, bigint>;

export interface AssetInfo {
  /** What the trader calls it: ADA, USDM. */
  name: string;
  decimals: number;
}

export type Party =
  | 'own'
  | 'exchange-order'
  | 'exchange-deposit'
  | 'exchange-treasury'
  | 'exchange-account'
  | 'foreign';

export interface ExchangeAddresses {
  order?: string | undefined;
  deposit?: string | undefined;
  treasury?: string | undefined;
  /** The trader's own account at the exchange (where the free balance lives). */
  account?: string | undefined;
}

export interface OwnWallet {
  /** The wallet's addresses on this network (bech32). */
  addresses: readonly string[];
  paymentKeyHash?: string | undefined;
  stakeKeyHash?: string | undefined;
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
}

export interface DecodedOutput {
  index: number;
  address: string;
  party: Party;
  networkId: number | null;
  amounts: Amounts;
  display: DisplayAmount[];
  datum: 'none' | 'inline' | 'hash';
  /** The inline datum itself, for checks that read it (an order's terms). */
  inlineDatum: Cardano.PlutusData | null;
  hasScriptRef: boolean;
}

export interface TransactionFlags {
  mint: boolean;
  certificates: boolean;
  withdrawals: boolean;
  votes: boolean;
  proposals: boolean;
  collateral: boolean;
  scripts: boolean;
  donation: boolean;
  update: boolean;
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
  metadata: boolean;
  mint: Amounts;
  flags: TransactionFlags;
}

export { LOVELACE };
const ADA: AssetInfo = { name: 'ADA', decimals: 6 };

const inputId = (input: { txId: string; index: number }): string => `${input.txId}#${input.index}`;

export const amountsOf = (value: Cardano.Value): Map<string, bigint> => {
  const amounts = new Map<string, bigint>([[LOVELACE, value.coins]]);
  for (const [assetId, quantity] of value.assets ?? []) {
    amounts.set(assetId, (amounts.get(assetId) ?? 0n) + quantity);
  }
  return amounts;
};

export const displayAmounts = (
  amounts: Amounts,
  assets?: ReadonlyMap<string, AssetInfo>,
): DisplayAmount[] =>
  [...amounts]
    .filter(([unit, quantity]) => quantity !== 0n || unit === LOVELACE)
    .map(([unit, quantity]) => {
      const info = unit === LOVELACE ? ADA : assets?.get(unit);
      const name =
        info?.name ??
        `${unit.slice(0, 56)}.${Buffer.from(unit.slice(56), 'hex')
          .toString('utf8')
          .replace(/[^\x20-\x7e]/g, '?')}`;
      return {
        unit,
        name,
        quantity: quantity.toString(),
        amount: info ? fromSmallestUnit(quantity, info.decimals).toFixed() : quantity.toString(),
      };
    });

const networkOf = (address: string): number | null => {
  try {
    return Cardano.Address.fromBech32(address).getNetworkId();
  } catch {
    return null;
  }
};

export const partyOf = (address: string, context: DecodeContext): Party => {
  const exchange = context.exchange ?? {};
  if (exchange.order === address) return 'exchange-order';
  if (exchange.deposit === address) return 'exchange-deposit';
  if (exchange.treasury === address) return 'exchange-treasury';
  if (exchange.account === address) return 'exchange-account';
  if (context.own.addresses.includes(address)) return 'own';
  if (context.own.paymentKeyHash) {
    try {
      const parsed = Cardano.Address.fromBech32(address);
      const enterprise = parsed.asEnterprise()?.getPaymentCredential();
      if (
        enterprise?.type === Cardano.CredentialType.KeyHash &&
        enterprise.hash === context.own.paymentKeyHash
      ) {
        return 'own';
      }
    } catch {
      return 'foreign';
    }
  }
  return 'foreign';
};

export const decodeTransaction = (txHex: string, context: DecodeContext): DecodedTransaction => {
  const bytes = splitTransaction(txHex);
  let body: Cardano.TxBody;
  try {
    body = Serialization.TransactionBody.fromCbor(HexBlob(bytes.body.toString('hex'))).toCore();
  } catch (error) {
    throw new AppError(
      ErrorCode.InvalidTransaction,
      'The exchange sent a transaction whose body Countersign cannot read. Nothing was signed; try again later.',
      { cause: error },
    );
  }
  const witnessKeys = witnessSetKeys(bytes.witnessSet);
  const outputs: DecodedOutput[] = body.outputs.map((output, index) => {
    const amounts = amountsOf(output.value);
    return {
      index,
      address: output.address,
      party: partyOf(output.address, context),
      networkId: networkOf(output.address),
      amounts,
      display: displayAmounts(amounts, context.assets),
      datum: output.datum ? 'inline' : output.datumHash ? 'hash' : 'none',
      inlineDatum: output.datum ?? null,
      hasScriptRef: output.scriptReference !== undefined,
    };
  });
  const inputs: DecodedInput[] = body.inputs.map((input) => {
    const id = inputId(input);
    const known = context.knownOutputs?.get(id);
    return {
      id,
      known: known
        ? {
            ...known,
            party: partyOf(known.address, context),
            display: displayAmounts(known.amounts, context.assets),
          }
        : null,
    };
  });
  const mint = new Map<string, bigint>(body.mint ?? []);
  return {
    id: transactionIdOf(bytes.body),
    bytes,
    networkId: body.networkId ?? null,
    inputs,
    referenceInputs: (body.referenceInputs ?? []).map(inputId),
    collateralInputs: (body.collaterals ?? []).map(inputId),
    outputs,
    fee: body.fee,
    validFromSlot: body.validityInterval?.invalidBefore ?? null,
    validUntilSlot: body.validityInterval?.invalidHereafter ?? null,
    requiredSigners: [...(body.requiredExtraSignatures ?? [])],
    ownPaymentKeyHash: context.own.paymentKeyHash ?? null,
    metadata: bytes.hasAuxiliaryData || body.auxiliaryDataHash !== undefined,
    mint,
    flags: {
      mint: mint.size > 0,
      certificates: (body.certificates?.length ?? 0) > 0,
      withdrawals: (body.withdrawals?.length ?? 0) > 0,
      votes: body.votingProcedures !== undefined && body.votingProcedures.length > 0,
      proposals: (body.proposalProcedures?.length ?? 0) > 0,
      collateral:
        (body.collaterals?.length ?? 0) > 0 ||
        body.collateralReturn !== undefined ||
        body.totalCollateral !== undefined,
      scripts:
        body.scriptIntegrityHash !== undefined ||
        outputs.some((o) => o.hasScriptRef) ||
        witnessKeys.some((k) => k !== 0 && k !== 2),
      donation: (body.donation ?? 0n) > 0n || body.treasuryValue !== undefined,
      update: body.update !== undefined,
    },
  };
};
