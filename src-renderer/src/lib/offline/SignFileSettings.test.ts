import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import type { Component } from 'svelte';
import { describe, expect, it, vi } from 'vitest';
import type { TransactionFileReading } from '../../../../src-shared/contract/offline';
import { ErrorCode } from '../../../../src-shared/errors';
import { mainError, type FakeMain } from '../testing/fake-main';
import { fakeMain, frameOver, WALLET_ID, walletSummary } from '../testing/frame';
import { preparedDeposit, TX_ID } from '../testing/prepared';
import WithApp from '../testing/WithApp.svelte';
import { Theme } from '../theme/theme.svelte';
import SettingsView from '../settings/SettingsView.svelte';

const FILE_TEXT = `${JSON.stringify({ type: 'Tx ConwayEra', description: 'Ledger Cddl Format', cborHex: '84a0a0f5f6' })}\n`;
const ada = (amount: string) => ({ unit: 'lovelace', name: 'ADA', quantity: '0', amount });

/** A deposit as main reads it on the offline computer: no input amounts, parties of the wallet only. */
const reading = (over: Partial<TransactionFileReading> = {}): TransactionFileReading => {
  const summary = preparedDeposit().summary;
  return {
    summary: {
      ...summary,
      inputs: summary.inputs.map((input) => ({ ...input, party: 'unknown', amounts: null })),
      outputs: summary.outputs.map((output) => ({
        ...output,
        party: output.party === 'own' ? 'own' : 'unknown',
      })),
      validUntil: '2099-01-02T03:04:05.000Z',
    },
    network: 'A Cardano test network (test coins)',
    leaves: [ada('25')],
    returns: [ada('74.82')],
    refusals: [],
    warnings: [
      'A computer without the chain cannot know what the coins this transaction spends hold.',
    ],
    ...over,
  };
};

const renderSettings = async (main: FakeMain) => {
  const app = await frameOver(main);
  const theme = new Theme(null, null, () => null);
  render(WithApp, {
    props: {
      app,
      run: vi.fn(async () => null),
      component: SettingsView as unknown as Component<Record<string, unknown>>,
      props: { theme, onaddwallet: vi.fn() },
    },
  });
};

const PANEL = { name: 'Sign a transaction file' };

/** Settings over this main, and the panel. */
const show = async (main: FakeMain) => {
  await renderSettings(main);
  return within(screen.getByRole('region', PANEL));
};

const text = (element: HTMLElement) => element.textContent?.replace(/\s+/g, ' ').trim();

/** Chooses a file in the panel's file input, as the trader would. */
const choose = async (panel: ReturnType<typeof within>, text = FILE_TEXT) => {
  const input = panel.getByLabelText('Transaction file');
  const file = new File([text], 'deposit.tx.json', { type: 'application/json' });
  await fireEvent.change(input, { target: { files: [file] } });
};

describe('Sign a transaction file', () => {
  it('is offered only for a wallet that holds its key', async () => {
    const watchOnly = fakeMain({
      'session:status': () => ({
        state: 'locked',
        walletName: 'Cold',
        walletId: WALLET_ID,
        walletKind: 'watch-only',
        autoLock: 15,
        lockReason: 'start',
        nextUnlockAttemptAt: null,
      }),
      'wallet:list': () => ({
        wallets: [walletSummary({ name: 'Cold', kind: 'watch-only' })],
        activeWalletId: WALLET_ID,
      }),
    });
    await renderSettings(watchOnly);
    expect(screen.getByRole('region', { name: 'Wallets' })).toBeTruthy();
    expect(screen.queryByRole('region', PANEL)).toBeNull();
  });

  it('sends the file’s text, shows what the transaction does, signs and says what to do next', async () => {
    const main = fakeMain({
      'offline:readTransactionFile': () => reading(),
      'offline:signTransactionFile': () => ({
        fileName: '/media/usb/countersign-a1a1a1a1.witness.json',
      }),
    });
    const panel = await show(main);
    await choose(panel);
    await waitFor(() =>
      expect(main.callsTo('offline:readTransactionFile')).toEqual([
        { file: FILE_TEXT, medium: 'file' },
      ]),
    );
    await panel.findByText('A Cardano test network (test coins)');
    const where = within(panel.getByRole('region', { name: 'Where it goes' }));
    expect(where.getByText('Not yours')).toBeTruthy();
    expect(where.getByText('Your wallet')).toBeTruthy();
    const spent = panel.getByRole('region', { name: 'What is spent' });
    expect(spent.textContent).toContain('not known offline');
    expect(
      panel.getByText('Leaves to addresses not yours').nextElementSibling?.textContent,
    ).toMatch(/25\s+ADA/);
    expect(panel.getByText('Comes back to your wallet').nextElementSibling?.textContent).toMatch(
      /74\.82\s+ADA/,
    );
    expect(panel.getByText('Network fee').nextElementSibling?.textContent).toMatch(/0\.18\s+ADA/);
    expect(panel.getByTestId('sign-file-warnings').textContent).toContain(
      'cannot know what the coins',
    );
    expect(panel.queryByRole('alert')).toBeNull();

    const sign = panel.getByRole('button', {
      name: 'Sign and save signature…',
    }) as HTMLButtonElement;
    expect(sign.disabled).toBe(true);
    await fireEvent.input(panel.getByLabelText('Spending password'), {
      target: { value: 'my spending password' },
    });
    await fireEvent.click(sign);
    await waitFor(() =>
      expect(main.callsTo('offline:signTransactionFile')).toEqual([
        { file: FILE_TEXT, password: 'my spending password' },
      ]),
    );
    const done = await panel.findByRole('status');
    expect(done.textContent).toContain('/media/usb/countersign-a1a1a1a1.witness.json');
    expect(text(done)).toContain('Carry this file to the computer that prepared the deposit');
    expect(panel.queryByLabelText('Spending password')).toBeNull();
    expect(panel.getByTitle(TX_ID)).toBeTruthy();
  });

  it('says when this computer’s clock is already past the time the transaction is valid until', async () => {
    const past = reading();
    const main = fakeMain({
      'offline:readTransactionFile': () => ({
        ...past,
        summary: { ...past.summary, validUntil: '2001-01-02T03:04:05.000Z' },
      }),
    });
    const panel = await show(main);
    await choose(panel);
    const until = await panel.findByText('Valid until');
    expect(text(until.nextElementSibling as HTMLElement)).toMatch(
      /^2001-01-0\d .*\(already passed by this computer’s clock\)$/,
    );
    // A time still ahead has no note.
    const ahead = fakeMain({ 'offline:readTransactionFile': () => reading() });
    document.body.replaceChildren();
    const again = await show(ahead);
    await choose(again);
    const later = await again.findByText('Valid until');
    expect(text(later.nextElementSibling as HTMLElement)).not.toContain('already passed');
  });

  it('signs for the camera: the signature as a QR code, nothing saved, the password gone', async () => {
    const witness = `${JSON.stringify({ type: 'TxWitness ConwayEra', description: '', cborHex: `8200825820${'11'.repeat(32)}5840${'22'.repeat(64)}` })}\n`;
    const main = fakeMain({
      'offline:readTransactionFile': () => reading(),
      'offline:signTransaction': () => ({ witness }),
    });
    const panel = await show(main);
    await choose(panel);
    await panel.findByText('A Cardano test network (test coins)');
    await fireEvent.input(panel.getByLabelText('Spending password'), {
      target: { value: 'my spending password' },
    });
    await fireEvent.click(panel.getByRole('button', { name: 'Sign and show QR code' }));
    const code = await panel.findByRole('figure', { name: 'QR code of the signature' });
    expect(within(code).getByRole('img', { name: 'QR code' })).toBeTruthy();
    expect(main.callsTo('offline:signTransaction')).toEqual([
      { file: FILE_TEXT, password: 'my spending password', medium: 'file' },
    ]);
    expect(main.callsTo('offline:signTransactionFile')).toEqual([]);
    expect(text(panel.getByRole('status'))).toContain('choose “Scan the signature’s QR code”');
    expect(panel.queryByLabelText('Spending password')).toBeNull();
  });

  it('shows the refusals and asks for no password', async () => {
    const main = fakeMain({
      'offline:readTransactionFile': () =>
        reading({
          refusals: [
            'It withdraws staking rewards, which a deposit or withdrawal never needs: do not sign it.',
          ],
        }),
    });
    const panel = await show(main);
    await choose(panel);
    const refused = await panel.findByRole('alert');
    expect(refused.textContent).toContain('Countersign will not sign this');
    expect(refused.textContent).toContain('It withdraws staking rewards');
    expect(panel.queryByLabelText('Spending password')).toBeNull();
    expect(panel.queryByRole('button', { name: 'Sign and save signature…' })).toBeNull();
  });

  it('says why a file cannot be used, and a wrong password, in main’s words', async () => {
    const main = fakeMain({
      'offline:readTransactionFile': ({ file }) => {
        if (file === 'hello')
          throw mainError(
            ErrorCode.SignedFile,
            'This file cannot be signed here: it is not a text envelope (JSON).',
          );
        return reading();
      },
      'offline:signTransactionFile': () => {
        throw mainError(
          ErrorCode.WrongPassword,
          'Wrong password. 4 more tries before a wait is imposed.',
        );
      },
    });
    const panel = await show(main);
    await choose(panel, 'hello');
    expect((await panel.findByRole('alert')).textContent).toBe(
      'This file cannot be signed here: it is not a text envelope (JSON).',
    );
    expect(panel.queryByRole('region', { name: 'Where it goes' })).toBeNull();

    await choose(panel);
    await panel.findByRole('region', { name: 'Where it goes' });
    expect(panel.queryByRole('alert')).toBeNull();
    await fireEvent.input(panel.getByLabelText('Spending password'), { target: { value: 'nope' } });
    await fireEvent.click(panel.getByRole('button', { name: 'Sign and save signature…' }));
    expect((await panel.findByRole('alert')).textContent).toBe(
      'Wrong password. 4 more tries before a wait is imposed.',
    );
    expect(panel.queryByRole('status')).toBeNull();
  });

  it('refuses an answer that is not what main promised', async () => {
    const main = fakeMain({
      'offline:readTransactionFile': () =>
        ({ ...reading(), refusals: undefined }) as unknown as TransactionFileReading,
    });
    const panel = await show(main);
    await choose(panel);
    expect((await panel.findByRole('alert')).textContent).toMatch(/could not read its own answer/);
    expect(panel.queryByRole('button', { name: 'Sign and save signature…' })).toBeNull();
  });
});
