import { createServer, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { LiveFeed } from '../../../../../src-main/app/network/live-feed';
import { ExchangeClient } from '../../../../../src-main/exchange';

/** A port on this machine that nothing listens on: every connection to it is refused. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe('a feed that cannot reach the exchange', () => {
  it('tells the connection what is wrong with it, the same whichever read met it', async () => {
    const client = new ExchangeClient(
      {
        baseUrl: `http://127.0.0.1:${await closedPort()}`,
        apiKey: '0123456789abcdef0123456789abcdef',
      },
      { retry: { attempts: 1 } },
    );
    const reports: Array<{ state: string; detail: string }> = [];
    const feedOf = (poll: () => Promise<unknown>) =>
      new LiveFeed({
        openStream: () => null,
        poll: async () => void (await poll()),
        pollEveryMs: 60_000,
        onState: (state, detail) => reports.push({ state, detail }),
        setTimer: () => setTimeout(() => undefined, 0),
      });
    // The balances (Funds) and the open orders (Trade) fail on the same refused connection.
    const feeds = [
      feedOf(() => client.balances()),
      feedOf(() => client.orderRecords({ status: 'open', page: 1, limit: 250 })),
    ];
    for (const feed of feeds) feed.start();
    await expect
      .poll(() => reports.filter((r) => r.state === 'offline').length, { timeout: 10_000 })
      .toBe(2);
    for (const feed of feeds) feed.stop();
    const offline = reports.filter((r) => r.state === 'offline').map((r) => r.detail);
    expect(new Set(offline)).toEqual(
      new Set([
        "Countersign could not reach the exchange: the connection was refused. Check your internet connection and the exchange's address in Settings, then try again.",
      ]),
    );
  });
});
