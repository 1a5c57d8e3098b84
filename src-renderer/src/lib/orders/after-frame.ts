/** The callbacks waiting for the task after a frame, in order, and the channel that runs them. */
const waiting: Array<() => void> = [];
let channel: MessageChannel | undefined;

const runWaiting = (): void => {
  try {
    for (let k = 0; k < waiting.length; k++) waiting[k]?.();
  } finally {
    waiting.length = 0;
  }
};

/**
 * Runs `callback` once the page has drawn the next frame: what it writes is drawn in the frame
 * after the one that draws what the page holds now. Returns a function that stops it.
 *
 * Not `requestAnimationFrame` alone: a frame's callback asked for while that frame is being
 * made (from a scroll event, which Chromium dispatches just before the frame's animation
 * callbacks) runs in the same frame, so its writes would be laid out with those it was meant
 * to follow. The frame's callback instead posts a task, which runs after the frame is drawn
 * (a frame's callbacks, style, layout and paint are one task). One channel serves every call:
 * a channel each would be objects the page's collector must finalize.
 */
export function afterFrame(callback: () => void): () => void {
  let stopped = false;
  const frame = requestAnimationFrame(() => {
    if (!channel) {
      channel = new MessageChannel();
      channel.port1.onmessage = runWaiting;
    }
    waiting.push(() => {
      if (!stopped) callback();
    });
    channel.port2.postMessage(null);
  });
  return () => {
    stopped = true;
    cancelAnimationFrame(frame);
  };
}
