import { afterEach, describe, expect, it } from 'vitest';
import { AppError, ErrorCode } from '../../../../../src-shared/errors';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../../fixtures/cardano/wallet-services';

let world: WalletWorld | undefined;
afterEach(() => world?.cleanup());

const restored = async (w: WalletWorld): Promise<string> =>
  (await w.wallet.restore({ name: 'Main', words: VECTOR_PHRASE, password: STRONG_PASSWORD })).id;

describe('an API key for a real network', () => {
  it.each(['staging', 'production'] as const)(
    'on %s is 32 hex characters; anything else is refused before it is sealed',
    async (network) => {
      world = await walletWorld(network);
      const walletId = await restored(world);
      for (const apiKey of [
        '0123456789abcdef0123456789abcde', // one short
        '0123456789abcdef0123456789abcdef0', // one long
        '0123456789abcdef0123456789abcdeg', // not hex
        'my-key-from-the-dashboard-000000',
      ]) {
        const refused = await world.wallet
          .setApiKey({ walletId, apiKey, password: STRONG_PASSWORD })
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(refused).toBeInstanceOf(AppError);
        expect((refused as AppError).code).toBe(ErrorCode.InvalidInput);
        expect((refused as AppError).message).toMatch(/32 characters of 0-9 and a-f/);
        expect((refused as AppError).message).toMatch(/nothing was saved/);
        expect((await world.wallet.list()).wallets[0]?.apiKey).toBeNull();
      }
      // Pasted with stray spaces and in capitals, a real key is taken as it is.
      const summary = await world.wallet.setApiKey({
        walletId,
        apiKey: '  0123456789ABCDEF0123456789abcdef \n',
        password: STRONG_PASSWORD,
      });
      expect(summary.apiKey).toBe('••••cdef');
    },
  );
});
