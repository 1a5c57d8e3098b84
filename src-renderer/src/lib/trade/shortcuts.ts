/**
 * The Trade screen's keyboard: single keys act only when no text field has the focus (so typing
 * a quantity never switches the side), Ctrl+Enter works from anywhere on the screen. The shell's
 * help panel (`?`) lists TRADE_SHORTCUTS.
 */
export type TradeAction =
  | 'submit'
  | 'buy'
  | 'sell'
  | 'limit'
  | 'market'
  | 'focus-book'
  | 'focus-price'
  | 'focus-quantity'
  | 'cancel-selected';

/** Where on the Trade screen a shortcut acts, as the help panel groups them. */
const FORM = 'Trade: the order form';
const BOOK = 'Trade: the order book and your open orders';

interface Binding {
  keys: string;
  action: string;
  group: typeof FORM | typeof BOOK;
  id: TradeAction;
  /** Works while typing in a field (it has a modifier). */
  inFields: boolean;
  matches: (e: KeyLike) => boolean;
}

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
}

const plain = (e: KeyLike) => !e.ctrlKey && !e.metaKey && !e.altKey;
const letter = (l: string) => (e: KeyLike) => plain(e) && e.key.toLowerCase() === l;

const BINDINGS: readonly Binding[] = [
  {
    keys: 'Ctrl+Enter',
    action: 'Place the order in the order form',
    group: FORM,
    id: 'submit',
    inFields: true,
    matches: (e) => (e.ctrlKey || e.metaKey) && !e.altKey && e.key === 'Enter',
  },
  {
    keys: 'B',
    action: 'Switch the order form to Buy',
    group: FORM,
    id: 'buy',
    inFields: false,
    matches: letter('b'),
  },
  {
    keys: 'S',
    action: 'Switch the order form to Sell',
    group: FORM,
    id: 'sell',
    inFields: false,
    matches: letter('s'),
  },
  {
    keys: 'L',
    action: 'Switch the order form to a limit order',
    group: FORM,
    id: 'limit',
    inFields: false,
    matches: letter('l'),
  },
  {
    keys: 'M',
    action: 'Switch the order form to a market order',
    group: FORM,
    id: 'market',
    inFields: false,
    matches: letter('m'),
  },
  {
    keys: 'O',
    action: 'Focus the order book (arrows move, Enter takes the price)',
    group: BOOK,
    id: 'focus-book',
    inFields: false,
    matches: letter('o'),
  },
  {
    keys: 'P',
    action: 'Focus the price field',
    group: FORM,
    id: 'focus-price',
    inFields: false,
    matches: letter('p'),
  },
  {
    keys: 'Q',
    action: 'Focus the quantity field',
    group: FORM,
    id: 'focus-quantity',
    inFields: false,
    matches: letter('q'),
  },
  {
    keys: 'Delete',
    action: 'Cancel the selected open order',
    group: BOOK,
    id: 'cancel-selected',
    inFields: false,
    matches: (e) => plain(e) && (e.key === 'Delete' || e.key === 'Backspace'),
  },
];

/** For the shell's help panel. */
export const TRADE_SHORTCUTS: Array<{ keys: string; action: string; group: string }> = BINDINGS.map(
  ({ keys, action, group }) => ({ keys, action, group }),
);

/** The same, grouped by where they act, in the order the help panel lists them. */
export const TRADE_SHORTCUT_GROUPS: ReadonlyArray<{
  title: string;
  shortcuts: ReadonlyArray<{ keys: string; action: string }>;
}> = [FORM, BOOK].map((title) => ({
  title,
  shortcuts: TRADE_SHORTCUTS.filter((s) => s.group === title).map(({ keys, action }) => ({
    keys,
    action,
  })),
}));

const isTyping = (target: EventTarget | null): boolean => {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) {
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range'].includes(target.type);
  }
  return false;
};

/**
 * The action a key press asks for on the Trade screen, or null. Keys pressed inside a dialog (the
 * confirmation) or already handled belong to whoever handled them.
 */
export const tradeActionFor = (event: KeyboardEvent): TradeAction | null => {
  if (event.defaultPrevented || event.repeat) return null;
  const target = event.target;
  if (
    target instanceof Element &&
    target.closest('dialog, [role="dialog"], [role="alertdialog"]')
  ) {
    return null;
  }
  const typing = isTyping(target);
  const binding = BINDINGS.find((b) => (b.inFields || !typing) && b.matches(event));
  return binding?.id ?? null;
};
