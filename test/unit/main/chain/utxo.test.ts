import { describe, expect, it } from 'vitest';
import {
  coinsCovering,
  MOST_COINS_SPENT,
  richestCoins,
  type InputUtxo,
} from '../../../../src-main/chain';

const coin = (index: number, lovelace: bigint, token = 0n): InputUtxo => ({
  input: { tx_hash: index.toString(16).padStart(64, '0'), output_index: index % 3 },
  output: {
    address: 'addr_test1vqexample',
    amount: [
      { unit: 'lovelace', quantity: lovelace.toString() },
      ...(token > 0n ? [{ unit: `${'ab'.repeat(28)}55534444`, quantity: token.toString() }] : []),
    ],
    data_hash: null,
    plutus_data: null,
    script_ref: null,
    script_hash: null,
  },
});

const ada = (utxo: InputUtxo) => utxo.output.amount[0]?.quantity;

describe('richestCoins (what one transaction can spend)', () => {
  it('is every coin, most ADA first, from a wallet of no more than a hundred', () => {
    const coins = [coin(1, 5n), coin(2, 50n), coin(3, 20n, 1_000n)];
    expect(richestCoins(coins).map(ada)).toEqual(['50', '20', '5']);
    // The wallet's own list is left as it was.
    expect(coins.map(ada)).toEqual(['5', '50', '20']);
  });

  it('is the hundred holding the most ADA from a wallet of more, whatever their tokens', () => {
    const coins = Array.from({ length: 130 }, (_, i) =>
      coin(i + 1, BigInt(((i * 37) % 130) + 1) * 1_000_000n, i % 2 === 0 ? 7n : 0n),
    );
    const chosen = richestCoins(coins);
    expect(chosen).toHaveLength(MOST_COINS_SPENT);
    // 130 coins of 1 to 130 ADA: the hundred from 31 ADA up.
    expect(chosen.map((c) => Number(ada(c)) / 1_000_000)).toEqual(
      Array.from({ length: 100 }, (_, k) => 130 - k),
    );
  });
});

describe('coinsCovering (what one transaction moving a token can spend)', () => {
  const TOKEN = `${'ab'.repeat(28)}55534444`;

  it('takes the coins holding the token first, then the richest, a hundred in all', () => {
    // 130 coins of 1 to 130 ADA; the three smallest hold the token.
    const coins = Array.from({ length: 130 }, (_, i) =>
      coin(i + 1, BigInt(i + 1), i < 3 ? 5n : 0n),
    );
    const chosen = coinsCovering(coins, new Set([TOKEN]));
    expect(chosen).toHaveLength(MOST_COINS_SPENT);
    expect(chosen.slice(0, 3).map(ada)).toEqual(['3', '2', '1']);
    expect(chosen.slice(3).map(ada)).toEqual(Array.from({ length: 97 }, (_, k) => `${130 - k}`));
  });

  it('is the richest coins when no token moves', () => {
    const coins = [coin(1, 5n, 9n), coin(2, 50n), coin(3, 20n)];
    expect(coinsCovering(coins, new Set()).map(ada)).toEqual(['50', '20', '5']);
    expect(coinsCovering(coins, new Set(), 2).map(ada)).toEqual(['50', '20']);
  });
});
