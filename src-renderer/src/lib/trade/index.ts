/** What other screens (Orders) use of the Trade area. */
export {
  fixed,
  trimmed,
  clockTime,
  dateTime,
  pairLabel,
  SIDE_ARROW,
  SIDE_TEXT,
  STATUS_TEXT,
  NONE,
} from './format';
export { default as Num } from './Num.svelte';
export { default as Pane } from './Pane.svelte';
export { OrderActions, NO_RUNNER } from './order-actions.svelte';
export { TRADE_SHORTCUTS, TRADE_SHORTCUT_GROUPS } from './shortcuts';
