import { svelte } from '@sveltejs/vite-plugin-svelte';
import { defineConfig } from 'electron-vite';
import { build as esbuild } from 'esbuild';
import { resolve } from 'node:path';

const root = import.meta.dirname;

/**
 * The embedded exchange, run by main in an Electron utility process (via sandbox-host), ships as
 * one file with its libraries: loading them from node_modules made its start twice as slow
 * (test/bench/sandbox-startup.bench.ts).
 */
const sandboxBundle = () => ({
  name: 'countersign-sandbox-bundle',
  apply: 'build' as const,
  async closeBundle() {
    await esbuild({
      entryPoints: [resolve(root, 'src-sandbox/cli.ts')],
      outfile: resolve(root, 'out/main/sandbox.js'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Some @cardano-sdk dependencies are CommonJS and call require().
      banner: {
        js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);",
      },
      logLevel: 'error',
    });
  },
});

export default defineConfig({
  main: {
    plugins: [sandboxBundle()],
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(root, 'src-main/index.ts'),
          // Runs in Electron's utility process: loads the sandbox bundle and ends it with the app.
          'sandbox-host': resolve(root, 'src-main/exchange/sandbox-host.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload may only require('electron'): bundle everything into one CJS file.
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(root, 'src-preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [svelte({ configFile: resolve(root, 'svelte.config.js') })],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // What the trader's machine parses on every start: minified (names and whitespace).
      minify: true,
      rollupOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
