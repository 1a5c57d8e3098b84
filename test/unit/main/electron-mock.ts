import { vi } from 'vitest';

/** A recording stand-in for a WebContents: remembers listeners and the window-open handler. */
export const fakeWebContents = (id = 1) => {
  const listeners = new Map<string, Array<(event: { preventDefault(): void }) => void>>();
  let openHandler: ((details: { url: string }) => { action: string }) | null = null;
  return {
    id,
    listeners,
    on: vi.fn((name: string, listener: (event: { preventDefault(): void }) => void) => {
      listeners.set(name, [...(listeners.get(name) ?? []), listener]);
    }),
    setWindowOpenHandler: vi.fn((handler: (details: { url: string }) => { action: string }) => {
      openHandler = handler;
    }),
    openWindow: (url: string) => openHandler?.({ url }),
    send: vi.fn(),
    mainFrame: { processId: 7, routingId: 1, url: 'app://countersign/', parent: null },
    /** Fires an event and reports whether a listener prevented it. */
    fire(name: string): boolean {
      let prevented = false;
      for (const listener of listeners.get(name) ?? []) {
        listener({ preventDefault: () => (prevented = true) });
      }
      return prevented;
    },
  };
};
