import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@shared': resolve(import.meta.dirname, 'src-shared') };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          environment: 'node',
          include: ['test/unit/**/*.test.ts'],
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        plugins: [
          svelte({ configFile: resolve(import.meta.dirname, 'svelte.config.js') }),
          svelteTesting(),
        ],
        resolve: { alias },
        test: {
          name: 'component',
          environment: 'happy-dom',
          include: ['src-renderer/**/*.test.ts', 'test/component/**/*.test.ts'],
        },
      },
    ],
  },
});
