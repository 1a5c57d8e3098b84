// @ts-check
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import ts from 'typescript-eslint';

const appFolders = ['src-main', 'src-shared', 'src-renderer', 'src-preload'];
/** Main's Electron glue: the only files that touch Electron. */
const electronGlue = [
  'src-main/index.ts',
  'src-main/window.ts',
  'src-main/ipc.ts',
  'src-main/updater.ts',
];
const folderPatterns = (folders) =>
  folders.flatMap((f) => [`**/${f}`, `**/${f}/**`, `../${f}/**`, `../../${f}/**`]);

/** The house's walls: which folder may import which (DESIGN.md). */
const restrict = (patterns, paths = [], message) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: patterns.length ? [{ group: patterns, message }] : [],
      paths: paths.map((name) => ({ name, message })),
    },
  ],
});

export default ts.config(
  {
    ignores: [
      'node_modules/',
      'out/',
      'dist/',
      'test-results/',
      'playwright-report/',
      '.svelte-kit/',
    ],
  },
  js.configs.recommended,
  ...ts.configs.strict,
  ...svelte.configs['flat/recommended'],
  prettier,
  ...svelte.configs['flat/prettier'],
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] },
    },
  },
  // No import cycles anywhere: lower areas never reach back up (DESIGN.md).
  {
    files: ['src-*/**/*.ts', 'src-*/**/*.svelte.ts', 'test/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: { 'import-x/no-cycle': 'error' },
  },
  // The renderer has no Node, no Electron and no network, and never reaches into main or sandbox.
  {
    files: ['src-renderer/**'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict(
      [...folderPatterns(['src-main', 'src-sandbox', 'src-preload']), 'node:*'],
      ['electron', 'undici', 'keytar'],
      'The renderer talks to the app only through window.api (DESIGN.md).',
    ),
  },
  // The preload exposes the contract and nothing else.
  {
    files: ['src-preload/**'],
    rules: restrict(
      folderPatterns(['src-main', 'src-sandbox', 'src-renderer']),
      [],
      'The preload only exposes the contract from src-shared (DESIGN.md).',
    ),
  },
  // Shared code runs in every process: no Node, no DOM, no Electron.
  {
    files: ['src-shared/**'],
    rules: restrict(
      [...folderPatterns(['src-main', 'src-sandbox', 'src-renderer', 'src-preload']), 'node:*'],
      ['electron', 'undici', 'keytar'],
      'src-shared is pure TypeScript used by every process (DESIGN.md).',
    ),
  },
  // The sandbox is an independent implementation of the seed: it imports none of the app.
  {
    files: ['src-sandbox/**'],
    rules: restrict(
      [...folderPatterns([...appFolders, 'src-sandbox/../src-main']), '@shared', '@shared/**'],
      ['electron'],
      'src-sandbox imports nothing from the app; the two sides meet at the wire (DESIGN.md).',
    ),
  },
  // In main, only the Electron glue imports electron (or electron-updater, which needs it);
  // everything else runs in plain Node.
  {
    files: ['src-main/**'],
    ignores: electronGlue,
    rules: restrict(
      folderPatterns(['src-renderer', 'src-preload', 'src-sandbox']),
      ['electron', 'electron-updater'],
      "Only src-main/index.ts, window.ts, ipc.ts and updater.ts may import 'electron' (DESIGN.md).",
    ),
  },
  // Lower areas of main serve app/ and never reach back into it (DESIGN.md).
  {
    files: ['src-main/{exchange,wallet,signing,chain,store}/**'],
    rules: restrict(
      [
        ...folderPatterns(['src-renderer', 'src-preload', 'src-sandbox']),
        '../app',
        '../app/**',
        '../../app',
        '../../app/**',
      ],
      ['electron'],
      "exchange/, wallet/, signing/, chain/ and store/ never import app/ or 'electron' (DESIGN.md).",
    ),
  },
  {
    files: electronGlue,
    rules: restrict(
      folderPatterns(['src-renderer', 'src-preload', 'src-sandbox']),
      [],
      'Main reaches the sandbox only as a child process (DESIGN.md).',
    ),
  },
);
