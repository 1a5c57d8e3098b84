import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAppServices } from '../../../../src-main/app';
import { silentLogger } from '../../../../src-main/log';
import { MemorySecretStore, WalletSecrets } from '../../../../src-main/wallet';
import { STRONG_PASSWORD, VECTOR_PHRASE } from '../../../fixtures/cardano/wallet-services';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  PRODUCTION_SCRYPT_COST,
  openSecret,
  sealSecret,
  type ScryptCost,
} from '../../../../src-main/wallet/vault';

const FAST: ScryptCost = { N: 1024, r: 8, p: 1 };
const SECRET = Buffer.from('00112233445566778899aabbccddeeff'.repeat(2), 'hex');

const codeOf = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (error) {
    return (error as { code: string }).code;
  }
  throw new Error('expected a failure');
};

const edit = (blob: string, change: (json: Record<string, unknown>) => void): string => {
  const json = JSON.parse(blob) as Record<string, unknown>;
  change(json);
  return JSON.stringify(json);
};

describe('vault blob', () => {
  it('opens with the right password and label, and never contains the secret in clear', async () => {
    const blob = await sealSecret(SECRET, 'correct horse battery', 'w1/root', FAST);
    expect(blob).not.toContain(SECRET.toString('hex'));
    expect(blob).not.toContain(SECRET.toString('base64'));
    expect(JSON.parse(blob)).toMatchObject({ format: 'countersign-vault', version: 1 });
    expect(await openSecret(blob, 'correct horse battery', 'w1/root')).toEqual(SECRET);
  });

  it('salts and randomises every seal', async () => {
    const a = await sealSecret(SECRET, 'pw', 'x', FAST);
    const b = await sealSecret(SECRET, 'pw', 'x', FAST);
    expect(JSON.parse(a).kdf.salt).not.toBe(JSON.parse(b).kdf.salt);
    expect(JSON.parse(a).data).not.toBe(JSON.parse(b).data);
  });

  it('says WRONG_PASSWORD for a wrong password, and normalises Unicode forms', async () => {
    const blob = await sealSecret(SECRET, 'Caf\u00e9 au lait!', 'x', FAST);
    expect(await codeOf(openSecret(blob, 'cafe au lait!', 'x'))).toBe(ErrorCode.WrongPassword);
    expect(await openSecret(blob, 'Cafe\u0301 au lait!', 'x')).toEqual(SECRET);
  });

  it('says VAULT_CORRUPTED for a damaged, foreign, moved or future blob', async () => {
    const blob = await sealSecret(SECRET, 'pw', 'w1/root', FAST);
    const flipped = edit(blob, (j) => {
      const data = Buffer.from(String(j['data']), 'base64');
      data[0] = (data[0] ?? 0) ^ 1;
      j['data'] = data.toString('base64');
    });
    const variants: Array<[string, string, string]> = [
      ['not json', 'not json {', ErrorCode.VaultCorrupted],
      ['foreign json', '{"iv":"AAAA","ciphertext":"AAAA"}', ErrorCode.VaultCorrupted],
      ['moved to another entry', blob, ErrorCode.VaultCorrupted],
      ['newer format', edit(blob, (j) => (j['version'] = 2)), ErrorCode.VaultCorrupted],
      ['truncated data', edit(blob, (j) => (j['data'] = 'AAAA')), ErrorCode.VaultCorrupted],
    ];
    for (const [name, text, code] of variants) {
      const label = name === 'moved to another entry' ? 'w2/root' : 'w1/root';
      expect(await codeOf(openSecret(text, 'pw', label)), name).toBe(code);
    }
    // A flipped ciphertext bit or a changed header fails authentication (same outcome as a
    // wrong password: GCM cannot tell them apart), and never yields different bytes.
    expect(await codeOf(openSecret(flipped, 'pw', 'w1/root'))).toBe(ErrorCode.WrongPassword);
    const loweredCost = edit(blob, (j) => ((j['kdf'] as { N: number }).N = 512));
    expect(await codeOf(openSecret(loweredCost, 'pw', 'w1/root'))).toBe(ErrorCode.WrongPassword);
  });

  it('works with the production scrypt cost', async () => {
    const blob = await sealSecret(SECRET, 'a long spending password', 'x');
    expect(JSON.parse(blob).kdf).toMatchObject(PRODUCTION_SCRYPT_COST);
    expect(await openSecret(blob, 'a long spending password', 'x')).toEqual(SECRET);
  });

  it('the production cost is 128 MiB scrypt (N 2^17, r 8, p 1)', () => {
    expect(PRODUCTION_SCRYPT_COST).toEqual({ N: 2 ** 17, r: 8, p: 1 });
  });
});

describe('the cost the app uses', () => {
  it('is the production cost unless a test lowers it, in the secrets and in the composed app', async () => {
    const store = new MemorySecretStore();
    await new WalletSecrets(store).write(
      await new WalletSecrets(store).seal('w', 'a long spending password', {
        operationKey: SECRET,
      }),
    );
    const direct = JSON.parse((await store.read('wallet/w/operation-key')) ?? '{}');
    expect(direct.kdf).toMatchObject(PRODUCTION_SCRYPT_COST);

    const dataDir = await mkdtemp(join(tmpdir(), 'countersign-cost-'));
    const appStore = new MemorySecretStore();
    const services = await createAppServices({
      name: 'Countersign',
      version: 'test',
      dataDir,
      runtime: 'harness',
      network: { name: 'sandbox' },
      logger: silentLogger,
      send: () => undefined,
      secretStore: appStore,
    });
    try {
      const answer = await services.dispatch('wallet:restore', {
        name: 'Main',
        words: VECTOR_PHRASE,
        password: STRONG_PASSWORD,
      });
      expect(answer.ok).toBe(true);
      expect(appStore.entries.size).toBe(2);
      for (const blob of appStore.entries.values()) {
        expect(JSON.parse(blob).kdf).toMatchObject(PRODUCTION_SCRYPT_COST);
      }
    } finally {
      await services.dispose();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
