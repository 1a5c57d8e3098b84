import type { Configuration } from 'electron-builder';
import { afterPack } from './scripts/after-pack';

/**
 * The installers: macOS dmg (Intel and Apple silicon), Windows nsis (per user, no admin), Linux
 * AppImage and deb. `npm run dist` builds the current OS's; the release workflow builds all.
 *
 * The release workflow names the GitHub repository (GITHUB_REPOSITORY, "owner/name"): only then
 * does the build write the update files the installed app checks (app-update.yml, latest*.yml).
 * A local build does not update itself.
 */
const repository = (process.env['GITHUB_REPOSITORY'] ?? '').split('/');
const [owner, repo] = repository.length === 2 ? repository : [];
/** The release workflow builds without code signing when the signing secrets are absent. */
const unsigned = process.env['COUNTERSIGN_UNSIGNED'] === '1';

const config = {
  appId: 'app.countersign.desktop',
  productName: 'Countersign',
  copyright: 'Copyright © Countersign contributors',
  directories: { output: 'dist', buildResources: 'build' },
  // Only the build output and package.json; electron-builder adds the production dependencies
  // itself (never devDependencies). No sources, no tests, no source maps.
  files: ['out/**/*', 'package.json', '!**/*.map', '!**/*.d.ts'],
  asar: true,
  // keytar's native addon must be a real file on disk for the OS to load it.
  asarUnpack: ['**/node_modules/keytar/**/*.node'],
  // Native addons are N-API (keytar): the binary built for Node works in Electron unchanged. The
  // one exception is an architecture other than the build machine's (the release workflow's Mac
  // builds Intel and Apple silicon): it asks for the addon to be fetched or built per architecture.
  npmRebuild: process.env['COUNTERSIGN_REBUILD_NATIVE'] === '1',
  buildDependenciesFromSource: false,
  afterPack,
  fileAssociations: [],
  protocols: [],
  // Unsigned builds say so in every file name (and the update manifest names those files).
  artifactName: `\${productName}-\${version}-\${os}-\${arch}${unsigned ? '-unsigned' : ''}.\${ext}`,
  mac: {
    category: 'public.app-category.finance',
    icon: 'build/icon.icns',
    hardenedRuntime: true,
    // What the hardened app may do: run V8's JIT, and use the camera (QR codes of offline
    // signing), which macOS asks the trader about first, in the words below.
    entitlements: 'resources/entitlements.mac.plist',
    entitlementsInherit: 'resources/entitlements.mac.plist',
    extendInfo: {
      NSCameraUsageDescription:
        'Countersign reads the QR codes of a transaction signed on your offline device. Nothing is recorded or sent.',
    },
    // dmg to install; zip is what the updater downloads on macOS.
    target: [
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ],
  },
  dmg: {
    title: '${productName} ${version}',
  },
  win: {
    icon: 'build/icon.ico',
    target: [{ target: 'nsis', arch: ['x64'] }],
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowElevation: false,
    allowToChangeInstallationDirectory: false,
    createDesktopShortcut: true,
    createStartMenuShortcut: true,
    deleteAppDataOnUninstall: false,
  },
  // A deb names the project's home page (the release workflow's repository) and its maintainer.
  ...(owner && repo ? { extraMetadata: { homepage: `https://github.com/${owner}/${repo}` } } : {}),
  linux: {
    icon: 'build/icons',
    maintainer: 'Countersign contributors',
    // Office is the main category Finance belongs to (freedesktop menu specification).
    category: 'Office;Finance',
    executableName: 'countersign',
    synopsis: 'Non-custodial wallet and trading terminal for a Cardano order-book exchange',
    description:
      'Your keys stay on your machine: Countersign checks every transaction the exchange builds ' +
      'against what you asked for, then signs it locally.',
    target: [
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ],
    // The .desktop file is named after package.json's desktopName, which Electron also uses as
    // the window's app id, so the desktop links the running window to its entry.
    syncDesktopName: true,
    desktop: {
      entry: {
        GenericName: 'Trading terminal',
        Keywords: 'cardano;wallet;trading;exchange;',
      },
    },
  },
  deb: {
    // keytar talks to the Secret Service through libsecret.
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
    ],
  },
  publish: owner && repo ? [{ provider: 'github', owner, repo, releaseType: 'release' }] : null,
} satisfies Configuration;

export default config;
