import { describe, expect, it } from 'vitest';
import {
  isNewerVersion,
  manifestFileName,
  plainReleaseNotes,
  readUpdateFeed,
  releaseFileUrl,
} from '../../../../src-main/updates';

describe('where the installed app looks for updates', () => {
  it('reads the GitHub repository electron-builder wrote into app-update.yml', () => {
    const feed = readUpdateFeed(
      'owner: countersign-app\nrepo: countersign\nprovider: github\nupdaterCacheDirName: countersign-updater\n',
    );
    expect(feed).toEqual({ provider: 'github', owner: 'countersign-app', repo: 'countersign' });
    if (!feed) return;
    expect(releaseFileUrl(feed, '0.2.0', 'latest-mac.yml')).toBe(
      'https://github.com/countersign-app/countersign/releases/download/v0.2.0/latest-mac.yml',
    );
  });

  it.each([
    ['another provider', 'provider: generic\nurl: https://example.com/\n'],
    ['no repository', 'provider: github\nowner: someone\n'],
    ['a repository name that leaves GitHub', 'provider: github\nowner: a\nrepo: ../../evil\n'],
    ['something that is not YAML', '{{{'],
  ])('finds no feed in %s', (_what, text) => {
    expect(readUpdateFeed(text)).toBeNull();
  });

  it.each([
    ['win32', 'x64', 'latest.yml'],
    ['darwin', 'arm64', 'latest-mac.yml'],
    ['darwin', 'x64', 'latest-mac.yml'],
    ['linux', 'x64', 'latest-linux.yml'],
    ['linux', 'arm64', 'latest-linux-arm64.yml'],
  ] as const)('reads the manifest electron-updater reads on %s %s', (platform, arch, file) => {
    expect(manifestFileName(platform, arch)).toBe(file);
  });

  it.each([
    ['0.2.0', '0.1.0', true],
    ['0.10.0', '0.9.9', true],
    ['1.0.0', '0.99.0', true],
    ['0.1.0', '0.1.0', false],
    ['0.1.0', '0.2.0', false],
    ['0.2.0-beta.2', '0.2.0-beta.10', false],
    ['0.2.0', '0.2.0-beta.1', true],
    ['0.2.0-beta.1', '0.2.0', false],
  ])('%s is newer than %s: %s', (candidate, current, newer) => {
    expect(isNewerVersion(candidate, current)).toBe(newer);
  });
});

describe('release notes for the trader', () => {
  it('are plain text, whatever HTML the release page had', () => {
    expect(
      plainReleaseNotes(
        '<h2>What&#39;s new</h2><ul><li>Faster order book</li><li>Fix: <b>deposits</b> &amp; withdrawals</li></ul><script>alert(1)</script>',
      ),
    ).toBe("What's new\n• Faster order book\n• Fix: deposits & withdrawals\nalert(1)");
  });

  it('join the notes of several versions and drop control characters', () => {
    expect(
      plainReleaseNotes([
        { version: '0.3.0', note: 'Three\u001b[2J' },
        { version: '0.2.0', note: null },
      ]),
    ).toBe('Three[2J');
  });

  it('are absent rather than empty, and bounded', () => {
    expect(plainReleaseNotes(null)).toBeNull();
    expect(plainReleaseNotes('<p> </p>')).toBeNull();
    // A character reference beyond Unicode does not break the notes.
    expect(plainReleaseNotes('&#99999999;x')).toBe('x');
    expect(plainReleaseNotes('a'.repeat(6000))?.length).toBe(5001);
  });
});
