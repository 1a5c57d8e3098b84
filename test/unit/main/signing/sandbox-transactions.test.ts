import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ExchangeProfile, OrderTerms } from '../../../../src-main/signing';
import { ErrorCode } from '../../../../src-shared/errors';
import { EXCHANGE_ADDRESSES, parseWalletAddress } from '../../../../src-sandbox/addresses';
import { ASSETS } from '../../../../src-sandbox/assets';
import {
  buildTransaction,
  checkSignatures,
  l1Fee,
  orderDatum,
  parseSignedTx,
  type BuiltTx,
} from '../../../../src-sandbox/transactions';
import { ADA, USDM, txHash } from '../../../fixtures/cardano/exchange-transactions';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../fixtures/cardano/wallet-services';

/**
 * The two sides meet here at the transaction level: transactions built by the sandbox's own
 * builder, exactly as its README describes them, pass this signer's intent checks, and the
 * sandbox's own submit checks accept the signatures this signer adds.
 */
let world: WalletWorld;
let profile: ExchangeProfile;
let wallet: { bech32: string; paymentKeyHash: string; exchangeAddress: string };
let operationKeyHash: string;

beforeEach(async () => {
  world = await walletWorld();
  operationKeyHash = (
    await world.wallet.restore({ name: 'Main', words: VECTOR_PHRASE, password: STRONG_PASSWORD })
  ).operationKeyHash;
  await world.session.unlock(STRONG_PASSWORD);
  wallet = parseWalletAddress((await world.wallet.addresses({})).baseAddress);
  profile = {
    network: 'sandbox',
    networkId: 0,
    addresses: { ...EXCHANGE_ADDRESSES, account: wallet.exchangeAddress },
    operationKeyHash,
    strict: true,
    assets: new Map(ASSETS.map((a) => [a.unit, { name: a.name, decimals: a.decimals }])),
  };
});
afterEach(() => world.cleanup());

const acceptedBySandbox = (signedTxHex: string, built: BuiltTx, signer: string): void => {
  const parsed = parseSignedTx(signedTxHex, { txId: built.txId, bodyHex: built.bodyHex });
  expect(parsed.txId).toBe(built.txId);
  expect(() => checkSignatures(parsed, [signer])).not.toThrow();
};

describe('sandbox-built transactions', () => {
  it('an order and its cancel: checked, signed with the operation key, accepted', async () => {
    const order = buildTransaction({
      inputs: [`${txHash(1)}#0`],
      outputs: [
        {
          address: EXCHANGE_ADDRESSES.order,
          amounts: new Map([[USDM, 50n * ADA]]),
          datum: orderDatum({
            orderId: '3f1c1e6e-1d0a-4c1b-9b1e-2f7f6f9d1a01',
            accountId: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d',
            side: 'buy',
            type: 'limit',
            priceTicks: 2500n,
            quantityUnits: 200n * ADA,
            slippageBp: 0,
            operationKeyHash,
          }),
        },
        {
          address: wallet.exchangeAddress,
          amounts: new Map([
            ['lovelace', 1000n * ADA],
            [USDM, 150n * ADA],
          ]),
        },
      ],
      fee: 0n,
      ttlSlot: 200_000_000,
      requiredSigners: [operationKeyHash],
    });
    const signed = await world.signer.signTrade(
      order.txHex,
      { kind: 'place-order', lock: { unit: USDM, quantity: 50n * ADA } },
      profile,
    );
    acceptedBySandbox(signed.signedTxHex, order, operationKeyHash);

    const cancel = buildTransaction({
      inputs: [`${order.txId}#0`],
      outputs: [{ address: wallet.exchangeAddress, amounts: new Map([[USDM, 50n * ADA]]) }],
      fee: 0n,
      ttlSlot: 200_000_000,
      requiredSigners: [operationKeyHash],
    });
    const signedCancel = await world.signer.signTrade(
      cancel.txHex,
      { kind: 'cancel-order', orderUtxo: `${order.txId}#0` },
      profile,
    );
    acceptedBySandbox(signedCancel.signedTxHex, cancel, operationKeyHash);
  });

  describe("an order's terms, as the sandbox writes them in the datum", () => {
    const ORDER_ID = '3f1c1e6e-1d0a-4c1b-9b1e-2f7f6f9d1a01';
    const ACCOUNT_ID = '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d';
    const asked: OrderTerms = {
      orderId: ORDER_ID,
      side: 'buy',
      type: 'limit',
      priceTicks: 2500n,
      quantityUnits: 200n * ADA,
      slippageBp: 0n,
    };
    const orderWith = (changes: Partial<Parameters<typeof orderDatum>[0]> = {}) =>
      buildTransaction({
        inputs: [`${txHash(1)}#0`],
        outputs: [
          {
            address: EXCHANGE_ADDRESSES.order,
            amounts: new Map([[USDM, 50n * ADA]]),
            datum: orderDatum({
              orderId: ORDER_ID,
              accountId: ACCOUNT_ID,
              side: 'buy',
              type: 'limit',
              priceTicks: 2500n,
              quantityUnits: 200n * ADA,
              slippageBp: 0,
              operationKeyHash,
              ...changes,
            }),
          },
          { address: wallet.exchangeAddress, amounts: new Map([[USDM, 150n * ADA]]) },
        ],
        fee: 0n,
        ttlSlot: 200_000_000,
        requiredSigners: [operationKeyHash],
      });
    const sign = (txHex: string) =>
      world.signer.signTrade(
        txHex,
        { kind: 'place-order', lock: { unit: USDM, quantity: 50n * ADA }, terms: asked },
        { ...profile, orderDatum: 'countersign-sandbox-v1', accountId: ACCOUNT_ID },
      );

    it('signs the order the trader asked for', async () => {
      const order = orderWith();
      acceptedBySandbox((await sign(order.txHex)).signedTxHex, order, operationKeyHash);
    });

    it.each([
      ['a lower price', { priceTicks: 1n }, /price is 0\.0001 instead of 0\.2500/],
      ['the other side', { side: 'sell' as const }, /would sell instead of buy/],
      ['a market order', { type: 'market' as const }, /market order instead of a limit order/],
      ['a larger quantity', { quantityUnits: 2000n * ADA }, /quantity is 2000 instead of 200/],
      ['slippage', { slippageBp: 500 }, /500 bp of slippage instead of 0 bp/],
      ['another order id', { orderId: '00000000-0000-4000-8000-000000000000' }, /names order/],
      ['another account', { accountId: '00000000-0000-4000-8000-000000000001' }, /another account/],
      ['another trading key', { operationKeyHash: 'ab'.repeat(28) }, /another trading key/],
    ])('refuses %s in the datum, even with the same amount locked', async (_what, change, why) => {
      await expect(sign(orderWith(change).txHex)).rejects.toMatchObject({
        code: ErrorCode.IntentMismatch,
        message: expect.stringMatching(why),
      });
    });

    it('refuses an order without its terms when the exchange publishes its datum', async () => {
      await expect(
        world.signer.signTrade(
          orderWith().txHex,
          { kind: 'place-order', lock: { unit: USDM, quantity: 50n * ADA } },
          { ...profile, orderDatum: 'countersign-sandbox-v1' },
        ),
      ).rejects.toMatchObject({ message: expect.stringMatching(/terms were not given/) });
    });
  });

  it('a deposit and a withdrawal: checked, signed with the wallet key, accepted', async () => {
    const inputs = new Map([
      [`${txHash(3)}#0`, { address: wallet.bech32, amounts: new Map([['lovelace', 300n * ADA]]) }],
    ]);
    const amounts = new Map([['lovelace', 100n * ADA]]);
    const spec = (fee: bigint) => ({
      inputs: [...inputs.keys()],
      outputs: [
        { address: EXCHANGE_ADDRESSES.deposit, amounts },
        { address: wallet.bech32, amounts: new Map([['lovelace', 200n * ADA - fee]]) },
      ],
      fee,
      ttlSlot: 200_000_000,
      requiredSigners: [wallet.paymentKeyHash],
    });
    const deposit = buildTransaction(spec(l1Fee(buildTransaction(spec(200_000n)).txHex, 1)));
    const signed = await world.signer.signFunds(
      deposit.txHex,
      { kind: 'deposit', amounts, inputs },
      profile,
      STRONG_PASSWORD,
    );
    acceptedBySandbox(signed.signedTxHex, deposit, wallet.paymentKeyHash);

    const withdrawalSpec = (fee: bigint) => ({
      inputs: [`${txHash(4)}#0`],
      outputs: [{ address: wallet.bech32, amounts: new Map([['lovelace', 50n * ADA]]) }],
      fee,
      ttlSlot: 200_000_000,
      requiredSigners: [wallet.paymentKeyHash],
    });
    const withdrawal = buildTransaction(
      withdrawalSpec(l1Fee(buildTransaction(withdrawalSpec(200_000n)).txHex, 2)),
    );
    const signedW = await world.signer.signFunds(
      withdrawal.txHex,
      {
        kind: 'withdrawal',
        amounts: new Map([['lovelace', 50n * ADA]]),
        statedFeeLovelace: 0n,
        ownUtxos: new Set(inputs.keys()),
      },
      profile,
      STRONG_PASSWORD,
    );
    acceptedBySandbox(signedW.signedTxHex, withdrawal, wallet.paymentKeyHash);
  });
});
