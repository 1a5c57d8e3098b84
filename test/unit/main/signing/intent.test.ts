import { Cardano } from '@cardano-sdk/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  checkIntent,
  decodeTransaction,
  type ExchangeProfile,
  type PlaceOrderIntent,
} from '../../../../src-main/signing';
import { Money } from '../../../../src-shared/money';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  ADA,
  buyOrder,
  decodeContextOf,
  deposit,
  INTENT_TOKEN,
  makeParties,
  mutate,
  sellOrder,
  termsOf,
  USDM,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';

let p: Parties;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
});

const check = (
  hex: string,
  intent: Parameters<typeof checkIntent>[1],
  profile: ExchangeProfile = p.profile,
) => checkIntent(decodeTransaction(hex, decodeContextOf(p, profile)), intent, profile);

describe('an order checked against what the trader typed', () => {
  it('accepts a buy locking exactly ⌈size × price⌉ of the quote', () => {
    const { txHex, intent } = buyOrder(p);
    expect(check(txHex, intent)).toEqual({ differences: [], warnings: [] });
  });

  it('refuses an order output carrying more ADA than its minimum besides the quote', () => {
    const { intent } = buyOrder(p);
    const hex = buyOrder(
      p,
      {},
      new Map([
        ['lovelace', 30n * ADA],
        [USDM, 50n * ADA],
      ]),
    ).txHex;
    expect(check(hex, intent).differences).toEqual([
      'Output 0 (the order) also locks 30 ADA, more than its 2 ADA minimum (only what you asked for may leave your keys).',
    ]);
  });

  it('accepts a price within 10^-9 of the typed one, not a tick away', () => {
    const { intent } = sellOrder(p);
    expect(check(sellOrder(p, { priceTimes1e9: 500_000_001n }).txHex, intent).differences).toEqual(
      [],
    );
    expect(check(sellOrder(p, { priceTimes1e9: 500_100_000n }).txHex, intent).differences).toEqual([
      expect.stringMatching(/^The order’s price is 0\.5001 USDM instead of 0\.5 USDM/),
    ]);
  });

  it('a market buy with a limit may state a better limit, never a worse one', () => {
    const { txHex } = buyOrder(p);
    const market = (limit: string): PlaceOrderIntent => {
      const { intent } = buyOrder(p);
      return { ...intent, terms: { ...termsOf(intent), type: 'market', price: new Money(limit) } };
    };
    expect(check(txHex, market('0.26')).differences).toEqual([]);
    expect(check(txHex, market('0.24')).differences).toEqual([
      expect.stringMatching(
        /^The market order may fill at 0\.25 USDM, worse than the 0\.24 USDM you accept/,
      ),
    ]);
  });

  it('a market buy without a limit locks up to what the trader allowed, never more', () => {
    const unlimited = (lock: bigint): PlaceOrderIntent => {
      const { intent } = buyOrder(p);
      return {
        ...intent,
        lock: { unit: USDM, quantity: lock, upTo: true },
        terms: { ...termsOf(intent), type: 'market', price: null },
      };
    };
    const hex = buyOrder(p, { priceTimes1e9: 0n }, new Map([[USDM, 80n * ADA]])).txHex;
    expect(check(hex, unlimited(100n * ADA)).differences).toEqual([]);
    expect(check(hex, unlimited(79n * ADA)).differences).toEqual([
      'Output 0 (the order) locks 80 USDM instead of at most 79 USDM (only what you asked for may leave your keys).',
    ]);
    // The same datum for a trader who typed a limit order: any price is not what they asked.
    expect(check(hex, buyOrder(p).intent).differences).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^The order’s price is 0 USDM instead of 0\.25 USDM/),
      ]),
    );
  });

  it('refuses an order whose intent output holds no intent token, or two', () => {
    const { txHex, intent } = sellOrder(p);
    for (const tokens of [0n, 2n]) {
      const hex = mutate(txHex, (b) => {
        const assets = new Map(tokens ? [[Cardano.AssetId(INTENT_TOKEN), tokens]] : []);
        (b.outputs[0] as Cardano.TxOut).value = { coins: 100n * ADA, assets };
      });
      expect(check(hex, intent).differences).toContain(
        'Output 0 (the order) does not hold exactly one intent token (nothing unexplained may ride along).',
      );
    }
  });
});

describe('what the profile does not know', () => {
  const lacking = (profile: ExchangeProfile) => {
    const { txHex, intent } = sellOrder(p);
    return check(txHex, { ...intent }, profile);
  };
  const withoutFacts = (network: ExchangeProfile['network']): ExchangeProfile => {
    const { accountId: _a, tradingFeeBp: _f, ...rest } = p.profile;
    // The sandbox-built transaction counts slots from the sandbox's slot 0.
    return { ...rest, network, slotZeroUnixSeconds: 1_654_041_600 };
  };

  it('is refused on the sandbox and production by default, naming each gap', () => {
    for (const network of ['sandbox', 'production'] as const) {
      const report = lacking(withoutFacts(network));
      expect(report.warnings).toEqual([]);
      expect(report.differences).toEqual([
        'Countersign could not verify the order’s account’s id, because your account id at the exchange is not known, and your setting for this network refuses orders it cannot verify.',
        'Countersign could not verify the order’s fee rate, because the exchange’s published rate is not known, and your setting for this network refuses orders it cannot verify.',
      ]);
    }
  });

  it('is a warning on staging by default', () => {
    const report = lacking(withoutFacts('staging'));
    expect(report.differences).toEqual([]);
    expect(report.warnings).toHaveLength(2);
  });

  it('deposits are checked strictly everywhere: no known deposit address is a difference', () => {
    const real: ExchangeProfile = { ...p.profile, network: 'staging', addresses: {} };
    const { txHex, intent } = deposit(p);
    const report = check(txHex, intent, real);
    expect(report.differences).toContain(
      'The exchange’s deposit address is not known, so the destination cannot be checked (only what you asked for may leave your keys).',
    );
    expect(report.warnings).toEqual([]);
  });
});
