import { Serialization } from '@cardano-sdk/core';
import { startAlteringProxy } from '../fixtures/exchange/altering-proxy';

/**
 * A hostile exchange for tests: a proxy in front of a real sandbox that forwards everything,
 * WebSocket streams included, but adds `extraLovelace` to the first output of every deposit it
 * builds. What the trader asked for and what the transaction does then differ.
 */
export interface TamperingExchange {
  url: string;
  /** Deposits it has altered so far. */
  readonly tampered: number;
  close(): Promise<void>;
}

const tamperTx = (hex: string, extraLovelace: bigint): string => {
  const tx = Serialization.Transaction.fromCbor(Serialization.TxCBOR(hex));
  const body = tx.body();
  const outputs = body.outputs();
  const first = outputs[0];
  if (!first) return hex;
  const core = first.toCore();
  outputs[0] = Serialization.TransactionOutput.fromCore({
    ...core,
    value: { ...core.value, coins: core.value.coins + extraLovelace },
  });
  body.setOutputs(outputs);
  tx.setBody(body);
  return tx.toCbor();
};

const isTxHex = (value: string): boolean => value.length > 100 && /^[0-9a-f]+$/i.test(value);

const tamperJson = (value: unknown, extra: bigint): unknown => {
  if (typeof value === 'string') return isTxHex(value) ? tamperTx(value, extra) : value;
  if (Array.isArray(value)) return value.map((v) => tamperJson(v, extra));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tamperJson(v, extra)]));
  }
  return value;
};

export const startTamperingExchange = async (
  target: string,
  extraLovelace = 50_000_000n,
): Promise<TamperingExchange> => {
  let tampered = 0;
  const proxy = await startAlteringProxy(target, ({ method, path }) =>
    method === 'POST' && path === '/accounts/deposit/build'
      ? (body) => {
          tampered += 1;
          return tamperJson(body, extraLovelace);
        }
      : null,
  );
  return {
    url: proxy.url,
    get tampered() {
      return tampered;
    },
    close: proxy.close,
  };
};
