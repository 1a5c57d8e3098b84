import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Trader,
  USDM_UNIT,
  call,
  decodeTx,
  readyCrypto,
  startTestSandbox,
  txId,
  type InputUtxo,
  type TestSandbox,
} from './helpers.js';

let sandbox: TestSandbox;
let depositAddress = '';

beforeAll(async () => {
  await readyCrypto();
  sandbox = await startTestSandbox({ confirmationDelayMs: DELAY, withdrawalDelayMs: DELAY });
  const network = await call<{ addresses: { deposit: string } }>(
    sandbox.url,
    'GET',
    '/sandbox/network',
  );
  depositAddress = network.body.addresses.deposit;
});
afterAll(() => sandbox.close());

const ada = (n: number) => ({ unit: 'lovelace', quantity: String(n * 1_000_000) });
/** Confirmation and withdrawal delay: long enough to see the in-between state on a busy machine. */
const DELAY = 1000;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deposits', () => {
  it('builds from exactly the given UTxOs, pays the deposit address, locks until confirmed', async () => {
    const t = await new Trader(sandbox.url).register();
    await t.faucet(100_000_000n, 50_000_000n);
    const utxos = await t.utxos();
    expect(utxos).toHaveLength(1);
    expect(utxos[0]?.output).toMatchObject({
      address: t.address,
      data_hash: null,
      plutus_data: null,
      script_ref: null,
      script_hash: null,
    });
    const built = await t.request<{ tx_hex: string }>('POST', '/accounts/deposit/build', {
      deposit_amount: [ada(60), { unit: USDM_UNIT, quantity: '20000000' }],
      input_utxos: utxos,
    });
    expect(built.status).toBe(200);
    const tx = decodeTx(built.body.tx_hex);
    expect(tx.body.inputs).toEqual([{ txId: utxos[0]?.input.tx_hash, index: 0 }]);
    expect(tx.body.requiredExtraSignatures).toEqual([t.wallet.hash]);
    expect(tx.body.outputs[0]?.address).toBe(depositAddress);
    expect(tx.body.outputs[0]?.value.coins).toBe(60_000_000n);
    expect(tx.body.outputs[1]?.address).toBe(t.address);
    const fee = tx.body.fee;
    expect(fee).toBeGreaterThan(155_381n);
    expect(fee).toBeLessThan(400_000n);
    expect(tx.body.outputs[1]?.value.coins).toBe(40_000_000n - fee);
    const ttl = Number(tx.body.validityInterval?.invalidHereafter);
    const nowSlot = Math.floor(Date.now() / 1000) - 1_654_041_600;
    expect(ttl - nowSlot).toBeGreaterThan(7100);

    const submitted = await t.request<{ tx_hash: string }>('POST', '/accounts/deposit/submit', {
      signed_tx: t.wallet.sign(built.body.tx_hex),
    });
    expect(submitted.body).toEqual({ tx_hash: txId(built.body.tx_hex) });
    expect(await t.balances()).toMatchObject({
      ADA: { free: 0, locked: 60 },
      USDM: { free: 0, locked: 20 },
    });
    const after = await t.utxos();
    expect(after.map((u) => u.input)).toEqual([
      { tx_hash: submitted.body.tx_hash, output_index: 1 },
    ]);
    await wait(DELAY + 100);
    expect(await t.balances()).toMatchObject({
      ADA: { free: 60, locked: 0 },
      USDM: { free: 20, locked: 0 },
    });

    const replay = await t.request<{ code: number }>('POST', '/accounts/deposit/submit', {
      signed_tx: t.wallet.sign(built.body.tx_hex),
    });
    expect(replay.body.code).toBe(4302);
  });

  it('refuses bad inputs and amounts with 4000 or 4301', async () => {
    const t = await new Trader(sandbox.url).register();
    const other = await new Trader(sandbox.url).register();
    await t.faucet(20_000_000n, 0n);
    await other.faucet(20_000_000n, 0n);
    const [mine] = await t.utxos();
    const [theirs] = await other.utxos();
    const build = (deposit_amount: unknown, input_utxos: unknown) =>
      t.request<{ code: number; error: string }>('POST', '/accounts/deposit/build', {
        deposit_amount,
        input_utxos,
      });
    const unknown: InputUtxo = {
      ...(mine as InputUtxo),
      input: { tx_hash: 'ab'.repeat(32), output_index: 0 },
    };
    const misstated: InputUtxo = {
      ...(mine as InputUtxo),
      output: { ...(mine as InputUtxo).output, amount: [ada(99)] },
    };
    expect((await build([ada(5)], [unknown])).body.code).toBe(4000);
    expect((await build([ada(5)], [theirs])).body.code).toBe(4000);
    expect((await build([ada(5)], [misstated])).body.code).toBe(4000);
    expect((await build([ada(1)], [mine])).body.code).toBe(4000);
    expect((await build([ada(50)], [mine])).body.code).toBe(4000);
    expect(
      (await build([ada(5), { unit: 'ff'.repeat(30), quantity: '1' }], [mine])).body.code,
    ).toBe(4000);
    expect((await build([{ unit: 'lovelace', quantity: '5.5' }], [mine])).body.code).toBe(4000);
    expect((await build([ada(5)], [mine, mine])).body.code).toBe(4000);
    expect((await build([ada(5)], [])).body.code).toBe(4000);

    const first = await build([ada(5)], [mine]);
    const second = await build([ada(6)], [mine]);
    const firstHex = (first.body as unknown as { tx_hex: string }).tx_hex;
    const secondHex = (second.body as unknown as { tx_hex: string }).tx_hex;
    const byOperationKey = await t.request<{ code: number }>('POST', '/accounts/deposit/submit', {
      signed_tx: t.operation.sign(firstHex),
    });
    expect(byOperationKey.body.code).toBe(4407);
    expect(
      (await t.request('POST', '/accounts/deposit/submit', { signed_tx: t.wallet.sign(firstHex) }))
        .status,
    ).toBe(200);
    const spentLater = await t.request<{ code: number }>('POST', '/accounts/deposit/submit', {
      signed_tx: t.wallet.sign(secondHex),
    });
    expect(spentLater.body.code).toBe(4301);
    expect((await build([ada(5)], [mine])).body.code).toBe(4301);
  });

  it('answers 4402 for a transaction it never built for this endpoint', async () => {
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 0);
    await wait(DELAY + 100);
    const w = await t.request<{ tx_hex: string }>('POST', '/accounts/withdrawal/build', {
      withdrawal_amount: [ada(10)],
    });
    const r = await t.request<{ code: number }>('POST', '/accounts/deposit/submit', {
      signed_tx: t.wallet.sign(w.body.tx_hex),
    });
    expect(r.body.code).toBe(4402);
  });
});

describe('withdrawals', () => {
  it('pays the wallet address from the treasury, signed by the wallet key, after a delay', async () => {
    const t = await new Trader(sandbox.url).register();
    await t.fund(100, 10);
    await wait(DELAY + 100);
    const built = await t.request<{ tx_hex: string }>('POST', '/accounts/withdrawal/build', {
      withdrawal_amount: [ada(40), { unit: USDM_UNIT, quantity: '5000000' }],
    });
    expect(built.status).toBe(200);
    const tx = decodeTx(built.body.tx_hex);
    expect(tx.body.requiredExtraSignatures).toEqual([t.wallet.hash]);
    expect(tx.body.requiredExtraSignatures).not.toContain(t.operation.hash);
    // The payout, then the request at the intent address (WithdrawalIntent, one minted token).
    expect(tx.body.outputs).toHaveLength(2);
    expect(tx.body.outputs[0]?.address).toBe(t.address);
    expect(tx.body.outputs[0]?.value.coins).toBe(40_000_000n);
    expect(tx.body.outputs[1]?.datum).toBeDefined();
    expect(tx.body.mint?.size).toBe(1);

    const byOperationKey = await t.request<{ code: number }>(
      'POST',
      '/accounts/withdrawal/submit',
      { signed_tx: t.operation.sign(built.body.tx_hex) },
    );
    expect(byOperationKey.body.code).toBe(4407);
    const submitted = await t.request<{ tx_hash: string }>('POST', '/accounts/withdrawal/submit', {
      signed_tx: t.wallet.sign(built.body.tx_hex),
    });
    expect(submitted.body).toEqual({ tx_hash: txId(built.body.tx_hex) });
    expect(await t.balances()).toMatchObject({
      ADA: { free: 59, locked: 0 },
      USDM: { free: 5, locked: 0 },
    });
    const before = (await t.utxos()).map((u) => u.input.tx_hash);
    expect(before).not.toContain(submitted.body.tx_hash);
    await wait(DELAY + 100);
    const landed = (await t.utxos()).find((u) => u.input.tx_hash === submitted.body.tx_hash);
    expect(landed?.output.amount).toEqual([ada(40), { unit: USDM_UNIT, quantity: '5000000' }]);
    const replay = await t.request<{ code: number }>('POST', '/accounts/withdrawal/submit', {
      signed_tx: t.wallet.sign(built.body.tx_hex),
    });
    expect(replay.body.code).toBe(4302);
  });

  it('refuses more than the free balance with the fee (4050) and less than 2 ADA (4000)', async () => {
    const t = await new Trader(sandbox.url).register();
    await t.fund(10, 0);
    await wait(DELAY + 100);
    const r1 = await t.request<{ code: number }>('POST', '/accounts/withdrawal/build', {
      withdrawal_amount: [ada(10)],
    });
    expect(r1.body.code).toBe(4050);
    const r2 = await t.request<{ code: number }>('POST', '/accounts/withdrawal/build', {
      withdrawal_amount: [{ unit: 'lovelace', quantity: '1999999' }],
    });
    expect(r2.body.code).toBe(4000);
    const r3 = await t.request<{ code: number }>('POST', '/accounts/withdrawal/build', {
      withdrawal_amount: [ada(9)],
    });
    expect(r3.status).toBe(200);
  });
});
