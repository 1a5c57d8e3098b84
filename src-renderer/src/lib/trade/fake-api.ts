import type { Api, EventName, Events } from '../../../../src-shared/contract';
import type { PayloadOf } from '../../../../src-shared/contract/define';
import type { Execution, Market, Order } from '../../../../src-shared/domain';
import type { Serialized } from '../../../../src-shared/domain/amount';
import { ErrorCode } from '../../../../src-shared/errors';
import { FakeMain, mainError, MainError, type Channel } from '../testing/fake-main';

/**
 * For component and rune tests only: the fake main process (`FakeMain`, whose `window.api` is
 * built from the contract as the preload builds it) answering from a plain map of channels
 * (`'market:depth'`) to answers. An answer `{ error }`, or a handler that throws, answers the
 * failure main gives when the exchange refuses; a channel the test did not answer fails the way
 * main does while a service is missing.
 */
type Handler = (request: unknown) => unknown;

export interface FakeApi {
  api: Api;
  calls: FakeMain['calls'];
  emit<E extends EventName>(name: E, payload: Serialized<PayloadOf<Events[E]>>): void;
  listeners(name: EventName): number;
}

export const fakeApi = (answers: Record<string, Handler | { error: string }> = {}): FakeApi => {
  const main = new FakeMain();
  for (const [channel, answer] of Object.entries(answers)) {
    main.handle(channel as Channel, async (request: unknown) => {
      if (typeof answer !== 'function') throw mainError(ErrorCode.Exchange, answer.error);
      try {
        return (await answer(request)) as never;
      } catch (error) {
        if (error instanceof MainError) throw error;
        throw mainError(ErrorCode.Exchange, error instanceof Error ? error.message : 'failed');
      }
    });
  }
  return {
    api: main.api,
    calls: main.calls,
    emit: (name, payload) => main.emit(name, payload),
    listeners: (name) => main.listenerCount(name),
  };
};

export const ADA_USDM: Serialized<Market> = {
  symbol: 'ADAUSDM',
  base: 'ADA',
  quote: 'USDM',
  baseUnit: 'lovelace',
  quoteUnit: 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d',
  priceDecimals: 4,
  quantityDecimals: 4,
  minOrderAdaEquivalent: '5',
  commissionRateBp: 10,
};

export const NIGHT_USDM: Serialized<Market> = {
  ...ADA_USDM,
  symbol: 'NIGHTUSDM',
  base: 'NIGHT',
  baseUnit: '0691b2fecca1ac4f53cb6dfb00b7013e561d1f34403b957cbb5af1fa4e49474854',
};

const level = (price: string, quantity: string) => ({ price, quantity });

export const depthOf = (
  symbol = 'ADAUSDM',
  timestamp = 1_700_000_000_000,
  asks: Array<[string, string]> = [
    ['0.6513', '100'],
    ['0.6526', '250'],
    ['0.6539', '400'],
  ],
  bids: Array<[string, string]> = [
    ['0.6487', '150'],
    ['0.6474', '300'],
    ['0.6461', '50'],
  ],
) => ({
  symbol,
  timestamp,
  asks: asks.map(([p, q]) => level(p, q)),
  bids: bids.map(([p, q]) => level(p, q)),
});

let counter = 0;

/** An order record as main serialises it, with sensible defaults for a resting limit buy. */
export const orderOf = (overrides: Partial<Serialized<Order>> = {}): Serialized<Order> => {
  counter++;
  const id = overrides.id ?? `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`;
  return {
    id,
    accountId: '11111111-1111-4111-8111-111111111111',
    symbol: 'ADAUSDM',
    side: 'buy',
    type: 'limit',
    status: 'open',
    price: '0.6400',
    baseQty: '100',
    quoteQty: '64',
    lockedBaseQty: '0',
    lockedQuoteQty: '64',
    executedBaseQty: '0',
    executedQuoteQty: '0',
    executedPrice: null,
    openBaseQty: '100',
    marketOrderLimitPrice: null,
    slippageBp: null,
    commission: '0',
    commissionRateBp: 10,
    commissionUnit: 'lovelace',
    activeOrderUtxoId: `${'ab'.repeat(32)}#0`,
    createdAt: '2025-03-01T12:00:00.000Z',
    updatedAt: '2025-03-01T12:00:00.000Z',
    executions: [],
    ...overrides,
  };
};

/** An execution record as main serialises it: a taker's fill of 10 ADA at 0.65 by default. */
export const executionOf = (
  overrides: Partial<Serialized<Execution>> & Pick<Serialized<Execution>, 'id'>,
): Serialized<Execution> => ({
  orderId: 'o-1',
  accountId: null,
  counterPartyOrderId: null,
  price: '0.65',
  baseQty: '10',
  quoteQty: '6.5',
  commission: '0.01',
  commissionUnit: 'lovelace',
  role: 'taker',
  createdAt: '2025-03-01T12:00:01.000Z',
  ...overrides,
});

/** A successful `operations` result for the runner fakes. */
export const operationResult = (title = 'Buy 100 ADA at 0.6400 USDM') => ({
  operationId: '22222222-2222-4222-8222-222222222222',
  kind: 'place-order' as const,
  title,
  txHash: 'cd'.repeat(32),
  order: null,
});
