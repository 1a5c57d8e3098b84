import * as CSL from '@emurgo/cardano-serialization-lib-nodejs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction, readIntentDatum, readPlutusData } from '../../../../src-main/signing';
import {
  accountKeyOf,
  paymentSigningKeyOf,
  recoveryPhraseEntropy,
  rootKeyFromEntropy,
} from '../../../../src-main/wallet';
import { startSandbox, type RunningSandbox } from '../../../../src-sandbox/index';
import {
  depositRequest,
  encodePlutusData,
  placeOrderIntent,
  withdrawalIntent,
  type PlutusData,
} from '../../../../src-sandbox/intent-layout';
import { parseSignedTx } from '../../../../src-sandbox/transactions';
import {
  encryptedFixtureOperationKey,
  fixtureOperationKeyBytes,
  makeParties,
  USDM,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';
import { SandboxTrader, USDM_UNIT } from '../../../fixtures/cardano/sandbox-session';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../fixtures/cardano/wallet-services';
import { tempDir } from '../../sandbox/helpers';

/**
 * A second, independent Cardano library: @emurgo/cardano-serialization-lib, through which the real
 * service's own SDKs sign. A transaction the sandbox builds and CSL signs is accepted by the
 * sandbox exactly like the one the app signs (same id, same witness), and the app reads CSL's
 * encoding of the published datums as it reads the sandbox's.
 */
let sandbox: RunningSandbox;
let world: WalletWorld;
let trader: SandboxTrader;
let p: Parties;
const ADA = 1_000_000n;

const cslSign = (txHex: string, extendedKey: Uint8Array): string => {
  const tx = CSL.FixedTransaction.from_hex(txHex);
  tx.sign_and_add_vkey_signature(CSL.PrivateKey.from_extended_bytes(extendedKey));
  return tx.to_hex();
};

const paymentKeyBytes = (): Uint8Array =>
  paymentSigningKeyOf(
    accountKeyOf(rootKeyFromEntropy(recoveryPhraseEntropy(VECTOR_PHRASE.split(' ')))),
  );

/** The same signature: both parse to the same id and witnesses in the sandbox's own reader. */
const sameSignature = (a: string, b: string): void => {
  const x = parseSignedTx(a);
  const y = parseSignedTx(b);
  expect(x.txId).toBe(y.txId);
  expect(x.witnesses).toEqual(y.witnesses);
  expect(x.witnesses).toHaveLength(1);
};

beforeAll(async () => {
  sandbox = await startSandbox({
    dataDir: tempDir(),
    port: 0,
    marketMaker: false,
    confirmationDelayMs: 0,
    withdrawalDelayMs: 0,
    rateLimit: false,
  });
  world = await walletWorld();
  const wallet = await world.wallet.restore({
    name: 'Main',
    words: VECTOR_PHRASE,
    password: STRONG_PASSWORD,
  });
  p = makeParties();
  await world.wallet.importExchangeOperationKey({
    walletId: wallet.id,
    encryptedOperationKey: encryptedFixtureOperationKey('trading password'),
    operationKeyHash: p.operationKey.keyHash,
    tradingPassword: 'trading password',
    spendingPassword: STRONG_PASSWORD,
  });
  await world.session.unlock(STRONG_PASSWORD);
  trader = await new SandboxTrader(
    sandbox.url,
    p.user.baseAddress,
    p.operationKey.keyHash,
    sandbox.adminToken,
  ).join();
}, 60_000);
afterAll(async () => {
  await trader?.close();
  await sandbox?.close();
  await world?.cleanup();
});

describe('a second library signs what the sandbox builds', () => {
  it('deposit, order, cancel and withdrawal: CSL’s signature is the app’s, and the sandbox takes either', async () => {
    const coins = await trader.faucet(1000n * ADA, 500n * ADA);
    const d = await trader.buildDeposit(
      new Map([
        ['lovelace', 600n * ADA],
        [USDM_UNIT, 400n * ADA],
      ]),
      [coins],
    );
    const appDeposit = (
      await world.signer.signFunds(d.txHex, d.intent, trader.profile, STRONG_PASSWORD)
    ).signedTxHex;
    const cslDeposit = cslSign(d.txHex, paymentKeyBytes());
    sameSignature(appDeposit, cslDeposit);
    expect((await trader.submitFunds('deposit', cslDeposit)).status).toBe(200);
    // The app's is the same transaction: already submitted.
    expect((await trader.submitFunds('deposit', appDeposit)).body).toMatchObject({ code: 4302 });

    for (const first of ['app', 'csl'] as const) {
      const built = await trader.buildLimitOrder({ side: 'buy', quantity: '100', price: '0.5' });
      const app = (await world.signer.signTrade(built.txHex, built.intent, trader.profile))
        .signedTxHex;
      const csl = cslSign(built.txHex, fixtureOperationKeyBytes());
      sameSignature(app, csl);
      // The app reads CSL's signed transaction as it reads its own.
      expect(
        decodeTransaction(csl, { networkId: 0, own: { addresses: [p.user.baseAddress] } }).id,
      ).toBe(parseSignedTx(app).txId);
      const [one, other] = first === 'app' ? [app, csl] : [csl, app];
      const placed = await trader.submitOrder(built.orderId, one);
      expect(placed.status).toBe(200);
      expect((await trader.submitOrder(built.orderId, other)).body).toMatchObject({ code: 4302 });

      const cancel = await trader.buildCancel(placed.body.order);
      const appCancel = (await world.signer.signTrade(cancel.txHex, cancel.intent, trader.profile))
        .signedTxHex;
      const cslCancel = cslSign(cancel.txHex, fixtureOperationKeyBytes());
      sameSignature(appCancel, cslCancel);
      expect((await trader.submitCancel(first === 'app' ? appCancel : cslCancel)).status).toBe(200);
    }

    const w = await trader.buildWithdrawal(new Map([['lovelace', 10n * ADA]]), new Set());
    const appW = (
      await world.signer.signFunds(w.txHex, w.intent, trader.profile, STRONG_PASSWORD, {
        coins: trader.chain(),
      })
    ).signedTxHex;
    const cslW = cslSign(w.txHex, paymentKeyBytes());
    sameSignature(appW, cslW);
    expect((await trader.submitFunds('withdrawal', cslW)).status).toBe(200);
  });
});

/** The sandbox's model of Plutus data written with CSL's own PlutusData API. */
const toCsl = (d: PlutusData): CSL.PlutusData => {
  if (typeof d === 'bigint') return CSL.PlutusData.new_integer(CSL.BigInt.from_str(d.toString()));
  if (d instanceof Uint8Array) return CSL.PlutusData.new_bytes(d);
  if ('constr' in d) {
    const fields = CSL.PlutusList.new();
    for (const f of d.fields) fields.add(toCsl(f));
    return CSL.PlutusData.new_constr_plutus_data(
      CSL.ConstrPlutusData.new(CSL.BigNum.from_str(String(d.constr)), fields),
    );
  }
  if ('pairs' in d) {
    const map = CSL.PlutusMap.new();
    for (const [k, v] of d.pairs) {
      const values = CSL.PlutusMapValues.new();
      values.add(toCsl(v));
      map.insert(toCsl(k), values);
    }
    return CSL.PlutusData.new_map(map);
  }
  const list = CSL.PlutusList.new();
  for (const item of d) list.add(toCsl(item));
  return CSL.PlutusData.new_list(list);
};

describe('the app reads CSL’s encoding of the published datums', () => {
  it('an order, a withdrawal and a deposit request read the same from either library', () => {
    const datums: PlutusData[] = [
      placeOrderIntent({
        orderId: '3f1c1e6e-1d0a-4c1b-9b1e-2f7f6f9d1a01',
        longUnit: 'lovelace',
        shortUnit: USDM,
        isLong: true,
        priceTimes1e9: 650_000_000n,
        size: 10n * ADA,
        feeBp: 10,
        account: p.keys,
      }),
      withdrawalIntent(
        p.keys,
        new Map([
          ['lovelace', 5n * ADA],
          [USDM, 7n],
        ]),
      ),
      depositRequest(p.keys, new Map([['lovelace', 5n * ADA]])),
    ];
    for (const d of datums) {
      const ours = encodePlutusData(d);
      const theirs = toCsl(d).to_bytes();
      // Both libraries follow the same convention (indefinite lists, tags 121…): the same bytes.
      expect(Buffer.from(theirs).toString('hex')).toBe(Buffer.from(ours).toString('hex'));
      const read = readPlutusData(theirs);
      expect(read).toEqual(readPlutusData(ours));
      const intent = readIntentDatum(read);
      if (intent.ok) expect(intent).toEqual(readIntentDatum(readPlutusData(ours)));
    }
    expect(
      readIntentDatum(readPlutusData(toCsl(datums[0] as PlutusData).to_bytes())),
    ).toMatchObject({
      ok: true,
      value: { intent: 'place-order', order: { isLong: true, priceTimes1e9: 650_000_000n } },
    });
  });
});
