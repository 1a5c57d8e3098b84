import { Serialization } from '@cardano-sdk/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TestKey,
  Trader,
  readyCrypto,
  startTestSandbox,
  withWitnesses,
  type TestSandbox,
} from './helpers.js';

let sandbox: TestSandbox;
let trader: Trader;

beforeAll(async () => {
  await readyCrypto();
  sandbox = await startTestSandbox();
  trader = await new Trader(sandbox.url).register();
  await trader.fund(1000, 1000);
});
afterAll(() => sandbox.close());

const order = { symbol: 'ADAUSDM', side: 'buy', type: 'limit', quantity: 10, price: 0.6 };

async function buildOrder() {
  const r = await trader.request<{ order_id: string; tx_hex: string }>(
    'POST',
    '/order/build',
    order,
  );
  expect(r.status).toBe(200);
  return r.body;
}

function withFee(txHex: string, fee: bigint): string {
  const tx = Serialization.Transaction.fromCbor(Serialization.TxCBOR(txHex));
  const body = tx.body();
  body.setFee(fee);
  tx.setBody(body);
  return tx.toCbor();
}

async function submitCode(orderId: string, signedTx: string) {
  const r = await trader.request<{ code: number }>('POST', '/order/submit', {
    order_id: orderId,
    signed_tx: signedTx,
  });
  return r.body.code;
}

async function openOrders(): Promise<number> {
  const r = await trader.request<{ total_count: number }>(
    'GET',
    '/accounts/order-records?status=open',
  );
  return r.body.total_count;
}

describe('submit checks', () => {
  it('refuses a tampered body (4000) and changes nothing', async () => {
    const built = await buildOrder();
    const before = await trader.balances();
    const tampered = trader.operation.sign(withFee(built.tx_hex, 1n));
    expect(await submitCode(built.order_id, tampered)).toBe(4000);
    expect(await trader.balances()).toEqual(before);
    expect(await openOrders()).toBe(0);
  });

  it('refuses a missing, wrong, foreign or extra signature (4407)', async () => {
    const built = await buildOrder();
    const stranger = new TestKey();
    expect(await submitCode(built.order_id, built.tx_hex)).toBe(4407);
    expect(await submitCode(built.order_id, stranger.sign(built.tx_hex))).toBe(4407);
    expect(await submitCode(built.order_id, trader.wallet.sign(built.tx_hex))).toBe(4407);
    expect(
      await submitCode(built.order_id, stranger.sign(trader.operation.sign(built.tx_hex))),
    ).toBe(4407);
    const valid = trader.operation.sign(built.tx_hex);
    const signature =
      Serialization.Transaction.fromCbor(Serialization.TxCBOR(valid))
        .witnessSet()
        .vkeys()
        ?.values()[0]
        ?.signature() ?? '';
    const flipped = (signature.startsWith('00') ? '01' : '00') + signature.slice(2);
    expect(
      await submitCode(
        built.order_id,
        withWitnesses(built.tx_hex, [[trader.operation.publicKeyHex, flipped]]),
      ),
    ).toBe(4407);
    expect(await openOrders()).toBe(0);
    // the genuine signature still goes through afterwards
    expect(await submitCode(built.order_id, valid)).toBeUndefined();
    expect(await openOrders()).toBe(1);
  });

  it('refuses a replay (4302) and changes nothing', async () => {
    const built = await buildOrder();
    const signed = trader.operation.sign(built.tx_hex);
    expect(await submitCode(built.order_id, signed)).toBeUndefined();
    const before = await trader.balances();
    const count = await openOrders();
    expect(await submitCode(built.order_id, signed)).toBe(4302);
    expect(await trader.balances()).toEqual(before);
    expect(await openOrders()).toBe(count);
  });

  it("refuses another order's transaction under this order id (4000), an unknown order (4200), garbage (4000)", async () => {
    const a = await buildOrder();
    const b = await buildOrder();
    expect(await submitCode(a.order_id, trader.operation.sign(b.tx_hex))).toBe(4000);
    expect(
      await submitCode('00000000-0000-4000-8000-000000000000', trader.operation.sign(a.tx_hex)),
    ).toBe(4200);
    expect(await submitCode(a.order_id, 'zz')).toBe(4000);
    expect(await submitCode(a.order_id, '8201')).toBe(4000);
  });

  it('refuses a tampered cancel (4402) and a cancel signed by the wallet key (4407)', async () => {
    const built = await buildOrder();
    await submitCode(built.order_id, trader.operation.sign(built.tx_hex));
    const cancel = await trader.request<{ tx_hex: string }>(
      'DELETE',
      `/order/${built.order_id}/build`,
    );
    const tampered = trader.operation.sign(withFee(cancel.body.tx_hex, 5n));
    const r1 = await trader.request<{ code: number }>('DELETE', '/order/submit', {
      signed_tx: tampered,
    });
    expect(r1.body.code).toBe(4402);
    const r2 = await trader.request<{ code: number }>('DELETE', '/order/submit', {
      signed_tx: trader.wallet.sign(cancel.body.tx_hex),
    });
    expect(r2.body.code).toBe(4407);
    const r3 = await trader.request('DELETE', '/order/submit', {
      signed_tx: trader.operation.sign(cancel.body.tx_hex),
    });
    expect(r3.status).toBe(200);
    expect(r3.body).toEqual({ tx_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  });

  it('refuses an expired build (4300)', async () => {
    const quick = await startTestSandbox({ rules: { orderTtlMs: 30 } });
    try {
      const t = await new Trader(quick.url).register();
      await t.fund(100, 100);
      const built = await t.request<{ order_id: string; tx_hex: string }>(
        'POST',
        '/order/build',
        order,
      );
      await new Promise((resolve) => setTimeout(resolve, 60));
      const r = await t.request<{ code: number }>('POST', '/order/submit', {
        order_id: built.body.order_id,
        signed_tx: t.operation.sign(built.body.tx_hex),
      });
      expect(r.body.code).toBe(4300);
    } finally {
      await quick.close();
    }
  });
});
