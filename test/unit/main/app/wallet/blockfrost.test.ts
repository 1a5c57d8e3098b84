import { afterEach, describe, expect, it } from 'vitest';
import { Connection } from '../../../../../src-main/app/network/service';
import { SandboxChain } from '../../../../../src-main/chain';
import { silentLogger } from '../../../../../src-main/log';
import { AppError, ErrorCode } from '../../../../../src-shared/errors';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../../fixtures/cardano/wallet-services';
import { json, startFakeServer } from '../../../../fixtures/exchange/fake-server';

/**
 * A trader may read their coins on a real network through Blockfrost with their own project id:
 * checked for its network before it is sealed with the spending password, shown only masked,
 * opened with the session, and the connection's chain provider follows it.
 */

let world: WalletWorld | undefined;
afterEach(() => world?.cleanup());

const PREPROD = `preprod${'Ab3'.repeat(10)}xy`;
const MAINNET = `mainnet${'Zq7'.repeat(10)}k9`;

const refusal = (promise: Promise<unknown>): Promise<AppError | null> =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof AppError ? error : null),
  );

describe('the Blockfrost project id', () => {
  it('is checked for its network, sealed, shown masked and opened with the session', async () => {
    world = await walletWorld('staging');
    const { id: walletId } = await world.wallet.restore({
      name: 'Main',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    for (const [projectId, why] of [
      [MAINNET, /for mainnet, but this exchange runs on preprod/],
      ['preprodshort', /not a Blockfrost project id/],
      [`${PREPROD.slice(0, -1)}!`, /not a Blockfrost project id/],
    ] as const) {
      const refused = await refusal(
        world.wallet.setBlockfrost({ walletId, projectId, password: STRONG_PASSWORD }),
      );
      expect(refused?.code).toBe(ErrorCode.InvalidInput);
      expect(refused?.message).toMatch(why);
      expect(refused?.message).toMatch(/nothing was saved/);
    }
    const wrong = await refusal(
      world.wallet.setBlockfrost({ walletId, projectId: PREPROD, password: 'not the password' }),
    );
    expect(wrong?.code).toBe(ErrorCode.WrongPassword);
    expect((await world.wallet.list()).wallets[0]?.blockfrost).toBeNull();

    const saved = await world.wallet.setBlockfrost({
      walletId,
      projectId: ` ${PREPROD}\n`,
      password: STRONG_PASSWORD,
    });
    expect(saved.blockfrost).toBe(`••••${PREPROD.slice(-4)}`);
    expect(JSON.stringify(await world.wallet.list())).not.toContain(PREPROD);
    // Sealed: the keychain holds no plain copy, and only an unlocked session opens it.
    const entry = `wallet/${walletId}/blockfrost/staging`;
    const sealed = await world.store.read(entry);
    expect(sealed).not.toBeNull();
    expect(sealed).not.toContain(PREPROD);
    expect(world.session.blockfrost()).toBeNull();
    await world.session.unlock(STRONG_PASSWORD);
    expect(world.session.blockfrost()).toBe(PREPROD);
    // After a restart too.
    const again = world.restart();
    await again.session.unlock(STRONG_PASSWORD);
    expect(again.session.blockfrost()).toBe(PREPROD);
    // Forgotten: Koios again.
    const koios = await again.wallet.setBlockfrost({
      walletId,
      projectId: null,
      password: STRONG_PASSWORD,
    });
    expect(koios.blockfrost).toBeNull();
    expect(again.session.blockfrost()).toBeNull();
  });

  it('is not for the practice exchange, which keeps its own coins', async () => {
    world = await walletWorld('sandbox');
    const { id: walletId } = await world.wallet.restore({
      name: 'Main',
      words: VECTOR_PHRASE,
      password: STRONG_PASSWORD,
    });
    const refused = await refusal(
      world.wallet.setBlockfrost({ walletId, projectId: PREPROD, password: STRONG_PASSWORD }),
    );
    expect(refused?.message).toMatch(/practice exchange keeps its own coins/);
  });
});

describe('the connection’s chain provider', () => {
  it('is Koios on a real network until the project id is open, then Blockfrost; while it is sealed, unlock', async () => {
    const server = await startFakeServer((req, res) =>
      json(res, 200, req.path.startsWith('/blockfrost/') ? { outputs: [] } : []),
    );
    let projectId: string | null = null;
    let saved = false;
    const connection = new Connection(
      { name: 'production' },
      async () => ({ baseUrl: 'https://api.deltadefi.io' }),
      silentLogger,
      {
        blockfrost: () => projectId,
        blockfrostSaved: async () => saved,
        urls: { koios: `${server.url}/koios`, blockfrost: `${server.url}/blockfrost` },
      },
    );
    const ref = `${'a'.repeat(64)}#0`;
    const asked = () => server.requests.map((r) => `${r.method} ${r.path}`);
    try {
      await connection.chain().resolve([ref]);
      expect(asked()).toEqual(['POST /koios/utxo_info']);
      // Saved, but the session is locked: the trader is asked to unlock, not sent to Koios.
      saved = true;
      await expect(connection.chain().resolve([ref])).rejects.toMatchObject({
        code: ErrorCode.Locked,
        message: expect.stringMatching(/Blockfrost project.*unlock to read them/),
      });
      projectId = MAINNET;
      await connection.chain().resolve([ref]);
      expect(asked().at(-1)).toBe(`GET /blockfrost/txs/${'a'.repeat(64)}/utxos`);
      expect(server.requests.at(-1)?.headers.project_id).toBe(MAINNET);
      // Forgotten: Koios again.
      projectId = null;
      saved = false;
      await connection.chain().resolve([ref]);
      expect(asked().at(-1)).toBe('POST /koios/utxo_info');
    } finally {
      connection.close();
      await server.close();
    }
    const sandbox = new Connection(
      { name: 'sandbox' },
      async () => ({ baseUrl: 'http://127.0.0.1:1' }),
      silentLogger,
      { blockfrost: () => MAINNET },
    );
    expect(sandbox.chain()).toBeInstanceOf(SandboxChain);
    sandbox.close();
  });
});
