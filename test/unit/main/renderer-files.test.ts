import { describe, expect, it } from 'vitest';
import { RENDERER_CSP, resolveRendererFile } from '../../../src-main/renderer-files';

describe('resolveRendererFile', () => {
  const root = '/app/out/renderer';

  it('maps paths inside the renderer folder, / to index.html', () => {
    expect(resolveRendererFile(root, '/')).toBe('/app/out/renderer/index.html');
    expect(resolveRendererFile(root, '/assets/index-abc.js')).toBe(
      '/app/out/renderer/assets/index-abc.js',
    );
  });

  it.each([
    '/../main/index.js',
    '/assets/../../main/index.js',
    '/%2e%2e/main/index.js',
    '/..%2f..%2fetc/passwd',
    '/..\\main\\index.js',
    '/%5c..%5cmain',
    '/index.html%00.png',
    '/%E0%A4%A',
  ])('refuses %s', (path) => {
    expect(resolveRendererFile(root, path)).toBeNull();
  });

  it('does not confuse a sibling folder with the same prefix for the renderer', () => {
    expect(resolveRendererFile(root, '/../renderer-evil/x.js')).toBeNull();
  });
});

describe('the renderer CSP', () => {
  it('gives the renderer no network and no inline code', () => {
    const directives = Object.fromEntries(
      RENDERER_CSP.split(';').map((d) => {
        const [name, ...values] = d.trim().split(/\s+/);
        return [name, values.join(' ')];
      }),
    );
    expect(directives['connect-src']).toBe("'none'");
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBe("'self'");
    expect(directives['object-src']).toBe("'none'");
    expect(directives['frame-ancestors']).toBe("'none'");
  });
});
