import type { Result } from '../result';
import { channels, eventNames, type Api, type EventName } from './index';

export type Call = (channel: string, payload: unknown) => Promise<Result<unknown>>;
export type Subscribe = (name: EventName, listener: (payload: unknown) => void) => () => void;

/**
 * Builds `window.api` from the contract: one named method per operation, nothing generic. The
 * Electron preload passes ipcRenderer.invoke; the browser harness passes its WebSocket.
 */
export const buildApi = (call: Call, subscribe: Subscribe): Api => {
  const api: Record<string, Record<string, (request?: unknown) => Promise<Result<unknown>>>> = {};
  for (const { channel, area, method } of channels) {
    const methods = (api[area] ??= {});
    methods[method] = (request?: unknown) => call(channel, request);
  }
  const on = (name: EventName, listener: (payload: unknown) => void): (() => void) => {
    if (!eventNames.includes(name)) throw new Error(`Unknown event "${String(name)}"`);
    return subscribe(name, listener);
  };
  return Object.freeze({ ...api, on }) as unknown as Api;
};

/** The IPC channel an event travels on from main to the renderer. */
export const eventChannel = (name: EventName): string => `event:${name}`;
