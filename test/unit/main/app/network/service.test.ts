import { describe, expect, it } from 'vitest';
import { NetworkService } from '../../../../../src-main/app/network/service';
import { silentLogger } from '../../../../../src-main/log';
import type { SettingsStore } from '../../../../../src-main/store/settings';
import type { NetworkChoice } from '../../../../../src-shared/network';

/**
 * A network switch writes the new choice to settings before it connects. Whatever asks for the
 * connection meanwhile (a feed's timer, a refresh of the funds) must get the new network's, not
 * a fresh connection to the network being left, which the switch would then keep.
 */

// Nothing listens there: the connections are made, never used.
const OLD: NetworkChoice = { name: 'custom', baseUrl: 'http://127.0.0.1:9', networkId: 0 };
const NEW: NetworkChoice = { name: 'custom', baseUrl: 'http://127.0.0.1:7', networkId: 0 };

const slowSettings = (initial: NetworkChoice) => {
  let stored = { network: initial };
  let release: (() => void) | undefined;
  const settings = {
    read: async () => stored,
    update: async (change: (current: typeof stored) => typeof stored) => {
      // The write takes a while: the switch awaits it.
      await new Promise<void>((resolve) => (release = resolve));
      stored = change(stored);
      return stored;
    },
  } as unknown as SettingsStore;
  return { settings, finishWrite: () => release?.() };
};

describe('switching the network', () => {
  it('gives the new network’s connection to whatever asks while the choice is being written', async () => {
    const { settings, finishWrite } = slowSettings(OLD);
    const network = new NetworkService({ settings, emit: () => undefined, logger: silentLogger });
    await network.start();
    const switching = network.switchTo(NEW);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const meanwhile = network.connection();
    await new Promise((resolve) => setTimeout(resolve, 10));
    finishWrite();
    const next = await switching;
    expect(next.choice).toEqual(NEW);
    expect(await meanwhile).toBe(next);
    expect(await network.connection()).toBe(next);
    await network.dispose();
  });
});
