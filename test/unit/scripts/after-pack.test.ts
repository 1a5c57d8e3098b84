import { FuseV1Options, flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FUSES,
  createAfterPack,
  electronBinaryPath,
  type PackedApp,
} from '../../../scripts/after-pack';

const X64 = 1;
const ARM64 = 3;
const packed = (electronPlatformName: string, arch = X64): PackedApp => ({
  appOutDir: '/build/out',
  electronPlatformName,
  arch,
  packager: {
    appInfo: { productFilename: 'Countersign' },
    ...(electronPlatformName === 'linux' ? { executableName: 'countersign' } : {}),
  },
});

const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** What a packed Electron binary carries: the sentinel, wire version 1, its length, the fuses. */
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
// Electron's defaults: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, asar
// integrity off, only-asar off, V8 snapshot off, file:// privileges on, and a ninth fuse newer
// than this @electron/fuses, which must be left as it is.
const DEFAULT_WIRE = '101100011';
const fakeElectron = (wire = DEFAULT_WIRE) =>
  Buffer.concat([
    Buffer.from('\x7fELF…machine code…'),
    Buffer.from(SENTINEL),
    Buffer.from([1, wire.length]),
    Buffer.from(wire),
    Buffer.from('…more machine code'),
  ]);

describe('the fuses flipped after packing', () => {
  it('are exactly these', () => {
    expect(FUSES).toEqual({
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
  });

  it.each([
    ['linux', X64, '/build/out/countersign'],
    ['win32', X64, '/build/out/Countersign.exe'],
    ['darwin', ARM64, '/build/out/Countersign.app'],
  ])('find the packed binary on %s', (platform, arch, path) => {
    expect(electronBinaryPath(packed(platform, arch))).toBe(path);
  });

  it('are flipped in one call with exactly the configured values, then read back', async () => {
    const tools = {
      flipFuses: vi.fn(async () => 1),
      getCurrentFuseWire: vi.fn(async () => ({
        ...Object.fromEntries(Object.entries(FUSES).map(([k, on]) => [k, on ? 49 : 48])),
      })),
    };
    await createAfterPack(tools)(packed('darwin', ARM64));
    expect(tools.flipFuses).toHaveBeenCalledTimes(1);
    expect(tools.flipFuses).toHaveBeenCalledWith('/build/out/Countersign.app', {
      version: '1',
      resetAdHocDarwinSignature: true,
      [FuseV1Options.RunAsNode]: false,
      [FuseV1Options.EnableCookieEncryption]: true,
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
      [FuseV1Options.EnableNodeCliInspectArguments]: false,
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
      [FuseV1Options.OnlyLoadAppFromAsar]: true,
      [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
    });
    expect(tools.getCurrentFuseWire).toHaveBeenCalledWith('/build/out/Countersign.app');
  });

  it('re-sign ad hoc only the Apple silicon build', async () => {
    const calls: boolean[] = [];
    const tools = {
      flipFuses: vi.fn(async (_path: string, config: { resetAdHocDarwinSignature?: boolean }) => {
        calls.push(config.resetAdHocDarwinSignature ?? false);
        return 1;
      }),
      getCurrentFuseWire: vi.fn(async () => ({
        ...Object.fromEntries(Object.entries(FUSES).map(([k, on]) => [k, on ? 49 : 48])),
      })),
    };
    for (const [platform, arch] of [
      ['darwin', X64],
      ['darwin', ARM64],
      ['win32', X64],
      ['linux', X64],
    ] as const) {
      await createAfterPack(tools)(packed(platform, arch));
    }
    expect(calls).toEqual([false, true, false, false]);
  });

  it('are set in a real wire by @electron/fuses, leaving fuses it does not know alone', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cs-fuses-'));
    folders.push(dir);
    const binary = join(dir, 'countersign');
    await writeFile(binary, fakeElectron());
    await createAfterPack({ flipFuses, getCurrentFuseWire })({
      ...packed('linux'),
      appOutDir: dir,
    });
    const after = await readFile(binary);
    const at = after.indexOf(SENTINEL) + SENTINEL.length + 2;
    //                                              RunAsNode, cookies, NODE_OPTIONS, inspect,
    //                                              asar integrity, only asar, V8 snapshot,
    //                                              file://, the unknown ninth
    expect(after.subarray(at, at + DEFAULT_WIRE.length).toString()).toBe('010011001');
  });

  it('stop the build when a fuse did not take', async () => {
    const tools = {
      flipFuses: vi.fn(async () => 1),
      // The binary still has RunAsNode on.
      getCurrentFuseWire: vi.fn(async () => ({
        ...Object.fromEntries(Object.entries(FUSES).map(([k, on]) => [k, on ? 49 : 48])),
        [FuseV1Options.RunAsNode]: 49,
      })),
    };
    await expect(createAfterPack(tools)(packed('linux'))).rejects.toThrow(
      /fuse RunAsNode is not off/,
    );
  });
});
