import { describe, expect, it, vi } from 'vitest';
import { ADA_USDM, fakeApi, NIGHT_USDM } from '../trade/fake-api';
import { MarketList } from './markets.svelte';

/**
 * Main's market list: each read is answered with what the exchange has when it is asked, once
 * the test releases it (`release`, oldest first); `reads` counts them.
 */
const gatedMain = (answer: () => unknown[]) => {
  const waiting: Array<() => void> = [];
  const fake = fakeApi({
    'market:markets': async () => {
      const list = answer();
      await new Promise<void>((resolve) => waiting.push(resolve));
      return list;
    },
  });
  const reads = () => fake.calls.filter((c) => c.channel === 'market:markets').length;
  const release = async () => {
    await vi.waitFor(() => expect(waiting.length).toBeGreaterThan(0));
    waiting.shift()?.();
  };
  return { fake, reads, release };
};

describe('MarketList, the window’s one list of markets', () => {
  it('reads once for every screen that asks, then answers from what it holds', async () => {
    const main = gatedMain(() => [ADA_USDM, NIGHT_USDM]);
    const markets = new MarketList(main.fake.api);
    const trade = markets.read();
    const orders = markets.read();
    await main.release();
    expect((await trade).map((m) => m.symbol)).toEqual(['ADAUSDM', 'NIGHTUSDM']);
    expect(await orders).toBe(await trade);
    expect(markets.list.map((m) => m.base)).toEqual(['ADA', 'NIGHT']);
    await markets.read();
    expect(main.reads()).toBe(1);
  });

  it('says why it could not read, and asks again the next time', async () => {
    let fail = true;
    const fake = fakeApi({
      'market:markets': () => {
        if (fail) throw new Error('The exchange did not answer. Check your connection.');
        return [ADA_USDM];
      },
    });
    const markets = new MarketList(fake.api);
    await expect(markets.read()).rejects.toThrow(
      'The exchange did not answer. Check your connection.',
    );
    expect(markets.list).toEqual([]);
    fail = false;
    expect((await markets.read()).map((m) => m.symbol)).toEqual(['ADAUSDM']);
  });

  it('leaves out a market main could not describe rather than guess it', async () => {
    const fake = fakeApi({
      'market:markets': () => [ADA_USDM, { ...NIGHT_USDM, priceDecimals: 'four' }],
    });
    const markets = new MarketList(fake.api);
    expect((await markets.read()).map((m) => m.symbol)).toEqual(['ADAUSDM']);
  });

  it('on another exchange, reads that exchange’s markets and never shows the old ones', async () => {
    let exchange = 'sandbox';
    const main = gatedMain(() => (exchange === 'sandbox' ? [ADA_USDM, NIGHT_USDM] : [ADA_USDM]));
    const markets = new MarketList(main.fake.api);
    const early = markets.read();
    await vi.waitFor(() => expect(main.reads()).toBe(1));
    // The trader switches exchanges while the first read is still out: the new one is read.
    exchange = 'staging';
    markets.forget();
    await vi.waitFor(() => expect(main.reads()).toBe(2));
    await main.release();
    await early;
    expect(markets.list).toEqual([]);
    await main.release();
    await vi.waitFor(() => expect(markets.list.map((m) => m.symbol)).toEqual(['ADAUSDM']));
  });

  it('forgets a list nobody has read without asking main', () => {
    const main = gatedMain(() => [ADA_USDM]);
    new MarketList(main.fake.api).forget();
    expect(main.reads()).toBe(0);
  });
});
