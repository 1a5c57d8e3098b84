import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  cryptoIsReady,
  generateOperationKey,
  KeychainSecretStore,
  WalletSecrets,
} from '../../../../src-main/wallet';

// These run against the real Secret Service: `bash test/with-keychain.sh npx vitest run …`
// starts a private D-Bus session with an unlocked gnome-keyring. Without one they fail.
const service = `Countersign-test-${randomUUID()}`;
const store = new KeychainSecretStore(service);
const written: string[] = [];

beforeAll(cryptoIsReady);

afterAll(async () => {
  for (const entry of written) await store.remove(entry);
});

describe('OS keychain store (real Secret Service)', () => {
  it('is running inside the private keychain session', () => {
    expect(process.env['COUNTERSIGN_KEYCHAIN']).toBe('real');
    expect(process.env['DBUS_SESSION_BUS_ADDRESS']).toBeTruthy();
  });

  it('writes, reads back, overwrites and removes an entry', async () => {
    const entry = `wallet/${randomUUID()}/root`;
    written.push(entry);
    expect(await store.read(entry)).toBeNull();
    const blob = JSON.stringify({
      format: 'countersign-vault',
      data: 'x'.repeat(2000),
      note: 'é✓',
    });
    await store.write(entry, blob);
    expect(await store.read(entry)).toBe(blob);
    await store.write(entry, 'second');
    expect(await store.read(entry)).toBe('second');
    expect(await store.remove(entry)).toBe(true);
    expect(await store.read(entry)).toBeNull();
    expect(await store.remove(entry)).toBe(false);
  });

  it('keeps entries of different services and names apart', async () => {
    const entry = `wallet/${randomUUID()}/operation-key`;
    written.push(entry);
    const other = new KeychainSecretStore(`${service}-other`);
    await store.write(entry, 'mine');
    expect(await other.read(entry)).toBeNull();
    expect(await store.read(`${entry}-x`)).toBeNull();
  });

  it('with a locked keyring: refuses to write, and an unlock says the keychain may be locked', async () => {
    const script = resolve(import.meta.dirname, 'keychain-locked.fixture.ts');
    const wrapper = resolve(import.meta.dirname, '../../../with-keychain.sh');
    const { stdout } = await promisify(execFile)(
      'bash',
      [wrapper, process.execPath, '--import', 'tsx', script],
      { timeout: 30_000 },
    );
    const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
      blobBefore: boolean;
      write: { code: string; message: string };
      unlock: { code: string; message: string };
    };
    expect(result.blobBefore).toBe(true);
    expect(result.write.code).toBe(ErrorCode.KeychainUnavailable);
    expect(result.write.message).toMatch(/locked or not running/);
    expect(result.unlock.code).toBe(ErrorCode.VaultCorrupted);
    expect(result.unlock.message).toMatch(/If your keychain is locked, unlock it/);
  });

  it('never overwrites a stored key: a second write under the same name is refused', async () => {
    const walletId = randomUUID();
    const secrets = new WalletSecrets(store, { N: 1024, r: 8, p: 1 });
    const sealed = await secrets.seal(walletId, 'violet tractor sunrise', {
      operationKey: generateOperationKey(),
    });
    const entry = `wallet/${walletId}/operation-key`;
    written.push(entry);
    await secrets.write(sealed);
    const before = await store.read(entry);
    const other = await secrets.seal(walletId, 'another password!', {
      operationKey: generateOperationKey(),
    });
    await expect(secrets.write(other)).rejects.toThrow(/nothing was overwritten/);
    expect(await store.read(entry)).toBe(before);
    const key = await secrets.openOperationKey(walletId, 'violet tractor sunrise');
    expect(key.keyHash).toMatch(/^[0-9a-f]{56}$/);
  });

  it('reports KEYCHAIN_UNAVAILABLE when there is no Secret Service', async () => {
    const script = resolve(import.meta.dirname, 'keychain-probe.fixture.ts');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script], {
      env: {
        ...process.env,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/countersign-bus',
        DISPLAY: '',
      },
      timeout: 15_000,
    });
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '{}')).toEqual({
      code: ErrorCode.KeychainUnavailable,
    });
  });
});
