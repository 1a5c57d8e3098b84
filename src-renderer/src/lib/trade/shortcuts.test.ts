import { describe, expect, it } from 'vitest';
import { TRADE_SHORTCUTS, tradeActionFor } from './shortcuts';

const press = (key: string, target: EventTarget, init: KeyboardEventInit = {}) => {
  const event = new KeyboardEvent('keydown', { key, bubbles: true, cancelable: true, ...init });
  let action: ReturnType<typeof tradeActionFor> = null;
  const listener = (e: Event) => (action = tradeActionFor(e as KeyboardEvent));
  window.addEventListener('keydown', listener);
  target.dispatchEvent(event);
  window.removeEventListener('keydown', listener);
  return action;
};

describe('trade shortcuts', () => {
  it('lists every shortcut with its keys and what it does, for the help panel', () => {
    expect(TRADE_SHORTCUTS.map((s) => s.keys)).toEqual([
      'Ctrl+Enter',
      'B',
      'S',
      'L',
      'M',
      'O',
      'P',
      'Q',
      'Delete',
    ]);
    for (const s of TRADE_SHORTCUTS) expect(s.action.length).toBeGreaterThan(5);
  });

  it('maps single keys when no field has the focus', () => {
    const body = document.body;
    expect(press('b', body)).toBe('buy');
    expect(press('S', body, { shiftKey: true })).toBe('sell');
    expect(press('o', body)).toBe('focus-book');
    expect(press('Delete', body)).toBe('cancel-selected');
    expect(press('x', body)).toBeNull();
  });

  it('never takes a letter typed into a field, but submits from one with Ctrl+Enter', () => {
    const input = document.createElement('input');
    document.body.append(input);
    expect(press('b', input)).toBeNull();
    expect(press('Backspace', input)).toBeNull();
    expect(press('Enter', input, { ctrlKey: true })).toBe('submit');
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    document.body.append(checkbox);
    expect(press('s', checkbox)).toBe('sell');
  });

  it('leaves keys alone inside a dialog, with modifiers, or already handled', () => {
    const dialog = document.createElement('div');
    dialog.setAttribute('role', 'dialog');
    const button = document.createElement('button');
    dialog.append(button);
    document.body.append(dialog);
    expect(press('Enter', button, { ctrlKey: true })).toBeNull();
    expect(press('b', document.body, { ctrlKey: true })).toBeNull();

    const handled = new KeyboardEvent('keydown', { key: 'b', cancelable: true });
    handled.preventDefault();
    expect(tradeActionFor(handled)).toBeNull();
  });
});
