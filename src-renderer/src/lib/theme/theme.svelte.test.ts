import { flushSync } from 'svelte';
import { describe, expect, it } from 'vitest';
import { Theme } from './theme.svelte';

const memoryStorage = () => {
  const values = new Map<string, string>();
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
};

const fakeMedia = (matches: boolean) => {
  const listeners: Array<(event: { matches: boolean }) => void> = [];
  return {
    matches,
    addEventListener: (_: string, listener: (event: { matches: boolean }) => void) =>
      listeners.push(listener),
    change: (value: boolean) => listeners.forEach((l) => l({ matches: value })),
  };
};

describe('Theme', () => {
  it('follows the system until the trader picks one', () => {
    const media = fakeMedia(true);
    const theme = new Theme(memoryStorage(), media as unknown as MediaQueryList);
    expect(theme.resolved).toBe('dark');
    media.change(false);
    flushSync();
    expect(theme.resolved).toBe('light');
  });

  it('remembers the choice and applies it to the page', () => {
    const storage = memoryStorage();
    const theme = new Theme(storage, fakeMedia(true) as unknown as MediaQueryList);
    theme.set('light');
    const root = document.createElement('html');
    theme.apply(root);
    expect(root.dataset['theme']).toBe('light');
    expect(new Theme(storage, fakeMedia(true) as unknown as MediaQueryList).preference).toBe(
      'light',
    );
  });

  it('ignores a stored value it does not know', () => {
    const storage = memoryStorage();
    storage.setItem('countersign.theme', 'neon');
    expect(new Theme(storage, null).preference).toBe('system');
  });
});
