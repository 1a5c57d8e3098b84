import { fireEvent, render, screen } from '@testing-library/svelte';
import { flushSync } from 'svelte';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Api, UpdateStatus } from '../../../../src-shared/contract';
import UpdatePrompt from './UpdatePrompt.svelte';

const status = (overrides: Partial<UpdateStatus>): UpdateStatus => ({
  state: 'idle',
  currentVersion: '0.1.0',
  availableVersion: null,
  releaseNotes: null,
  progress: null,
  reason: null,
  checkedAt: null,
  ...overrides,
});

const WAITING =
  'Countersign will restart into the new version as soon as it has finished what it is doing.';
const ready = status({
  state: 'ready',
  availableVersion: '0.2.0',
  releaseNotes: 'Faster order book.\nFixes the CSV export.',
});

/** main's side of the `updates` area, as far as the prompt uses it. */
const fakeApi = (first: UpdateStatus, afterInstall: UpdateStatus = first) => {
  let push: (next: UpdateStatus) => void = () => undefined;
  const install = vi.fn(async () => ({ ok: true as const, value: afterInstall }));
  const api = {
    updates: {
      status: vi.fn(async () => ({ ok: true as const, value: first })),
      install,
    },
    on: vi.fn((name: string, listener: (next: UpdateStatus) => void) => {
      if (name === 'updates:changed') push = listener;
      return () => undefined;
    }),
  };
  // The component reaches main through window.api, as the preload exposes it.
  Object.defineProperty(window, 'api', { value: api as unknown as Api, configurable: true });
  return {
    api,
    install,
    push: (next: UpdateStatus) => {
      push(next);
      flushSync();
    },
  };
};

afterEach(() => {
  Reflect.deleteProperty(window, 'api');
});

const region = () => screen.queryByRole('region', { name: 'Update' });

describe('UpdatePrompt', () => {
  it('shows nothing while there is nothing newer', async () => {
    fakeApi(status({ state: 'idle' }));
    render(UpdatePrompt);
    await vi.waitFor(() => expect(region()).toBeNull());
    expect(document.body.textContent).toBe('');
  });

  it('shows the version, what is new and a clear choice once the update is ready', async () => {
    const { install } = fakeApi(ready);
    render(UpdatePrompt);
    const prompt = await screen.findByRole('region', { name: 'Update' });
    expect(prompt.textContent).toContain('Countersign 0.2.0 is available');
    expect(prompt.textContent).toContain('You have 0.1.0.');
    expect(prompt.textContent).toContain('Faster order book.');
    expect(screen.getByRole('button', { name: 'Later' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Restart and update' })).toBeTruthy();
    // Nothing is installed until the trader chooses.
    expect(install).not.toHaveBeenCalled();
  });

  it('installs only when the trader agrees, and says when it waits for work under way', async () => {
    const { install } = fakeApi(ready, { ...ready, reason: WAITING });
    render(UpdatePrompt);
    await fireEvent.click(await screen.findByRole('button', { name: 'Restart and update' }));
    expect(install).toHaveBeenCalledTimes(1);
    expect((await screen.findByRole('status')).textContent).toBe(WAITING);
    expect(screen.queryByRole('button', { name: 'Restart and update' })).toBeNull();
  });

  it('puts the version off on "Later", until a newer one is offered', async () => {
    const { install, push } = fakeApi(ready);
    render(UpdatePrompt);
    await fireEvent.click(await screen.findByRole('button', { name: 'Later' }));
    expect(region()).toBeNull();
    expect(install).not.toHaveBeenCalled();
    push({ ...ready, checkedAt: 1 });
    expect(region()).toBeNull();
    push({ ...ready, availableVersion: '0.3.0' });
    expect(region()?.textContent).toContain('Countersign 0.3.0 is available');
  });

  it('follows the download in the background without offering a restart yet', async () => {
    const { api, push } = fakeApi(status({ state: 'idle' }));
    render(UpdatePrompt);
    await vi.waitFor(() => expect(api.updates.status).toHaveBeenCalled());
    push(status({ state: 'downloading', availableVersion: '0.2.0', progress: 42 }));
    expect(screen.getByRole('status').textContent).toContain('(42%)');
    expect(screen.queryByRole('button', { name: 'Restart and update' })).toBeNull();
  });

  it('reports an update that failed the signature check, in words', async () => {
    const reason =
      'This update is not signed by Countersign’s release key, so it was not installed.';
    fakeApi(status({ state: 'refused', availableVersion: '0.2.0', reason }));
    render(UpdatePrompt);
    expect((await screen.findByRole('alert')).textContent).toBe(reason);
    expect(region()?.textContent).toContain('Update 0.2.0 refused');
    expect(screen.queryByRole('button', { name: 'Restart and update' })).toBeNull();
  });
});
