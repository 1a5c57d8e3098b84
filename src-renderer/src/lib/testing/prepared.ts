import type { PreparedOperation } from '../../../../src-shared/contract';

export const OPERATION_ID = '7d1c1a3e-5b7e-4f0a-9c62-3f2b1e0d9a41';
export const TX_ID = 'a1'.repeat(32);

/** A prepared deposit as main would answer it, with overrides. */
export const preparedDeposit = (over: Partial<PreparedOperation> = {}): PreparedOperation => ({
  operationId: OPERATION_ID,
  kind: 'deposit',
  title: 'Deposit 25 ADA',
  signer: 'wallet-key',
  offline: false,
  saved: false,
  needsPassword: true,
  summary: {
    txId: TX_ID,
    networkId: 0,
    inputs: [
      {
        id: `${'b2'.repeat(32)}#0`,
        party: 'own',
        amounts: [{ unit: 'lovelace', name: 'ADA', quantity: '100000000', amount: '100' }],
      },
    ],
    outputs: [
      {
        index: 0,
        address: 'addr_test1wz' + 'q'.repeat(50),
        party: 'exchange-deposit',
        amounts: [{ unit: 'lovelace', name: 'ADA', quantity: '25000000', amount: '25' }],
        hasDatum: true,
      },
      {
        index: 1,
        address: 'addr_test1qq' + 'p'.repeat(50),
        party: 'own',
        amounts: [{ unit: 'lovelace', name: 'ADA', quantity: '74820000', amount: '74.82' }],
        hasDatum: false,
      },
    ],
    fee: { unit: 'lovelace', name: 'ADA', quantity: '180000', amount: '0.18' },
    signers: [{ keyHash: 'cd'.repeat(28), whose: 'your wallet key' }],
    validUntil: null,
    orderTerms: null,
  },
  check: { matches: true, differences: [], warnings: [] },
  expiresAt: null,
  ...over,
});

/** A prepared limit order signed by the trading key. */
export const preparedOrder = (over: Partial<PreparedOperation> = {}): PreparedOperation =>
  preparedDeposit({
    kind: 'place-order',
    title: 'Buy 100 ADA at 0.4512 USDM',
    signer: 'operation-key',
    needsPassword: false,
    summary: {
      ...preparedDeposit().summary,
      orderTerms: { side: 'buy', price: '0.4512', quantity: '100', orderId: null },
    },
    ...over,
  });

export const operationResult = (prepared: PreparedOperation) => ({
  operationId: prepared.operationId,
  kind: prepared.kind,
  title: prepared.title,
  txHash: TX_ID,
  order: null,
});
