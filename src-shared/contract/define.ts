import type { z } from 'zod';

/**
 * One operation of the IPC contract: the zod schema its request must pass in main, and (as a
 * type only) what it answers. The channel is `<area>:<method>`, derived from where the entry sits
 * in the contract, so a name can never drift from its schema.
 */
export interface Operation<Req extends z.ZodType, Res> {
  readonly request: Req;
  /** Phantom: carries the response type; never read at run time. */
  readonly response?: Res;
}

export const operation = <Res>() => ({
  request: <Req extends z.ZodType>(request: Req): Operation<Req, Res> => ({ request }),
});

/** An event pushed from main to the renderer, with the schema of its payload. */
export interface EventDef<P extends z.ZodType> {
  readonly payload: P;
}

export const event = <P extends z.ZodType>(payload: P): EventDef<P> => ({ payload });

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- variance: any operation fits
export type AnyOperation = Operation<z.ZodType, any>;
export type Area = Readonly<Record<string, AnyOperation>>;
export type ContractShape = Readonly<Record<string, Area>>;
export type EventsShape = Readonly<Record<string, EventDef<z.ZodType>>>;

export type RequestOf<O> = O extends Operation<infer Req, unknown> ? z.input<Req> : never;
export type ParsedRequestOf<O> = O extends Operation<infer Req, unknown> ? z.output<Req> : never;
export type ResponseOf<O> = O extends Operation<z.ZodType, infer Res> ? Res : never;
export type PayloadOf<E> = E extends EventDef<infer P> ? z.output<P> : never;
