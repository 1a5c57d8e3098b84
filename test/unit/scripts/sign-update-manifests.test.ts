import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { UPDATE_PUBLIC_KEYS, isSignedBy, verifyManifest } from '../../../src-main/updates';
import { signUpdateManifests } from '../../../scripts/sign-update-manifests';
import { keyFileSource, newUpdateKeyPair, pinnedKeysIn } from '../../../scripts/update-key';
import { manifestYaml } from '../../fixtures/update-server';

const root = resolve(import.meta.dirname, '../../..');
const folders: string[] = [];
const distWith = async (files: Record<string, string>) => {
  const dir = await mkdtemp(join(tmpdir(), 'cs-dist-'));
  folders.push(dir);
  for (const [name, body] of Object.entries(files)) await writeFile(join(dir, name), body);
  return dir;
};
afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

const manifests = {
  'latest.yml': manifestYaml('0.2.0', { 'Countersign-0.2.0-win-x64.exe': Buffer.from('exe') }),
  'latest-mac.yml': manifestYaml('0.2.0', { 'Countersign-0.2.0-mac-arm64.zip': Buffer.from('z') }),
  'latest-linux.yml': manifestYaml('0.2.0', { 'Countersign-0.2.0.AppImage': Buffer.from('ai') }),
};

describe('signing the update manifests in the release workflow', () => {
  it('signs every latest*.yml, and only those, so that the app accepts them', async () => {
    const pair = newUpdateKeyPair();
    const dir = await distWith({
      ...manifests,
      'latest.yml.blockmap': 'binary',
      'builder-debug.yml': 'x: 1',
    });
    const signed = await signUpdateManifests(dir, pair.privateKeyPem, [pair.publicKey]);
    expect(signed).toEqual(['latest-linux.yml', 'latest-mac.yml', 'latest.yml']);
    expect((await readdir(dir)).filter((name) => name.endsWith('.sig')).sort()).toEqual([
      'latest-linux.yml.sig',
      'latest-mac.yml.sig',
      'latest.yml.sig',
    ]);
    for (const name of signed) {
      const manifest = await readFile(join(dir, name));
      const signature = await readFile(join(dir, `${name}.sig`), 'utf8');
      expect(isSignedBy(manifest, signature, [pair.publicKey])).toBe(true);
      expect(verifyManifest(manifest, signature, [pair.publicKey]).version).toBe('0.2.0');
    }
  });

  it('stops the release when the key is not one the app pins', async () => {
    const dir = await distWith(manifests);
    const secret = newUpdateKeyPair();
    await expect(
      signUpdateManifests(dir, secret.privateKeyPem, [newUpdateKeyPair().publicKey]),
    ).rejects.toThrow(/the installed app would refuse this signature/);
  });

  it('stops the release when the secret is not an Ed25519 key, or nothing is there to sign', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString();
    await expect(signUpdateManifests(await distWith(manifests), rsa)).rejects.toThrow(
      /not an Ed25519 private key/,
    );
    const pair = newUpdateKeyPair();
    await expect(
      signUpdateManifests(await distWith({}), pair.privateKeyPem, [pair.publicKey]),
    ).rejects.toThrow(/no update manifest/);
  });

  it('says what is missing when run without the secret', async () => {
    const run = promisify(execFile)(
      process.execPath,
      [
        '--import',
        'tsx',
        join(root, 'scripts/sign-update-manifests.ts'),
        await distWith(manifests),
      ],
      { cwd: root, env: { ...process.env, UPDATE_SIGNING_KEY: '' } },
    );
    await expect(run).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/secret UPDATE_SIGNING_KEY is not set/),
    });
  });
});

describe('the pinned update key', () => {
  it('is at least one valid Ed25519 public key in the app', () => {
    expect(UPDATE_PUBLIC_KEYS.length).toBeGreaterThan(0);
    const text = Buffer.from('manifest');
    for (const key of UPDATE_PUBLIC_KEYS) {
      // A well-formed key verifies nothing it did not sign, and does not throw.
      expect(isSignedBy(text, 'A'.repeat(86) + '==', [key])).toBe(false);
      expect(Buffer.from(key, 'base64')).toHaveLength(32);
    }
  });

  it('file is written and read back by the key script', () => {
    const keys = [newUpdateKeyPair().publicKey, newUpdateKeyPair().publicKey];
    expect(pinnedKeysIn(keyFileSource(keys))).toEqual(keys);
  });

  it('file in the repository is the one the key script writes', async () => {
    const source = await readFile(join(root, 'src-main/updates/update-key.ts'), 'utf8');
    expect(keyFileSource(pinnedKeysIn(source))).toBe(source);
    expect(pinnedKeysIn(source)).toEqual([...UPDATE_PUBLIC_KEYS]);
  });
});
