import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  UpdateRefused,
  checkDownloadedFile,
  checkOffer,
  fetchSignedManifest,
  isSignedBy,
  verifyManifest,
} from '../../../../src-main/updates';
import {
  manifestYaml,
  sha512Of,
  startUpdateServer,
  updateKeyPair,
} from '../../../fixtures/update-server';

const release = updateKeyPair();
const stranger = updateKeyPair();
const installer = Buffer.from('Countersign 0.2.0 installer bytes');
const manifest = manifestYaml('0.2.0', { 'Countersign-0.2.0-linux-x86_64.AppImage': installer });
const tampered = manifest.replace(sha512Of(installer), sha512Of(Buffer.from('something else')));

let server: Awaited<ReturnType<typeof startUpdateServer>>;
let dir: string;
beforeAll(async () => {
  server = await startUpdateServer({
    '/valid/latest-linux.yml': manifest,
    '/valid/latest-linux.yml.sig': release.sign(Buffer.from(manifest)),
    // The manifest changed after it was signed: the installer's hash points elsewhere.
    '/tampered/latest-linux.yml': tampered,
    '/tampered/latest-linux.yml.sig': release.sign(Buffer.from(manifest)),
    '/unsigned/latest-linux.yml': manifest,
    '/stranger/latest-linux.yml': manifest,
    '/stranger/latest-linux.yml.sig': stranger.sign(Buffer.from(manifest)),
    '/garbled/latest-linux.yml': manifest,
    '/garbled/latest-linux.yml.sig': 'not a signature\n',
  });
  dir = await mkdtemp(join(tmpdir(), 'cs-verify-'));
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

const fetchFrom = (folder: string) =>
  fetchSignedManifest({
    url: `${server.url}/${folder}/latest-linux.yml`,
    publicKeys: [release.publicKey],
  });

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpdateRefused);
  return error as UpdateRefused;
};

describe('the signed update manifest, fetched from a release server', () => {
  it('is accepted when signed by a pinned key, and read', async () => {
    const verified = await fetchFrom('valid');
    expect(verified).toMatchObject({
      version: '0.2.0',
      files: [{ url: 'Countersign-0.2.0-linux-x86_64.AppImage', sha512: sha512Of(installer) }],
    });
    expect(server.requests).toContain('/valid/latest-linux.yml.sig');
  });

  it('is refused when it was changed after signing', async () => {
    const error = await refusal(fetchFrom('tampered'));
    expect(error.kind).toBe('forged');
    expect(error.message).toMatch(/failed Countersign’s signature check.*not installed/);
  });

  it('is refused when the release has no signature', async () => {
    const error = await refusal(fetchFrom('unsigned'));
    expect(error.kind).toBe('unsigned');
    expect(error.message).toMatch(/without the signature Countersign requires/);
  });

  it('is refused when signed by a key the app does not pin', async () => {
    expect((await refusal(fetchFrom('stranger'))).kind).toBe('forged');
  });

  it('is refused when the signature file holds no signature', async () => {
    expect((await refusal(fetchFrom('garbled'))).kind).toBe('forged');
  });

  it('is refused, not skipped, when the server cannot be reached or has no manifest', async () => {
    expect((await refusal(fetchFrom('missing'))).kind).toBe('unreachable');
    const closed = fetchSignedManifest({
      url: 'http://127.0.0.1:1/latest.yml',
      publicKeys: [release.publicKey],
      timeoutMs: 2_000,
    });
    expect((await refusal(closed)).kind).toBe('unreachable');
  });
});

describe('the signature check itself', () => {
  const bytes = Buffer.from(manifest);

  it('holds for the exact bytes only', () => {
    const signature = release.sign(bytes);
    expect(isSignedBy(bytes, signature, [release.publicKey])).toBe(true);
    const flipped = Buffer.from(bytes);
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    expect(isSignedBy(flipped, signature, [release.publicKey])).toBe(false);
    expect(
      isSignedBy(Buffer.concat([bytes, Buffer.from('\n')]), signature, [release.publicKey]),
    ).toBe(false);
  });

  it('accepts any of the pinned keys (for a key change), and none when none is pinned', () => {
    const signature = release.sign(bytes);
    expect(isSignedBy(bytes, signature, [stranger.publicKey, release.publicKey])).toBe(true);
    expect(isSignedBy(bytes, signature, [])).toBe(false);
    expect(isSignedBy(bytes, signature, ['not a key'])).toBe(false);
  });

  it('refuses a signed manifest that is not one', () => {
    const text = Buffer.from('version: [1, 2]\n');
    const error = (() => {
      try {
        verifyManifest(text, release.sign(text), [release.publicKey]);
        return null;
      } catch (e) {
        return e as UpdateRefused;
      }
    })();
    expect(error?.kind).toBe('malformed');
  });
});

describe('what is downloaded and installed', () => {
  const signed = () =>
    verifyManifest(Buffer.from(manifest), release.sign(Buffer.from(manifest)), [release.publicKey]);

  it('must be exactly what the signed manifest lists', () => {
    const file = { url: 'Countersign-0.2.0-linux-x86_64.AppImage', sha512: sha512Of(installer) };
    const offer = { version: '0.2.0', files: [file] };
    expect(() => checkOffer(offer, signed())).not.toThrow();
    expect(() => checkOffer({ ...offer, version: '0.2.1' }, signed())).toThrow(UpdateRefused);
    expect(() =>
      checkOffer({ ...offer, files: [{ ...file, sha512: sha512Of(Buffer.from('x')) }] }, signed()),
    ).toThrow(/differs from the signed release/);
    expect(() =>
      checkOffer(
        { ...offer, files: [{ url: 'other.AppImage', sha512: sha512Of(installer) }] },
        signed(),
      ),
    ).toThrow(UpdateRefused);
    expect(() => checkOffer({ ...offer, files: [] }, signed())).toThrow(UpdateRefused);
  });

  it('is hashed from disk before it is installed', async () => {
    const good = join(dir, 'good.AppImage');
    const bad = join(dir, 'bad.AppImage');
    await writeFile(good, installer);
    await writeFile(bad, Buffer.concat([installer, Buffer.from('!')]));
    await expect(checkDownloadedFile(good, signed())).resolves.toBeUndefined();
    await expect(checkDownloadedFile(bad, signed())).rejects.toThrow(
      /does not match the signed release/,
    );
  });
});
