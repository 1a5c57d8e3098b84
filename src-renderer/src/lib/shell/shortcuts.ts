import { TRADE_SHORTCUT_GROUPS } from '../trade';
import { SECTIONS, type SectionId } from './sections';

/** A keyboard shortcut as the help panel lists it. */
export interface Shortcut {
  keys: string;
  action: string;
}

export interface ShortcutGroup {
  title: string;
  shortcuts: readonly Shortcut[];
}

/** The shortcuts that work on every screen. */
export const APP_SHORTCUTS: readonly Shortcut[] = [
  { keys: '?', action: 'Show or hide this list of shortcuts' },
  { keys: 'Ctrl+Shift+L', action: 'Lock the wallet now' },
  ...SECTIONS.map((section, index) => ({
    keys: `Alt+${index + 1}`,
    action: `Go to ${section.label}`,
  })),
  { keys: 'Esc', action: 'Close the open dialog' },
];

/** What the help panel (`?`) lists: the frame's shortcuts, then each screen's. */
export const SHORTCUT_GROUPS: readonly ShortcutGroup[] = [
  { title: 'Everywhere', shortcuts: APP_SHORTCUTS },
  ...TRADE_SHORTCUT_GROUPS,
];

export type AppCommand = { kind: 'help' } | { kind: 'lock' } | { kind: 'go'; section: SectionId };

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
 * What a key press asks of the frame, or null. `?` is ignored while typing in a field (it is a
 * character there); the modified shortcuts work anywhere.
 */
export const commandOf = (event: KeyboardEvent): AppCommand | null => {
  if (event.defaultPrevented || event.isComposing) return null;
  const mod = event.ctrlKey || event.metaKey;
  if (mod && event.shiftKey && !event.altKey && event.code === 'KeyL') return { kind: 'lock' };
  if (event.altKey && !mod && !event.shiftKey) {
    const digit = /^Digit([1-9])$/.exec(event.code)?.[1];
    const section = digit ? SECTIONS[Number(digit) - 1] : undefined;
    if (section) return { kind: 'go', section: section.id };
  }
  if (event.key === '?' && !mod && !event.altKey && !isTyping(event.target)) {
    return { kind: 'help' };
  }
  return null;
};
