import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { load } from 'js-yaml';
import { afterEach, describe, expect, it, vi } from 'vitest';
import electronConfig from '../../playwright.electron.config';
import e2eConfig from '../../playwright.config';

/**
 * The real-Electron suite and the release workflow cannot run on these machines; this keeps them
 * from rotting silently: each exists, each names the other, and the workflow runs what a release
 * needs in the order that makes sense.
 */
const root = resolve(import.meta.dirname, '../..');
const text = (file: string) => readFileSync(join(root, file), 'utf8');

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  needs?: string | string[];
  container?: string;
  strategy?: { matrix: { os: string[] } };
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}
const workflow = (file: string) => load(text(`.github/workflows/${file}`)) as Workflow;

const release = workflow('release.yml');
const ci = workflow('ci.yml');
const manifest = JSON.parse(text('package.json')) as { scripts: Record<string, string> };

/** The index of the first step that runs `command`, or -1. */
const stepRunning = (steps: Step[], command: RegExp) =>
  steps.findIndex((step) => command.test(step.run ?? ''));

describe('the real-Electron suite', () => {
  it('has its own Playwright config, which `npm run test:electron` uses and `npm test` does not', () => {
    expect(manifest.scripts['test:electron']).toMatch(
      /playwright test --config playwright\.electron\.config\.ts/,
    );
    expect(manifest.scripts['test']).not.toMatch(/test:electron|playwright\.electron/);
    expect(text('.ci/run')).not.toMatch(/test:electron|playwright\.electron/);
    // The e2e config of `npm test` never picks up the Electron specs.
    expect(resolve(root, e2eConfig.testDir ?? '')).not.toBe(
      resolve(root, electronConfig.testDir ?? ''),
    );
  });

  it('holds specs that launch real Electron', () => {
    const dir = join(root, electronConfig.testDir ?? '');
    const specs = readdirSync(dir).filter((file) => file.endsWith('.spec.ts'));
    expect(specs.length).toBeGreaterThan(0);
    const sources = [...specs, 'fixtures.ts'].map((file) => readFileSync(join(dir, file), 'utf8'));
    expect(sources.join('\n')).toMatch(/_electron as electron[\s\S]*electron\.launch\(/);
  });
});

describe('the release workflow', () => {
  const build = release.jobs['build'];
  const publish = release.jobs['publish'];

  it('runs on a version tag, on macOS, Windows and Ubuntu', () => {
    expect(release.on).toEqual({ push: { tags: ['v*'] } });
    const systems = build?.strategy?.matrix.os ?? [];
    for (const system of ['ubuntu', 'macos', 'windows']) {
      expect(
        systems.some((os) => os.startsWith(system)),
        system,
      ).toBe(true);
    }
  });

  it('installs, tests (npm test on Ubuntu), runs test:electron, then builds and uploads', () => {
    const steps = build?.steps ?? [];
    const install = stepRunning(steps, /^npm ci\b/);
    const unit = stepRunning(steps, /^npm test$/);
    const electron = stepRunning(steps, /npm run test:electron/);
    const dist = stepRunning(steps, /^npm run dist$/m);
    const upload = steps.findIndex((step) => step.uses?.startsWith('actions/upload-artifact@'));
    expect([install, unit, electron, dist, upload].every((index) => index >= 0)).toBe(true);
    expect(install).toBeLessThan(unit);
    expect(unit).toBeLessThan(electron);
    expect(electron).toBeLessThan(dist);
    expect(dist).toBeLessThan(upload);
    expect(steps[unit]?.if).toBe("runner.os == 'Linux'");
    // The Electron suite runs on every OS: under Xvfb with a keyring on Linux, as is elsewhere.
    const electronSteps = steps.filter((step) => /npm run test:electron/.test(step.run ?? ''));
    expect(electronSteps.map((step) => step.if).sort()).toEqual([
      "runner.os != 'Linux'",
      "runner.os == 'Linux'",
    ]);
    expect(electronSteps.find((step) => step.if?.includes('=='))?.run).toMatch(
      /^xvfb-run -a bash test\/with-keychain\.sh npm run test:electron$/,
    );
  });

  it('signs with the secrets when present and labels the build unsigned when not', () => {
    const steps = build?.steps ?? [];
    const signing = steps.find((step) => step.name === 'Signing');
    expect(signing?.run).toMatch(/COUNTERSIGN_UNSIGNED=1/);
    expect(signing?.run).toMatch(/CSC_IDENTITY_AUTO_DISCOVERY=false/);
    const dist = steps.find((step) => /^npm run dist$/m.test(step.run ?? ''));
    for (const secret of ['CSC_LINK', 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'WIN_CSC_LINK']) {
      expect(dist?.env?.[secret], secret).toMatch(/secrets\./);
    }
  });

  it('publishes only after every build, with the update manifests signed for the app', () => {
    expect(publish?.needs).toBe('build');
    const steps = publish?.steps ?? [];
    const sign = stepRunning(steps, /scripts\/sign-update-manifests\.ts release$/);
    const create = stepRunning(steps, /gh release create/);
    expect(sign).toBeGreaterThan(0);
    expect(sign).toBeLessThan(create);
    expect(steps[sign]?.env?.['UPDATE_SIGNING_KEY']).toBe('${{ secrets.UPDATE_SIGNING_KEY }}');
    expect(existsSync(join(root, 'scripts/sign-update-manifests.ts'))).toBe(true);
  });

  it('uploads every installer and manifest electron-builder writes', () => {
    const upload = build?.steps.find((step) => step.uses?.startsWith('actions/upload-artifact@'));
    const paths = String(upload?.with?.['path'] ?? '');
    for (const file of ['dmg', 'zip', 'exe', 'AppImage', 'deb']) {
      expect(paths).toContain(`dist/Countersign-*.${file}`);
    }
    expect(paths).toContain('dist/latest*.yml');
  });
});

describe('the CI workflow', () => {
  it('runs .ci/run (npm ci, npm test) on every push and pull request, on Debian 12', () => {
    expect(Object.keys(ci.on).sort()).toEqual(['pull_request', 'push']);
    const job = ci.jobs['test'];
    expect(job?.container).toMatch(/bookworm/);
    expect(job?.steps.some((step) => step.run === 'bash .ci/run')).toBe(true);
    expect(text('.ci/run')).toMatch(/npm ci[^\n]*\n[\s\S]*npm test\s*$/);
  });
});

describe('the configuration the release workflow builds with', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  const artifactName = async (unsigned: string) => {
    vi.stubEnv('COUNTERSIGN_UNSIGNED', unsigned);
    vi.resetModules();
    const { default: config } = await import('../../electron-builder.config');
    return config.artifactName;
  };

  it('names the deb its maintainer and, in the release workflow, its home page', async () => {
    vi.stubEnv('GITHUB_REPOSITORY', 'countersign/desktop');
    vi.resetModules();
    const { default: config } = await import('../../electron-builder.config');
    expect(config.linux.maintainer).toBeTruthy();
    expect(config.extraMetadata).toEqual({ homepage: 'https://github.com/countersign/desktop' });
    expect(config.publish).toEqual([
      expect.objectContaining({ provider: 'github', owner: 'countersign', repo: 'desktop' }),
    ]);
  });

  it('carries "-unsigned" in every installer name; a signed build does not', async () => {
    expect(await artifactName('1')).toBe('${productName}-${version}-${os}-${arch}-unsigned.${ext}');
    expect(await artifactName('')).toBe('${productName}-${version}-${os}-${arch}.${ext}');
  });
});
