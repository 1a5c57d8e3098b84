import { describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import { FakeMain, mainError } from '../testing/fake-main';
import { walletSummary, WALLET_ID } from '../testing/frame';
import { Onboarding, splitPhrase } from './onboarding.svelte';

const WORDS = Array.from({ length: 24 }, (_, i) => `word${String.fromCharCode(97 + i)}`);
const CREATION = '5a0b3c1d-7e2f-4a6b-8c9d-0e1f2a3b4c5d';
const PASSWORD = 'correct horse battery';

const balance = {
  walletId: WALLET_ID,
  network: 'sandbox' as const,
  address: 'addr_test1qqexample',
  assets: [{ unit: 'lovelace', name: 'ADA', quantity: '10000000000', amount: '10000' }],
  utxoCount: 1,
  oneTransaction: { coins: 1, lovelace: '10000000000', withToken: {} },
};

const main = () =>
  new FakeMain({
    'wallet:create': () => ({ creationId: CREATION, words: WORDS, confirmPositions: [3, 11, 20] }),
    'wallet:confirmCreate': ({ words }) => {
      for (const { position, word } of words) {
        if (word !== WORDS[position - 1]) {
          throw mainError(
            ErrorCode.InvalidMnemonic,
            `Word ${position} does not match the phrase shown.`,
          );
        }
      }
      return { ...walletSummary(), exchangeAccountId: null };
    },
    'wallet:restore': () => ({ ...walletSummary({ name: 'Old' }), exchangeAccountId: null }),
    'wallet:importWatchOnly': () => ({
      ...walletSummary({ name: 'Cold', kind: 'watch-only' }),
      exchangeAccountId: null,
    }),
    'wallet:joinExchange': () => walletSummary(),
    'wallet:setApiKey': () => walletSummary(),
    'session:unlock': () => ({ state: 'unlocked', walletName: 'Main' }),
    'wallet:balance': () => balance,
  });

const fill = (flow: Onboarding) => {
  flow.name = 'Main';
  flow.password = PASSWORD;
  flow.repeat = PASSWORD;
};

describe('Onboarding', () => {
  it('creates a wallet, checks three words and, on the sandbox, joins, unlocks and reads the funds', async () => {
    const fake = main();
    const flow = new Onboarding(fake.api, () => 'sandbox');
    flow.choose('create');
    fill(flow);
    await flow.submitCreate();
    expect(flow.step).toBe('phrase');
    expect(flow.phrase?.words).toEqual(WORDS);
    flow.phraseWritten();
    expect(flow.step).toBe('confirm');
    flow.confirmWords = { 3: ' WORDC ', 11: 'wordk', 20: 'wordt' };
    await flow.submitConfirm();
    expect(fake.callsTo('wallet:confirmCreate')).toEqual([
      {
        creationId: CREATION,
        words: [
          { position: 3, word: 'wordc' },
          { position: 11, word: 'wordk' },
          { position: 20, word: 'wordt' },
        ],
      },
    ]);
    expect(fake.callsTo('wallet:joinExchange')).toEqual([
      { walletId: WALLET_ID, password: PASSWORD },
    ]);
    expect(fake.callsTo('session:unlock')).toEqual([{ password: PASSWORD }]);
    expect(flow.step).toBe('ready');
    expect(flow.balance?.assets[0]?.amount).toBe('10000');
    expect(flow.tasks.every((t) => t.state === 'done')).toBe(true);
    // Nothing secret outlives the flow.
    expect(flow.password).toBe('');
    expect(flow.phrase).toBeNull();
  });

  it('refuses a weak password before asking main, with the rule main applies', async () => {
    const fake = main();
    const flow = new Onboarding(fake.api, () => 'sandbox');
    flow.choose('create');
    flow.password = 'short';
    flow.repeat = 'short';
    await flow.submitCreate();
    expect(flow.error).toContain('at least 12 characters');
    expect(fake.callsTo('wallet:create')).toEqual([]);
    flow.password = PASSWORD;
    flow.repeat = `${PASSWORD}!`;
    expect(flow.repeatProblem).toBe('The two passwords are not the same.');
  });

  it('shows main’s words when a re-typed word is wrong, and stays on the check', async () => {
    const fake = main();
    const flow = new Onboarding(fake.api, () => 'sandbox');
    flow.choose('create');
    fill(flow);
    await flow.submitCreate();
    flow.phraseWritten();
    flow.confirmWords = { 3: 'wordc', 11: 'wrong', 20: 'wordt' };
    await flow.submitConfirm();
    expect(flow.step).toBe('confirm');
    expect(flow.error).toBe('Word 11 does not match the phrase shown.');
  });

  it('asks for every word it checks before calling main', async () => {
    const fake = main();
    const flow = new Onboarding(fake.api, () => 'sandbox');
    flow.choose('create');
    fill(flow);
    await flow.submitCreate();
    flow.phraseWritten();
    flow.confirmWords = { 3: 'wordc' };
    await flow.submitConfirm();
    expect(flow.error).toBe('Type word 11 from your written copy.');
    expect(fake.callsTo('wallet:confirmCreate')).toEqual([]);
  });

  it('restores from typed words, whatever the spacing or numbering', async () => {
    const fake = main();
    const flow = new Onboarding(fake.api, () => 'sandbox');
    flow.choose('restore');
    fill(flow);
    flow.restoreText = '1. Abandon  2) ability\nable';
    expect(flow.restoreWords).toEqual(['abandon', 'ability', 'able']);
    expect(flow.restoreProblem).toContain('you have typed 3');
    await flow.submitRestore();
    expect(fake.callsTo('wallet:restore')).toEqual([]);
    flow.restoreText = Array.from({ length: 12 }, () => 'abandon').join(' ');
    await flow.submitRestore();
    expect(fake.callsTo('wallet:restore')).toEqual([
      { name: 'Main', words: Array.from({ length: 12 }, () => 'abandon'), password: PASSWORD },
    ]);
    expect(flow.step).toBe('ready');
  });

  it('adds a watch-only wallet from its account public key', async () => {
    const fake = main();
    const flow = new Onboarding(fake.api, () => 'sandbox');
    flow.choose('watch');
    fill(flow);
    await flow.submitWatch();
    expect(flow.error).toContain('account public key');
    flow.accountKey = '  acct_xvk1example  ';
    await flow.submitWatch();
    expect(fake.callsTo('wallet:importWatchOnly')).toEqual([
      { name: 'Main', accountPublicKey: 'acct_xvk1example', password: PASSWORD },
    ]);
    expect(flow.step).toBe('ready');
  });

  it('on a real network asks for the API key instead of joining', async () => {
    const fake = main();
    const flow = new Onboarding(fake.api, () => 'staging');
    flow.choose('restore');
    fill(flow);
    flow.restoreText = Array.from({ length: 24 }, () => 'abandon').join(' ');
    await flow.submitRestore();
    expect(flow.step).toBe('api-key');
    flow.apiKey = 'not a key';
    await flow.submitApiKey();
    expect(flow.error).toContain('API key');
    flow.apiKey = 'A'.repeat(32);
    await flow.submitApiKey();
    expect(fake.callsTo('wallet:setApiKey')).toEqual([
      { walletId: WALLET_ID, apiKey: 'A'.repeat(32), password: PASSWORD },
    ]);
    expect(fake.callsTo('wallet:joinExchange')).toEqual([]);
    expect(flow.step).toBe('ready');
  });

  it('keeps the saved wallet when joining fails, and lets the trader retry or go on', async () => {
    const fake = main();
    let fails = true;
    fake.handle('wallet:joinExchange', () => {
      if (fails)
        throw mainError(ErrorCode.Network, 'Countersign could not reach the practice exchange.');
      return walletSummary();
    });
    const flow = new Onboarding(fake.api, () => 'sandbox');
    flow.choose('restore');
    fill(flow);
    flow.restoreText = Array.from({ length: 24 }, () => 'abandon').join(' ');
    await flow.submitRestore();
    expect(flow.step).toBe('finishing');
    expect(flow.finishError).toContain('could not reach');
    expect(flow.tasks.find((t) => t.id === 'join')?.state).toBe('failed');
    fails = false;
    await flow.finish();
    expect(flow.step).toBe('ready');
  });
});

describe('splitPhrase', () => {
  it('reads words however they were pasted', () => {
    expect(splitPhrase(' 1.abandon\t2.Ability,  able ')).toEqual(['abandon', 'ability', 'able']);
    expect(splitPhrase('')).toEqual([]);
  });
});
