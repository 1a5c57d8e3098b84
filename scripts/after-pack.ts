import { FuseV1Options, FuseVersion, flipFuses, getCurrentFuseWire } from '@electron/fuses';
import { join } from 'node:path';

/**
 * Electron's fuses in the installed app, flipped in the packed binary before it is signed
 * (https://www.electronjs.org/docs/latest/tutorial/fuses):
 * - no running the app's binary as plain Node, no NODE_OPTIONS, no --inspect: nothing outside
 *   the app can run code with its identity and its keychain access;
 * - the app loads only from its app.asar, whose integrity is checked against the hash embedded
 *   at build time (macOS, Windows);
 * - cookies encrypted with the OS's key; file:// pages get no privileges beyond a browser's.
 */
export const FUSES = {
  [FuseV1Options.RunAsNode]: false,
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.EnableCookieEncryption]: true,
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
} as const satisfies Partial<Record<FuseV1Options, boolean>>;

/** What the hook needs of electron-builder's AfterPackContext. */
export interface PackedApp {
  appOutDir: string;
  /** darwin, mas, win32 or linux */
  electronPlatformName: string;
  /** electron-builder's Arch: 1 x64, 3 arm64 */
  arch: number;
  packager: { appInfo: { productFilename: string }; executableName?: string };
}

const ARM64 = 3;
/** The bytes @electron/fuses writes into the wire for a fuse that is on or off. */
const ON = '1'.charCodeAt(0);
const OFF = '0'.charCodeAt(0);

/** The packed Electron binary (or .app bundle) whose fuses are flipped. */
export const electronBinaryPath = (app: PackedApp): string => {
  const name = app.packager.appInfo.productFilename;
  switch (app.electronPlatformName) {
    case 'darwin':
    case 'mas':
      return join(app.appOutDir, `${name}.app`);
    case 'win32':
      return join(app.appOutDir, `${name}.exe`);
    default:
      return join(app.appOutDir, app.packager.executableName ?? name);
  }
};

export interface FuseTools {
  flipFuses: typeof flipFuses;
  /** Reads the wire back: each fuse's byte, by fuse. */
  getCurrentFuseWire(path: string): Promise<Partial<Record<FuseV1Options, number>>>;
}

/** The afterPack hook: flips the fuses, then reads them back; a build where one did not take fails. */
export const createAfterPack =
  (tools: FuseTools = { flipFuses, getCurrentFuseWire }) =>
  async (app: PackedApp): Promise<void> => {
    const binary = electronBinaryPath(app);
    await tools.flipFuses(binary, {
      version: FuseVersion.V1,
      // Flipping a fuse breaks the arm64 binary's ad-hoc signature; an unsigned build must still
      // start on Apple silicon, and a signed one is signed again after this hook.
      resetAdHocDarwinSignature: app.electronPlatformName === 'darwin' && app.arch === ARM64,
      ...FUSES,
    });
    const wire = await tools.getCurrentFuseWire(binary);
    for (const [option, wanted] of Object.entries(FUSES)) {
      const fuse = Number(option) as FuseV1Options;
      if (wire[fuse] !== (wanted ? ON : OFF)) {
        throw new Error(
          `The Electron fuse ${FuseV1Options[fuse]} is not ${wanted ? 'on' : 'off'} in the packed app; ` +
            'the build stops here rather than ship an app without it.',
        );
      }
    }
  };

export const afterPack = createAfterPack();
