import { afterEach, describe, expect, it, vi } from 'vitest';
import { consoleLogger, redact, redactText } from '../../../src-main/log';
import { newRecoveryPhrase } from '../../../src-main/wallet';
import { VECTOR_PHRASE } from '../../fixtures/cardano/wallet-services';

const PHRASE_12 =
  'abandon ability able about above absent absorb abstract absurd abuse access accident';
const HEX64 = '9c8a0f3e5b2d4c6a1e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5';
const HEX128 = `${HEX64}${HEX64.split('').reverse().join('')}`;
const API_KEY = 'fedcba9876543210fedcba9876543210';
const BECH32_SK = 'ed25519_sk1qyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqszqgpqyqs2quvw3';
const ROOT_XSK =
  'root_xsk1hqzfzrgskgnpwskxxrv5khs7ess82ecy8za9l5ef7e0afd2849p3zryje8chk39nxtva0sww5me3pzkej4rvd5cae3q3v8eu7556n6pdrp4fdu8nsglynpmcppxxvfdyzdz5gfq3fefjepxhvqspmuyvmvqg8983';
const XPRV_BASE58 =
  'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi';

afterEach(() => vi.restoreAllMocks());

describe('log redaction by content', () => {
  it.each([
    ['a 24-word phrase', `restoring with ${VECTOR_PHRASE} now`, VECTOR_PHRASE],
    ['a 12-word phrase in a sentence', `words were: ${PHRASE_12}.`, PHRASE_12],
    ['a phrase as a JSON list', JSON.stringify(PHRASE_12.split(' ')), 'abstract'],
    [
      'a numbered phrase',
      PHRASE_12.split(' ')
        .map((w, i) => `${i + 1}. ${w}`)
        .join(' '),
      'absurd',
    ],
    ['a phrase in capitals', PHRASE_12.toUpperCase(), 'ABSORB'],
    ['a bech32 private key', `key ${BECH32_SK}`, BECH32_SK],
    ['a root extended key', ROOT_XSK, ROOT_XSK],
    ['a base58 xprv', `xprv is ${XPRV_BASE58}`, XPRV_BASE58],
    ['64 hex after "signing key"', `signing key hex: ${HEX64}`, HEX64],
    ['128 hex after "private"', `privateKey=${HEX128}`, HEX128],
    ['a 32-hex API key', `GET /accounts with X-API-KEY ${API_KEY}`, API_KEY],
  ])('cuts out %s', (_name, text, secret) => {
    const out = redactText(text);
    // Not even a part of it survives.
    for (let i = 0; i + 12 <= secret.length; i++)
      expect(out).not.toContain(secret.slice(i, i + 12));
    expect(out).toContain('[redacted');
  });

  it('cuts out any fresh 24-word phrase', () => {
    for (let i = 0; i < 500; i++) {
      const words = newRecoveryPhrase();
      const out = redactText(`phrase: ${words.join(' ')}`);
      // The marker's own words ("phrase" is one of the 2048) are not what is searched for.
      const left = out.split('[redacted recovery phrase]').join(' ');
      expect(out).toContain('[redacted recovery phrase]');
      expect(left.match(/[a-z]+/g)?.filter((w) => words.includes(w)) ?? []).toEqual([]);
    }
  });

  it('leaves ordinary text and public values as they are', () => {
    const txId = HEX64;
    const keyHash = 'a'.repeat(56);
    for (const text of [
      'The order was placed and is open; about to check the book again.',
      // Eleven list words in a row are still prose.
      'abandon ability able about above absent absorb abstract absurd abuse access',
      `transaction ${txId} was submitted`,
      `operation key hash ${keyHash}`,
      'unexpected failure in wallet:restore',
    ]) {
      expect(redactText(text)).toBe(text);
    }
  });
});

describe('log redaction of details', () => {
  it('hides secret fields by name and secret shapes in any string, deep down', () => {
    const detail = {
      password: 'violet tractor sunrise',
      apiKey: 'anything at all',
      nested: { mnemonic: ['a'], note: `the phrase ${VECTOR_PHRASE}` },
      list: PHRASE_12.split(' '),
      header: `X-API-KEY: ${API_KEY}`,
      bytes: new Uint8Array(32),
      ok: 'placed order 42',
    };
    const out = JSON.stringify(redact(detail));
    for (const secret of [
      'violet tractor',
      'anything at all',
      'excess behave',
      'abandon',
      API_KEY,
    ]) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain('placed order 42');
    expect(out).toContain('[32 bytes]');
  });

  it('hides secrets in an error’s message, stack and cause', () => {
    const cause = new Error(`sealed ${BECH32_SK}`);
    const error = new Error(`could not restore ${VECTOR_PHRASE}`, { cause });
    const out = JSON.stringify(redact(error));
    expect(out).not.toContain('excess behave');
    expect(out).not.toContain(BECH32_SK);
    expect(out).toContain('could not restore');
  });
});

describe('the console logger', () => {
  it('redacts the message text and the detail before writing', () => {
    const lines: string[] = [];
    for (const level of ['info', 'warn', 'error'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(JSON.stringify(args));
      });
    }
    const logger = consoleLogger('test');
    logger.info(`restoring ${VECTOR_PHRASE}`);
    logger.warn(`api key ${API_KEY}`, { url: `http://x/?key=${API_KEY}` });
    logger.error('failed', new Error(`signing key ${HEX64}`));
    expect(lines).toHaveLength(3);
    const all = lines.join('\n');
    for (const secret of ['excess behave', API_KEY, HEX64]) expect(all).not.toContain(secret);
    expect(all).toContain('[test] restoring');
  });
});
