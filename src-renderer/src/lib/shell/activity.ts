/** What counts as the trader using the app: a click, a key, a scroll. Mere pointer moves do not. */
const ACTIVITY_EVENTS = ['pointerdown', 'keydown', 'wheel'] as const;

/**
 * Calls `ping` when the trader uses the app, at most once per `throttleMs`, so the trading
 * session's idle countdown follows real use rather than only signatures. Returns `stop`.
 */
export const watchActivity = (
  target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>,
  ping: () => void,
  { throttleMs = 30_000, now = () => Date.now() }: { throttleMs?: number; now?: () => number } = {},
): (() => void) => {
  let last = -Infinity;
  const onActivity = () => {
    const at = now();
    if (at - last < throttleMs) return;
    last = at;
    ping();
  };
  for (const name of ACTIVITY_EVENTS) {
    target.addEventListener(name, onActivity, { passive: true, capture: true });
  }
  return () => {
    for (const name of ACTIVITY_EVENTS) {
      target.removeEventListener(name, onActivity, { capture: true });
    }
  };
};
