import { Ajv } from 'ajv';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../../electron-builder.config';
import { afterPack } from '../../scripts/after-pack';

/**
 * The installers cannot be built here (electron-builder downloads Electron and its tools), so
 * this checks what can be checked without building: the configuration against electron-builder's
 * own schema, and what goes into the package, computed with electron-builder's own code.
 */
const root = resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const builderLib = (path: string) =>
  require(join(root, 'node_modules/app-builder-lib/out', path)) as unknown;

type Filter = (file: string, stat: { isDirectory(): boolean }) => boolean;
interface FileMatcherModule {
  FileMatcher: new (
    from: string,
    to: string,
    macroExpander: (pattern: string) => string,
    patterns: string[],
  ) => { createFilter(): Filter };
  getMainFileMatchers(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformSpecificBuildOptions: object,
    platformPackager: object,
    outDir: string,
    isElectronCompile: boolean,
  ): Array<{ createFilter(): Filter }>;
}
interface ConfigModule {
  getConfig(projectDir: string, configPath: string): Promise<Record<string, unknown>>;
  validateConfiguration(config: object, debugLogger: { isEnabled: boolean }): Promise<void>;
}
interface PackagedModule {
  name: string;
  dir: string;
  dependencies?: PackagedModule[];
}
interface Collector {
  getNodeModules(options: { packageName: string }): Promise<{ nodeModules: PackagedModule[] }>;
}

const schema = JSON.parse(
  readFileSync(join(root, 'node_modules/app-builder-lib/scheme.json'), 'utf8'),
) as object;
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  main: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

/**
 * electron-builder's own check without its type coercion (it would take "false" for false), every
 * error reported. Like electron-builder, it ignores scheme.json's `typeof` keyword, which the
 * schema also uses for plain maps (linux.desktop.entry); the hook is checked on its own below.
 */
const strictValidator = () =>
  new Ajv({ allErrors: true, strict: false, coerceTypes: false }).compile(schema);

describe('the installer configuration', () => {
  it("passes electron-builder's schema, strictly", () => {
    const validate = strictValidator();
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('is refused by the same check when it is wrong, so the check means something', () => {
    const validate = strictValidator();
    expect(validate({ ...config, asar: 'yes' })).toBe(false);
    expect(validate({ ...config, nsis: { ...config.nsis, perMachine: 'false' } })).toBe(false);
    expect(validate({ ...config, linux: { ...config.linux, iconz: 'build/icons' } })).toBe(false);
  });

  it('loads and validates through electron-builder itself, from the file the dist script names', async () => {
    expect(packageJson.scripts['dist']).toContain('--config electron-builder.config.ts');
    const { getConfig, validateConfiguration } = builderLib(
      'util/config/config.js',
    ) as ConfigModule;
    const loaded = await getConfig(root, 'electron-builder.config.ts');
    await expect(validateConfiguration(loaded, { isEnabled: false })).resolves.toBeUndefined();
    expect(loaded).toMatchObject({ appId: config.appId, asar: true, npmRebuild: false });
    expect(typeof loaded['afterPack']).toBe('function');
  });

  it('builds a dmg for Intel and Apple silicon, a per-user nsis, an AppImage and a deb', () => {
    expect(config.mac.target).toContainEqual({ target: 'dmg', arch: ['x64', 'arm64'] });
    expect(config.win.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.nsis).toMatchObject({ perMachine: false, allowElevation: false });
    expect(config.linux.target.map((t) => t.target)).toEqual(['AppImage', 'deb']);
    expect(config.linux.category.split(';')).toContain('Finance');
    expect(config.linux.syncDesktopName).toBe(true);
    expect(packageJson).toMatchObject({ desktopName: 'countersign.desktop' });
    expect(config.fileAssociations).toEqual([]);
    expect(config.protocols).toEqual([]);
  });

  it('lets the hardened macOS app run V8 and use the camera for QR codes, and nothing more', () => {
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.entitlements).toBe(config.mac.entitlementsInherit);
    const plist = readFileSync(join(root, config.mac.entitlements), 'utf8');
    const granted = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1]);
    expect(granted.sort()).toEqual([
      'com.apple.security.cs.allow-jit',
      'com.apple.security.device.camera',
    ]);
    // macOS shows this when it asks the trader; without it the app is killed on camera use.
    expect(config.mac.extendInfo.NSCameraUsageDescription).toMatch(/QR codes/);
  });

  it('takes its icons from the build folder the icon script writes', () => {
    expect(packageJson.scripts['dist']).toMatch(/scripts\/icons\.ts.*electron-builder/);
    expect(config.directories.buildResources).toBe('build');
    expect([config.mac.icon, config.win.icon, config.linux.icon]).toEqual([
      'build/icon.icns',
      'build/icon.ico',
      'build/icons',
    ]);
  });

  it('packs the app into asar, keytar’s native addon unpacked beside it', () => {
    expect(config.asar).toBe(true);
    expect(config.npmRebuild).toBe(false);
    const { FileMatcher } = builderLib('fileMatcher.js') as FileMatcherModule;
    const matches = new FileMatcher(root, '/tmp/app', (p) => p, [
      ...config.asarUnpack,
    ]).createFilter();
    const unpacked = (file: string) => matches(join(root, file), { isDirectory: () => false });
    expect(unpacked('node_modules/keytar/build/Release/keytar.node')).toBe(true);
    expect(unpacked('node_modules/keytar/lib/keytar.js')).toBe(false);
    expect(unpacked('out/main/index.js')).toBe(false);
  });

  it('flips the fuses after packing, with the hook the fuse tests check', () => {
    expect(config.afterPack).toBe(afterPack);
  });

  it('packages the build output and package.json, and none of the sources or tests', () => {
    const { getMainFileMatchers } = builderLib('fileMatcher.js') as FileMatcherModule;
    const packager = {
      info: {
        projectDir: root,
        buildResourcesDir: config.directories.buildResources,
        isPrepackedAppAsar: false,
        config,
        debugLogger: { isEnabled: false },
      },
    };
    const [matcher] = getMainFileMatchers(
      root,
      '/tmp/countersign-app',
      (pattern) => pattern,
      {},
      packager,
      join(root, config.directories.output),
      false,
    );
    const included = matcher?.createFilter();
    if (!included) throw new Error('electron-builder made no file matcher');
    const file = { isDirectory: () => false };
    const isIncluded = (relative: string) => included(join(root, relative), file);

    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);
    const packed = tracked.filter(isIncluded);
    expect(packed).toEqual(['package.json']);
    for (const built of [packageJson.main, 'out/main/sandbox.js', 'out/main/sandbox-host.js']) {
      expect(isIncluded(built), built).toBe(true);
    }
    expect(isIncluded('out/renderer/index.html')).toBe(true);
    expect(isIncluded('out/preload/index.cjs')).toBe(true);
    expect(isIncluded('out/main/index.js.map')).toBe(false);
    expect(isIncluded('build/icon.icns')).toBe(false);
    expect(isIncluded('dist/latest.yml')).toBe(false);
  });

  it("adds the production dependencies only, by electron-builder's own collector", async () => {
    const { getCollectorByPackageManager, PM } = builderLib('node-module-collector/index.js') as {
      getCollectorByPackageManager(pm: string, rootDir: string, tmp: object): Collector;
      PM: { NPM: string };
    };
    const { TmpDir } = require('builder-util') as {
      TmpDir: new (name: string) => { cleanup(): Promise<void> };
    };
    const tmp = new TmpDir('countersign-config-test');
    try {
      const collector = getCollectorByPackageManager(PM.NPM, root, tmp);
      const { nodeModules } = await collector.getNodeModules({ packageName: packageJson.name });
      const packaged: PackagedModule[] = [];
      const walk = (modules: PackagedModule[]) => {
        for (const module of modules) {
          packaged.push(module);
          walk(module.dependencies ?? []);
        }
      };
      walk(nodeModules);
      const names = new Set(packaged.map((module) => module.name));
      for (const dependency of Object.keys(packageJson.dependencies)) {
        expect(names.has(dependency), dependency).toBe(true);
      }
      // A development tool is packaged only when a production package needs it itself.
      const neededByPackaged = new Set(
        packaged.flatMap((module) => {
          const manifest = JSON.parse(readFileSync(join(module.dir, 'package.json'), 'utf8')) as {
            dependencies?: Record<string, string>;
            optionalDependencies?: Record<string, string>;
          };
          return [
            ...Object.keys(manifest.dependencies ?? {}),
            ...Object.keys(manifest.optionalDependencies ?? {}),
          ];
        }),
      );
      const tools = Object.keys(packageJson.devDependencies).filter(
        (tool) => names.has(tool) && !neededByPackaged.has(tool),
      );
      expect(tools).toEqual([]);
      for (const heavy of ['electron', 'electron-builder', 'vite', 'typescript', 'sharp']) {
        expect(names.has(heavy), heavy).toBe(false);
      }
    } finally {
      await tmp.cleanup();
    }
  }, 60_000);
});
