/** The order build request as the wire carries it (seed 4.2 plus the real service's extras). */
export interface OrderRequest {
  symbol: string;
  side: 'buy' | 'sell';
  type: 'limit' | 'market';
  quantity: number;
  price?: number;
  limit_slippage?: boolean;
  max_slippage_basis_point?: number;
  post_only?: boolean;
}

/** Amounts by unit with quantities as integer strings, as journal entries store them. */
export type AmountRecord = Record<string, string>;

/**
 * Every accepted state change, as appended to the journal. `at` is the time the sandbox
 * accepted it (ms); replaying the entries in order rebuilds the same state. A reset starts the
 * journal afresh as `[genesis, reset]`, the reset carrying the id counter so ids never repeat.
 */
export type JournalEntry =
  | { t: 'genesis'; at: number; salt: string; seed: number }
  | {
      t: 'account';
      at: number;
      /** SHA-256 of the API key issued (see api-keys.ts); the key itself is never written. */
      apiKeyHash: string;
      address: string;
      operationKeyHash: string | null;
    }
  /** Written by earlier versions: the key in plain text, and always a new account. */
  | { t: 'account'; at: number; apiKey: string; address: string; operationKeyHash: string | null }
  | { t: 'faucet'; at: number; address: string; amounts: AmountRecord }
  | { t: 'orderBuild'; at: number; accountId: string; order: OrderRequest }
  | { t: 'orderSubmit'; at: number; orderId: string; txId: string }
  | { t: 'cancelBuild'; at: number; accountId: string; orderId: string }
  | { t: 'cancelSubmit'; at: number; txId: string }
  | { t: 'depositBuild'; at: number; accountId: string; amounts: AmountRecord; inputs: string[] }
  | { t: 'depositSubmit'; at: number; txId: string; confirmAt: number }
  | { t: 'withdrawalBuild'; at: number; accountId: string; amounts: AmountRecord }
  | { t: 'withdrawalSubmit'; at: number; txId: string; settleAt: number }
  | { t: 'marketMaker'; at: number }
  /** A simulated taker's market order (takers.ts). */
  | { t: 'taker'; at: number }
  | { t: 'tradingLock'; at: number; locked: boolean }
  | { t: 'reset'; at: number; counter?: number };

export function toAmountRecord(amounts: ReadonlyMap<string, bigint>): AmountRecord {
  // fromEntries defines own properties: a unit named `__proto__` stays a plain key.
  return Object.fromEntries([...amounts].map(([unit, q]) => [unit, q.toString()]));
}

export function fromAmountRecord(record: AmountRecord): Map<string, bigint> {
  return new Map(Object.entries(record).map(([unit, q]) => [unit, BigInt(q)]));
}
