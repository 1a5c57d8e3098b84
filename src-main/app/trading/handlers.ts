import type { Handlers } from '../../../src-shared/contract';
import type { TradingService } from './service';

export const tradingHandlers = (trading: TradingService): Handlers['trading'] => ({
  preview: (order) => trading.preview(order),
  prepareOrder: (order) => trading.prepareOrder(order),
  prepareCancel: (request) => trading.prepareCancel(request),
  cancelAll: (request) => trading.cancelAll(request),
});
