import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import type { RunOperation } from '../operations/context';
import { connectionEvent } from '../testing/connection';
import { mainError } from '../testing/fake-main';
import { fakeMain, frameOver, WALLET_ID } from '../testing/frame';
import { operationResult, preparedDeposit } from '../testing/prepared';
import WithApp from '../testing/WithApp.svelte';
import FundsView from './FundsView.svelte';

const USDM = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';

const overview = (
  pending: Array<{ kind: 'deposit' | 'withdrawal'; txHash: string; title: string }> = [],
) => ({
  exchange: [
    { asset: 'ADA', unit: 'lovelace', free: '120.5', locked: '30' },
    { asset: 'USDM', unit: USDM, free: '45.25', locked: '0' },
  ],
  readAt: '2025-01-01T12:00:00Z',
  pending: pending.map((p) => ({ ...p, submittedAt: '2025-01-01T12:00:00Z' })),
});

const walletBalance = {
  walletId: WALLET_ID,
  network: 'sandbox' as const,
  address: 'addr_test1qqexampleaddress',
  assets: [
    { unit: 'lovelace', name: 'ADA', quantity: '500000000', amount: '500' },
    { unit: USDM, name: 'USDM', quantity: '100000000', amount: '100' },
  ],
  utxoCount: 2,
  oneTransaction: { coins: 2, lovelace: '500000000', withToken: {} },
};

const show = async (
  handlers: Parameters<typeof fakeMain>[0] = {},
  run: RunOperation = vi.fn(async () => null),
  state: 'unlocked' | 'locked' = 'unlocked',
) => {
  const main = fakeMain(
    {
      'funds:overview': () => overview(),
      'wallet:balance': () => walletBalance,
      'funds:rules': () => ({
        minDepositLovelace: '2000000',
        minWithdrawalLovelace: '2000000',
        withdrawalFeeLovelace: '1000000',
        withdrawalFeeFromPayout: false,
        depositReserveLovelace: '1300000',
        depositReservePerTokenLovelace: '400000',
        depositReserveCoins: 20,
        depositReservePerCoinLovelace: '2376',
      }),
      ...handlers,
    },
    state,
  );
  const app = await frameOver(main);
  render(WithApp, {
    props: { app, run, component: FundsView, props: { onunlock: async () => true } },
  });
  return { main, app, run };
};

describe('Funds', () => {
  it('shows free and locked per asset beside the wallet’s coins, numbers exact', async () => {
    await show({
      'funds:overview': () => ({
        ...overview(),
        exchange: [
          { asset: 'ADA', unit: 'lovelace', free: '12000.5', locked: '30' },
          { asset: 'USDM', unit: USDM, free: '45.25', locked: '0' },
        ],
      }),
      'wallet:balance': () => ({
        ...walletBalance,
        assets: [{ unit: 'lovelace', name: 'ADA', quantity: '1500123456', amount: '1500.123456' }],
      }),
    });
    const exchange = await screen.findByRole('table', { name: 'Exchange balances' });
    const ada = within(exchange).getByRole('row', { name: /ADA/ });
    // Every decimal kept, the thousands grouped as the Trade screen groups them.
    expect(
      within(ada)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['12,000.5', '30', '12,030.5']);
    // Locked is more than orders: the exchange holds a deposit there until it lands.
    expect(
      within(exchange)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Asset', 'Free', 'Locked', 'Total']);
    const note = document.getElementById(exchange.getAttribute('aria-describedby') ?? '');
    expect(note?.textContent).toMatch(/what your open orders hold, and a deposit until it lands/);
    const wallet = await screen.findByRole('table', { name: 'Wallet balance' });
    expect(within(wallet).getByRole('row', { name: /ADA/ }).textContent).toContain('1,500.123456');
    expect(document.body.textContent).toContain('addr_test1qqexampleaddress');
  });

  it('deposits through the operation runner with what the trader typed', async () => {
    const prepared = preparedDeposit();
    let prepare: (() => unknown) | undefined;
    const run = vi.fn<RunOperation>(async (p) => {
      prepare = p;
      return operationResult(prepared);
    });
    const { main } = await show({ 'funds:prepareDeposit': () => prepared }, run);
    const form = await screen.findByRole('form', { name: 'Deposit' });
    await fireEvent.input(within(form).getByLabelText('ADA'), { target: { value: '25' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Review deposit' }));
    await waitFor(() => expect(run).toHaveBeenCalled());
    await prepare?.();
    expect(main.callsTo('funds:prepareDeposit')).toEqual([
      { amounts: [{ unit: 'lovelace', amount: '25' }] },
    ]);
    await waitFor(() =>
      expect((within(form).getByLabelText('ADA') as HTMLInputElement).value).toBe(''),
    );
  });

  it('says what is wrong before anything is built', async () => {
    const run = vi.fn<RunOperation>(async () => null);
    await show({}, run);
    const form = await screen.findByRole('form', { name: 'Withdraw' });
    await fireEvent.input(within(form).getByLabelText('ADA'), { target: { value: '1' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Review withdrawal' }));
    expect(within(form).getByRole('alert').textContent).toContain('at least 2 ADA');
    await fireEvent.input(within(form).getByLabelText('ADA'), { target: { value: '120' } });
    expect(form.textContent).toContain('you can withdraw at most 119.5');
    expect(run).not.toHaveBeenCalled();
  });

  it('holds deposits and withdrawals while the exchange is unreachable, keeping what was typed', async () => {
    const run = vi.fn<RunOperation>(async () => null);
    const { main } = await show({}, run);
    const form = await screen.findByRole('form', { name: 'Deposit' });
    const ada = within(form).getByLabelText('ADA') as HTMLInputElement;
    await fireEvent.input(ada, { target: { value: '25' } });
    main.emit('exchange:connection', connectionEvent('offline', 'No answer.'));
    const review = within(form).getByRole('button', {
      name: 'Review deposit',
    }) as HTMLButtonElement;
    await waitFor(() => expect(review.disabled).toBe(true));
    expect(form.textContent).toContain(
      'No connection to the exchange: this can be prepared again once it is back.',
    );
    await fireEvent.submit(form);
    expect(run).not.toHaveBeenCalled();
    expect(ada.value).toBe('25');
    main.emit('exchange:connection', connectionEvent('live', 'Live.'));
    await waitFor(() => expect(review.disabled).toBe(false));
    await fireEvent.click(review);
    await waitFor(() => expect(run).toHaveBeenCalledOnce());
  });

  it('opened while the exchange is unreachable, says so once a panel and reads everything again once it is back', async () => {
    let down = true;
    const refused =
      <T>(what: string, value: T) =>
      (): T => {
        if (down)
          throw mainError(
            ErrorCode.Network,
            `Countersign could not reach the exchange to read ${what}.`,
          );
        return value;
      };
    const { main } = await show({
      'funds:overview': refused('your balances', overview()),
      'wallet:balance': refused("your wallet's coins", walletBalance),
    });
    main.emit('exchange:connection', connectionEvent('offline', 'No answer.'));
    await waitFor(() =>
      expect(
        screen.getByText(
          'Your balances on the exchange could not be read: no connection to the exchange. They are read again once it is back.',
        ),
      ).toBeTruthy(),
    );
    expect(
      screen.getByText(
        "Your wallet's coins could not be read: no connection to the exchange. They are read again once it is back.",
      ),
    ).toBeTruthy();
    // The forms point to the panel that says why, instead of saying it again.
    expect(
      screen.getByText(
        "This form shows once your wallet's coins can be read (see “In your wallet”).",
      ),
    ).toBeTruthy();
    expect(
      screen.getByText('This form shows once your balances can be read (see “On the exchange”).'),
    ).toBeTruthy();
    expect(document.body.textContent).not.toContain('could not reach the exchange');
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();

    down = false;
    main.emit('exchange:connection', connectionEvent('live', 'Live.'));
    expect(await screen.findByRole('form', { name: 'Deposit' })).toBeTruthy();
    expect(await screen.findByRole('form', { name: 'Withdraw' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Exchange balances' })).toBeTruthy();
  });

  it('fills the most that can be withdrawn, leaving the fee', async () => {
    await show();
    const form = await screen.findByRole('form', { name: 'Withdraw' });
    await fireEvent.click(within(form).getByRole('button', { name: 'Use the most ADA possible' }));
    expect((within(form).getByLabelText('ADA') as HTMLInputElement).value).toBe('119.5');
  });

  it('a deposit’s Max keeps back the fee and change, and less once every token goes too', async () => {
    await show();
    const form = await screen.findByRole('form', { name: 'Deposit' });
    const ada = within(form).getByLabelText('ADA') as HTMLInputElement;
    const usdm = within(form).getByLabelText('USDM') as HTMLInputElement;
    await fireEvent.click(within(form).getByRole('button', { name: 'Use the most ADA possible' }));
    // 500 ADA less 1.3 for the fee and change, less 0.4 for the USDM's change.
    expect(ada.value).toBe('498.3');
    expect(form.textContent).toContain('Max keeps 1.7 ADA there.');
    // All the USDM goes too: no change to carry it, and the ADA filled by Max follows.
    await fireEvent.click(within(form).getByRole('button', { name: 'Use the most USDM possible' }));
    expect(usdm.value).toBe('100');
    await waitFor(() => expect(ada.value).toBe('498.7'));
    // Once the trader types their own amount, it stays theirs.
    await fireEvent.input(ada, { target: { value: '200' } });
    await fireEvent.input(usdm, { target: { value: '50' } });
    expect(ada.value).toBe('200');
  });

  it('a deposit’s Max keeps back the fee of spending every coin of a wallet of many', async () => {
    await show({
      'wallet:balance': () => ({
        ...walletBalance,
        utxoCount: 60,
        oneTransaction: { coins: 60, lovelace: '500000000', withToken: {} },
      }),
    });
    const form = await screen.findByRole('form', { name: 'Deposit' });
    const ada = within(form).getByLabelText('ADA') as HTMLInputElement;
    await fireEvent.click(within(form).getByRole('button', { name: 'Use the most ADA possible' }));
    // 1.7 as above, and 40 coins past twenty at 0.002376 ADA each, rounded up to 0.1.
    expect(ada.value).toBe('498.2');
    expect(form.textContent).toContain('Max keeps 1.8 ADA there.');
  });

  it('a deposit’s Max moves what one transaction can spend from a wallet of more than 100 coins', async () => {
    // 150 coins; the hundred holding the most ADA hold 450 of the 500.
    await show({
      'wallet:balance': () => ({
        ...walletBalance,
        utxoCount: 150,
        oneTransaction: { coins: 100, lovelace: '450000000', withToken: {} },
      }),
    });
    const form = await screen.findByRole('form', { name: 'Deposit' });
    const ada = within(form).getByLabelText('ADA') as HTMLInputElement;
    await fireEvent.click(within(form).getByRole('button', { name: 'Use the most ADA possible' }));
    // 1.7 as above, and 80 coins past twenty at 0.002376 ADA each (0.19008), kept as 0.2.
    expect(ada.value).toBe('448.1');
    expect(form.textContent?.replace(/\s+/g, ' ')).toContain(
      'Max keeps 1.9 ADA there, and the ADA of your 50 smallest coins: one deposit spends at most 100 coins.',
    );
  });

  it('a deposit’s Max with all of a token counts the hundred coins that carry the token', async () => {
    // 150 coins: the richest hundred hold 450 ADA; a hundred led by the USDM's coins, 420.
    await show({
      'wallet:balance': () => ({
        ...walletBalance,
        utxoCount: 150,
        oneTransaction: {
          coins: 100,
          lovelace: '450000000',
          withToken: { [USDM]: { coins: 100, lovelace: '420000000' } },
        },
      }),
    });
    const form = await screen.findByRole('form', { name: 'Deposit' });
    const ada = within(form).getByLabelText('ADA') as HTMLInputElement;
    await fireEvent.click(within(form).getByRole('button', { name: 'Use the most ADA possible' }));
    expect(ada.value).toBe('448.1');
    // All the USDM goes too: Max follows, to what the coins carrying it hold, less 1.5.
    await fireEvent.click(within(form).getByRole('button', { name: 'Use the most USDM possible' }));
    await waitFor(() => expect(ada.value).toBe('418.5'));
    expect(form.textContent?.replace(/\s+/g, ' ')).toContain(
      'Max keeps 1.5 ADA there, and the ADA of your 50 other coins: one deposit spends at most 100 coins.',
    );
  });

  it('shows a deposit on its way until main says it landed', async () => {
    const { main, app } = await show({
      'funds:overview': () =>
        overview([{ kind: 'deposit', txHash: 'ab'.repeat(32), title: 'Deposit 25 ADA' }]),
    });
    const pending = await screen.findByRole('list', {
      name: 'Deposits and withdrawals on their way',
    });
    expect(pending.textContent).toContain('Deposit 25 ADA');
    expect(
      screen.getByText(/Each is followed here until it lands, for up to 3 hours, and you are told/),
    ).toBeTruthy();
    // The whole transaction ID can be copied, to look it up in an explorer (the list shortens it).
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const copyId = within(pending).getByRole('button', {
      name: 'Copy ID: the transaction of Deposit 25 ADA',
    });
    await fireEvent.click(copyId);
    expect(writeText).toHaveBeenCalledWith('ab'.repeat(32));
    await waitFor(() => expect(app.notices.all[0]?.title).toBe('Transaction ID copied'));
    // Without a clipboard, the notice holds the whole ID to select by hand.
    writeText.mockRejectedValueOnce(new Error('denied'));
    await fireEvent.click(copyId);
    await waitFor(() => expect(app.notices.all[0]?.title).toBe('Could not copy'));
    expect(app.notices.all[0]?.detail).toContain('ab'.repeat(32));
    main.emit('funds:changed', overview());
    await waitFor(() =>
      expect(
        screen.queryByRole('list', { name: 'Deposits and withdrawals on their way' }),
      ).toBeNull(),
    );
    // It landed: the wallet's coins are read again.
    expect(main.callsTo('wallet:balance').length).toBeGreaterThanOrEqual(2);
  });

  it('asks to unlock when the exchange balance needs the session', async () => {
    await show(
      {
        'funds:overview': () => {
          throw mainError(ErrorCode.Locked, 'The trading session is locked.');
        },
      },
      undefined,
      'locked',
    );
    expect((await screen.findAllByText('Unlock your wallet to see this.')).length).toBeGreaterThan(
      0,
    );
    expect(screen.getAllByRole('button', { name: 'Unlock' }).length).toBeGreaterThan(0);
  });

  it('lets a watch-only wallet deposit and withdraw, saying up front that its offline device signs them', async () => {
    const main = fakeMain({
      'funds:overview': () => overview(),
      'wallet:balance': () => walletBalance,
      'session:status': () => ({ state: 'unlocked', walletName: 'Cold', walletKind: 'watch-only' }),
    });
    const app = await frameOver(main);
    const run = vi.fn<RunOperation>(async () => null);
    render(WithApp, { props: { app, run, component: FundsView, props: {} } });
    const note = await screen.findByRole('note', { name: 'Signed on your offline device' });
    const said = note.textContent?.replace(/\s+/g, ' ');
    expect(said).toContain('Cold is watch-only: its wallet key is on another device.');
    expect(said).toContain('bring the signature back here to send it');
    // Its balances show, and both forms are there: the dialog takes it from there.
    expect(await screen.findByRole('table', { name: 'Exchange balances' })).toBeTruthy();
    const form = await screen.findByRole('form', { name: 'Deposit' });
    expect(screen.getByRole('form', { name: 'Withdraw' })).toBeTruthy();
    await fireEvent.input(within(form).getByLabelText('ADA'), { target: { value: '25' } });
    await fireEvent.click(within(form).getByRole('button', { name: 'Review deposit' }));
    await waitFor(() => expect(run).toHaveBeenCalledOnce());
  });

  it('lists what waits for its signature, and opens it again to load the signed file', async () => {
    const waiting = preparedDeposit({
      offline: true,
      needsPassword: false,
      saved: true,
      title: 'Deposit 25 ADA',
      expiresAt: '2025-01-01T15:00:00Z',
    });
    let listed = [waiting];
    const main = fakeMain({
      'funds:overview': () => overview(),
      'wallet:balance': () => walletBalance,
      'operations:awaitingSignature': () => listed,
      'session:status': () => ({ state: 'unlocked', walletName: 'Cold', walletKind: 'watch-only' }),
    });
    const app = await frameOver(main);
    let opened: unknown = null;
    const run = vi.fn<RunOperation>(async (prepare) => {
      opened = await prepare();
      return null;
    });
    render(WithApp, { props: { app, run, component: FundsView, props: {} } });
    const list = await screen.findByRole('list', {
      name: 'Deposits and withdrawals waiting for a signature',
    });
    expect(list.textContent).toContain('Deposit 25 ADA');
    await fireEvent.click(
      within(list).getByRole('button', { name: 'Load the signature: Deposit 25 ADA' }),
    );
    await waitFor(() => expect(run).toHaveBeenCalledOnce());
    // The dialog gets the operation as main holds it now.
    expect(opened).toEqual({ ok: true, value: waiting });

    // Sent or expired meanwhile: said in words, no dialog.
    listed = [];
    await fireEvent.click(
      within(list).getByRole('button', { name: 'Load the signature: Deposit 25 ADA' }),
    );
    await waitFor(() => expect(run).toHaveBeenCalledTimes(2));
    expect(opened).toMatchObject({
      ok: false,
      error: { code: ErrorCode.NotFound, message: expect.stringContaining('no longer waiting') },
    });
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: /waiting for a signature/ })).toBeNull(),
    );
  });
});
