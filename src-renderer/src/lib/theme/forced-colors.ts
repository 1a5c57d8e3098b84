/**
 * The system's forced colours (a high-contrast theme of the system). The page's own texts,
 * borders and backgrounds take the system's colours there by themselves; what the app draws on a
 * canvas does not, so the canvases ask here: `matches` says whether they are on now, and the
 * list's `change` event says when they are switched on or off.
 */
export const forcedColors = (): MediaQueryList | undefined =>
  globalThis.matchMedia?.('(forced-colors: active)');

/** A system colour (`CanvasText`, `Canvas`, `GrayText`…) as the colour it is now, for a canvas. */
export const systemColor = (keyword: string): string => {
  const probe = document.createElement('span');
  probe.style.cssText = `forced-color-adjust: none; color: ${keyword}`;
  document.body.append(probe);
  const color = getComputedStyle(probe).color;
  probe.remove();
  return color;
};
