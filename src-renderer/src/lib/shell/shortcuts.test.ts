import { describe, expect, it } from 'vitest';
import { APP_SHORTCUTS, commandOf } from './shortcuts';

const key = (init: KeyboardEventInit, target?: HTMLElement) => {
  const event = new KeyboardEvent('keydown', { bubbles: true, ...init });
  if (target) Object.defineProperty(event, 'target', { value: target });
  return event;
};

describe('the frame’s keyboard shortcuts', () => {
  it('opens the help with ?, but not while typing in a field', () => {
    expect(commandOf(key({ key: '?' }))).toEqual({ kind: 'help' });
    expect(commandOf(key({ key: '?' }, document.createElement('input')))).toBeNull();
    expect(commandOf(key({ key: '?' }, document.createElement('textarea')))).toBeNull();
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    expect(commandOf(key({ key: '?' }, checkbox))).toEqual({ kind: 'help' });
  });

  it('locks with Ctrl+Shift+L or Cmd+Shift+L, even from a field', () => {
    const field = document.createElement('input');
    expect(
      commandOf(key({ code: 'KeyL', key: 'L', ctrlKey: true, shiftKey: true }, field)),
    ).toEqual({
      kind: 'lock',
    });
    expect(commandOf(key({ code: 'KeyL', key: 'L', metaKey: true, shiftKey: true }))).toEqual({
      kind: 'lock',
    });
    expect(commandOf(key({ code: 'KeyL', key: 'l', ctrlKey: true }))).toBeNull();
  });

  it('goes to each section with Alt and its number', () => {
    expect(commandOf(key({ code: 'Digit1', altKey: true }))).toEqual({
      kind: 'go',
      section: 'trade',
    });
    expect(commandOf(key({ code: 'Digit3', altKey: true }))).toEqual({
      kind: 'go',
      section: 'funds',
    });
    expect(commandOf(key({ code: 'Digit4', altKey: true }))).toEqual({
      kind: 'go',
      section: 'settings',
    });
    expect(commandOf(key({ code: 'Digit5', altKey: true }))).toBeNull();
    expect(commandOf(key({ code: 'Digit1' }))).toBeNull();
  });

  it('lists every shortcut it handles in the help', () => {
    expect(APP_SHORTCUTS.map((s) => s.keys)).toEqual([
      '?',
      'Ctrl+Shift+L',
      'Alt+1',
      'Alt+2',
      'Alt+3',
      'Alt+4',
      'Esc',
    ]);
  });
});
