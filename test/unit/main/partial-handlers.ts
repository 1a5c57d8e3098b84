import type { Handlers } from '../../../src-shared/contract';

type PartialHandlers = { [A in keyof Handlers]?: Partial<Handlers[A]> };

/**
 * Tests of the binder exercise a few operations; the rest of the contract answers
 * UNKNOWN_OPERATION through the dispatcher's own check for a missing handler.
 */
export const partialHandlers = (handlers: PartialHandlers): Handlers =>
  handlers as unknown as Handlers;
