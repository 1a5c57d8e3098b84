/**
 * An attachment for an answer that appears below what the trader acted on, in a dialog or panel
 * that scrolls: the answer is brought into sight when it appears, so a refusal is never left
 * below the fold while the button the trader pressed looks as if nothing happened. With `field`,
 * that field also takes the keyboard (to type the password again, say).
 */
export const inSight =
  (field?: () => HTMLElement | null | undefined) =>
  (node: HTMLElement): void => {
    field?.()?.focus({ preventScroll: true });
    node.scrollIntoView?.({ block: 'nearest' });
  };
