import { describe, expect, it } from 'vitest';
import { depositReserve, selectCoins } from '../../../../../src-main/app/funds/coin-selection';
import { PUBLISHED_L1_FEE } from '../../../../../src-main/app/network/rules';
import { coinsCovering, type InputUtxo } from '../../../../../src-main/chain';
import { PUBLISHED_RULES } from '../../../../../src-renderer/src/lib/funds/amounts';

/** The CIP-1852 test vector's base address on the test networks. */
const VECTOR_ADDRESS =
  'addr_test1qqy6nhfyks7wdu3dudslys37v252w2nwhv0fw2nfawemmn8k8ttq8f3gag0h89aepvx3xf69g0l9pf80tqv7cve0l33sw96paj';
const USDM = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';

const coin = (index: number, lovelace: bigint, usdm = 0n): InputUtxo => ({
  input: { tx_hash: index.toString(16).padStart(64, '0'), output_index: 0 },
  output: {
    address: VECTOR_ADDRESS,
    amount: [
      { unit: 'lovelace', quantity: lovelace.toString() },
      ...(usdm > 0n ? [{ unit: USDM, quantity: usdm.toString() }] : []),
    ],
    data_hash: null,
    plutus_data: null,
    script_ref: null,
    script_hash: null,
  },
});

const ADA = 1_000_000n;
const lovelace = (utxo: InputUtxo): bigint =>
  BigInt(utxo.output.amount.find((a) => a.unit === 'lovelace')?.quantity ?? '0');
const reserve = depositReserve(PUBLISHED_L1_FEE);

describe('depositReserve (what Max keeps back)', () => {
  it('is what the form uses where the exchange states no rules of its own', () => {
    expect(reserve.lovelace.toString()).toBe(PUBLISHED_RULES.depositReserveLovelace);
    expect(reserve.perTokenLovelace.toString()).toBe(
      PUBLISHED_RULES.depositReservePerTokenLovelace,
    );
    expect(reserve.coins).toBe(PUBLISHED_RULES.depositReserveCoins);
    expect(reserve.perCoinLovelace.toString()).toBe(PUBLISHED_RULES.depositReservePerCoinLovelace);
  });

  it('leaves enough for the coins to be chosen: all the ADA but the reserve, a token staying', async () => {
    const coins = [coin(1, 10_000n * ADA, 10_000n * ADA)];
    const amount = 10_000n * ADA - reserve.lovelace - reserve.perTokenLovelace;
    await expect(
      selectCoins(coins, new Map([['lovelace', amount]]), VECTOR_ADDRESS, PUBLISHED_L1_FEE),
    ).resolves.toHaveLength(1);
    // One more ADA and the change could not hold the USDM that stays.
    await expect(
      selectCoins(coins, new Map([['lovelace', amount + ADA]]), VECTOR_ADDRESS, PUBLISHED_L1_FEE),
    ).rejects.toThrow(/does not hold enough to deposit this and pay the network fee/);
  });

  it('leaves enough with every token deposited, from twenty coins', async () => {
    const coins = Array.from({ length: 20 }, (_, i) =>
      coin(i + 1, 500n * ADA, i === 0 ? 50n * ADA : 0n),
    );
    const amounts = new Map([
      ['lovelace', 20n * 500n * ADA - reserve.lovelace],
      [USDM, 50n * ADA],
    ]);
    await expect(
      selectCoins(coins, amounts, VECTOR_ADDRESS, PUBLISHED_L1_FEE),
    ).resolves.toHaveLength(20);
  });

  it('leaves enough from a wallet of many coins, with the fee of each coin past twenty', async () => {
    for (const count of [21, 60, 100]) {
      const coins = Array.from({ length: count }, (_, i) => coin(i + 1, 30n * ADA));
      const forCoins = reserve.perCoinLovelace * BigInt(count - reserve.coins);
      // Rounded up to 0.1 ADA, as the form keeps it.
      const kept = reserve.lovelace + ((forCoins + 99_999n) / 100_000n) * 100_000n;
      const all = BigInt(count) * 30n * ADA;
      await expect(
        selectCoins(coins, new Map([['lovelace', all - kept]]), VECTOR_ADDRESS, PUBLISHED_L1_FEE),
      ).resolves.toHaveLength(count);
    }
    // More than a hundred coins do not fit one deposit: the trader is told so, not "too little".
    const tooMany = Array.from({ length: 120 }, (_, i) => coin(i + 1, 30n * ADA));
    await expect(
      selectCoins(
        tooMany,
        new Map([['lovelace', 110n * 30n * ADA]]),
        VECTOR_ADDRESS,
        PUBLISHED_L1_FEE,
      ),
    ).rejects.toThrow(/would spend more than 100 of your wallet’s coins/);
    // Without the coins' part, a deposit of all but the twenty-coin reserve cannot be built.
    const many = Array.from({ length: 100 }, (_, i) => coin(i + 1, 30n * ADA));
    await expect(
      selectCoins(
        many,
        new Map([['lovelace', 100n * 30n * ADA - reserve.lovelace]]),
        VECTOR_ADDRESS,
        PUBLISHED_L1_FEE,
      ),
    ).rejects.toThrow(/does not hold enough/);
  });

  it('builds Max from a wallet of more than a hundred coins, from the hundred holding the most ADA', async () => {
    // 150 coins: 90 of 30 ADA, 40 of 5 ADA, 20 of 2 ADA, shuffled; one of the small ones holds USDM.
    const sizes = [
      ...Array.from({ length: 90 }, () => 30n),
      ...Array.from({ length: 40 }, () => 5n),
      ...Array.from({ length: 20 }, () => 2n),
    ];
    const shuffled = sizes
      .map((ada, i) => ({ ada, order: (i * 7919) % 150 }))
      .sort((a, b) => a.order - b.order);
    const usdmAt = shuffled.findLastIndex(({ ada }) => ada === 2n);
    const coins = shuffled.map(({ ada }, i) =>
      coin(i + 1, ada * ADA, i === usdmAt ? 40n * ADA : 0n),
    );
    const richest = [...coins].sort((a, b) => Number(lovelace(b) - lovelace(a))).slice(0, 100);
    const inOneTransaction = richest.reduce((sum, c) => sum + lovelace(c), 0n);
    expect(inOneTransaction).toBe((90n * 30n + 10n * 5n) * ADA);
    // What the form's Max fills in: those coins' ADA less the reserve for spending a hundred.
    const forCoins = reserve.perCoinLovelace * BigInt(100 - reserve.coins);
    const kept = reserve.lovelace + ((forCoins + 99_999n) / 100_000n) * 100_000n;
    const chosen = await selectCoins(
      coins,
      new Map([['lovelace', inOneTransaction - kept]]),
      VECTOR_ADDRESS,
      PUBLISHED_L1_FEE,
    );
    expect(chosen).toHaveLength(100);
    expect(new Set(chosen)).toEqual(new Set(richest));
    // Max with all the USDM too: the hundred led by the small coin holding it (what the wallet's
    // balance states for that token) hold 3 ADA less, and that is what is built.
    const led = coinsCovering(coins, new Set([USDM]));
    expect(led[0]).toBe(coins[usdmAt]);
    const ledAda = led.reduce((sum, c) => sum + lovelace(c), 0n);
    expect(ledAda).toBe(inOneTransaction - 3n * ADA);
    const withUsdm = await selectCoins(
      coins,
      new Map([
        ['lovelace', ledAda - kept],
        [USDM, 40n * ADA],
      ]),
      VECTOR_ADDRESS,
      PUBLISHED_L1_FEE,
    );
    expect(withUsdm).toHaveLength(100);
    expect(withUsdm).toContain(coins[usdmAt]);
    // The richest hundred's figure with the USDM would not fit one transaction.
    await expect(
      selectCoins(
        coins,
        new Map([
          ['lovelace', inOneTransaction - kept],
          [USDM, 40n * ADA],
        ]),
        VECTOR_ADDRESS,
        PUBLISHED_L1_FEE,
      ),
    ).rejects.toThrow(/would spend more than 100 of your wallet’s coins/);
    // Past what a hundred coins hold: one transaction cannot carry it, and the trader is told so.
    await expect(
      selectCoins(
        coins,
        new Map([['lovelace', inOneTransaction]]),
        VECTOR_ADDRESS,
        PUBLISHED_L1_FEE,
      ),
    ).rejects.toThrow(/would spend more than 100 of your wallet’s coins/);
    // Past what the whole wallet holds: too little, whatever the coins.
    await expect(
      selectCoins(coins, new Map([['lovelace', 3_000n * ADA]]), VECTOR_ADDRESS, PUBLISHED_L1_FEE),
    ).rejects.toThrow(/does not hold enough/);
  });
});
