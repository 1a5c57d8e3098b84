import { fireEvent, render, screen, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { FakeMain } from '../testing/fake-main';
import { walletSummary } from '../testing/frame';
import Onboarding from './Onboarding.svelte';
import { Onboarding as Flow } from './onboarding.svelte';

const WORDS = Array.from({ length: 24 }, (_, i) => `word${String.fromCharCode(97 + i)}`);

const main = () =>
  new FakeMain({
    'wallet:create': () => ({
      creationId: '5a0b3c1d-7e2f-4a6b-8c9d-0e1f2a3b4c5d',
      words: WORDS,
      confirmPositions: [2, 9],
    }),
    'wallet:confirmCreate': () => ({ ...walletSummary(), exchangeAccountId: null }),
    'wallet:joinExchange': () => walletSummary(),
    'session:unlock': () => ({ state: 'unlocked', walletName: 'Main' }),
    'wallet:balance': () => ({
      walletId: walletSummary().id,
      network: 'sandbox',
      address: 'addr_test1qqexample',
      assets: [
        { unit: 'lovelace', name: 'ADA', quantity: '10000000000', amount: '10000' },
        { unit: 'usdm', name: 'USDM', quantity: '10000000000', amount: '10000' },
      ],
      utxoCount: 1,
      oneTransaction: { coins: 1, lovelace: '10000000000', withToken: {} },
    }),
  });

const type = (label: string | RegExp, value: string) =>
  fireEvent.input(screen.getByLabelText(label), { target: { value } });

describe('Onboarding screen', () => {
  it('takes a new trader from nothing to a funded, unlocked wallet', async () => {
    const fake = main();
    const flow = new Flow(fake.api, () => 'sandbox');
    const ondone = vi.fn();
    render(Onboarding, { onboarding: flow, network: 'sandbox', networkLabel: 'Sandbox', ondone });

    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to Countersign' })).toBeTruthy();
    expect(document.body.textContent).toContain('practice exchange');
    await fireEvent.click(screen.getByRole('button', { name: /Create a new wallet/ }));

    expect(screen.getByRole('heading', { level: 1, name: 'Create a new wallet' })).toBeTruthy();
    await type('Spending password', 'short');
    expect(
      screen.getByRole('meter', { name: 'Password strength' }).getAttribute('aria-valuetext'),
    ).toBe('Too weak');
    await type('Spending password', 'correct horse battery staple');
    expect(
      screen.getByRole('meter', { name: 'Password strength' }).getAttribute('aria-valuetext'),
    ).toBe('Strong');
    await type('Type it again', 'correct horse battery staple');
    await fireEvent.click(screen.getByRole('button', { name: 'Create wallet' }));

    const phrase = await screen.findByRole('list', { name: 'Recovery phrase' });
    expect(within(phrase).getAllByRole('listitem')).toHaveLength(24);
    const next = screen.getByRole('button', { name: 'Continue' }) as HTMLButtonElement;
    expect(next.disabled).toBe(true);
    await fireEvent.click(screen.getByRole('checkbox', { name: /written down all 24 words/ }));
    await fireEvent.click(next);

    // The phrase has left the screen for good.
    expect(screen.queryByRole('list', { name: 'Recovery phrase' })).toBeNull();
    await type('Word 2', WORDS[1] ?? '');
    await type('Word 9', WORDS[8] ?? '');
    await fireEvent.click(screen.getByRole('button', { name: 'Confirm and save' }));

    await screen.findByRole('heading', { level: 1, name: /Main is ready/ });
    const holds = screen.getByRole('region', { name: 'Your wallet holds' });
    expect(holds.textContent).toContain('ADA');
    // Grouped as every table groups amounts.
    expect(holds.textContent).toContain('10,000');
    expect(fake.callsTo('wallet:joinExchange')).toHaveLength(1);
    await fireEvent.click(screen.getByRole('button', { name: 'See your funds' }));
    expect(ondone).toHaveBeenCalledWith('funds');
  });

  it('offers a way back when adding a wallet from Settings', async () => {
    const oncancel = vi.fn();
    const flow = new Flow(main().api, () => 'sandbox');
    flow.adding = true;
    render(Onboarding, {
      onboarding: flow,
      network: 'sandbox',
      networkLabel: 'Sandbox',
      ondone: vi.fn(),
      oncancel,
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Add a wallet' })).toBeTruthy();
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(oncancel).toHaveBeenCalled();
  });

  it('explains the watch-only wallet: it trades here, but moving funds needs the restored wallet', async () => {
    const flow = new Flow(main().api, () => 'sandbox');
    render(Onboarding, {
      onboarding: flow,
      network: 'sandbox',
      networkLabel: 'Sandbox',
      ondone: vi.fn(),
    });
    await fireEvent.click(screen.getByRole('button', { name: /Add a watch-only wallet/ }));
    expect(document.body.textContent?.replace(/\s+/g, ' ')).toMatch(
      /Deposits and withdrawals need the wallet key.*not available in this version.*restore the wallet from its recovery phrase/s,
    );
    expect(screen.getByLabelText('Account public key')).toBeTruthy();
  });
});
