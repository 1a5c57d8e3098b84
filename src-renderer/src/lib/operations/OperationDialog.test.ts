import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it, vi } from 'vitest';
import { Notices } from '../shell/notices.svelte';
import { ErrorCode } from '../../../../src-shared/errors';
import { FakeMain, mainError } from '../testing/fake-main';
import { operationResult, preparedDeposit, preparedOrder } from '../testing/prepared';
import OperationDialog from './OperationDialog.svelte';
import { OperationRunner } from './runner.svelte';
import type { PreparedOperation } from '../../../../src-shared/contract';

const open = async (
  prepared: PreparedOperation,
  now = () => Date.parse('2025-01-01T00:00:00Z'),
) => {
  const main = new FakeMain({
    'operations:confirm': () => operationResult(prepared),
    'operations:discard': () => null,
  });
  const runner = new OperationRunner({
    api: main.api,
    notices: new Notices(),
    skipOrderConfirmation: () => false,
  });
  render(OperationDialog, { runner, now });
  const outcome = runner.run(async () => ({ ok: true, value: prepared }));
  const dialog = await screen.findByRole('dialog');
  return { main, runner, outcome, dialog };
};

describe('the confirmation dialog', () => {
  it('shows what is signed, read from the transaction, and that it matches the request', async () => {
    const { dialog } = await open(preparedDeposit());
    const view = within(dialog);
    expect(view.getByRole('heading', { name: 'Confirm your deposit' })).toBeTruthy();
    expect(view.getByTestId('operation-title').textContent).toBe('Deposit 25 ADA');
    expect(view.getByTestId('intent-check').textContent).toContain('Matches what you asked');
    const spent = view.getByRole('region', { name: 'What is spent' });
    expect(spent.textContent).toContain('Your wallet');
    expect(spent.textContent).toContain('100');
    // One coin needs no total.
    expect(within(spent).queryByText(/in all/)).toBeNull();
    const goes = view.getByRole('region', { name: 'Where it goes' });
    expect(goes.textContent).toContain('Exchange deposit address');
    expect(goes.textContent).toContain('25');
    expect(goes.textContent).toContain('74.82');
    // The deposit's datum names the account it credits, not an order.
    expect(goes.textContent).toContain('with the account to credit');
    expect(goes.textContent).not.toContain('order');
    expect(dialog.textContent).toContain('0.18');
    expect(dialog.textContent).toContain('Your wallet key (on this computer)');
  });

  it('adds up what the coins spent hold when there are several', async () => {
    const base = preparedDeposit();
    const coin = (n: number, ada: string, lovelace: string) => ({
      id: `${n.toString(16).padStart(64, '0')}#0`,
      party: 'own' as const,
      amounts: [{ unit: 'lovelace', name: 'ADA', quantity: lovelace, amount: ada }],
    });
    const { dialog } = await open(
      preparedDeposit({
        summary: {
          ...base.summary,
          inputs: [
            coin(1, '10000', '10000000000'),
            coin(2, '9', '9000000'),
            coin(3, '0.5', '500000'),
          ],
        },
      }),
    );
    const spent = within(dialog).getByRole('region', { name: 'What is spent' });
    const total = within(spent).getByRole('rowheader', { name: '3 coins in all' }).closest('tr');
    if (!total) throw new Error('no total row');
    expect(within(total).getByRole('cell').textContent?.replace(/\s+/g, ' ').trim()).toBe(
      '10,009.5 ADA',
    );
  });

  it('folds a long list of the wallet’s coins, never one of someone else’s, and unfolds it', async () => {
    const base = preparedDeposit();
    const inputs = Array.from({ length: 40 }, (_, n) => ({
      id: `${n.toString(16).padStart(64, '0')}#0`,
      party: n === 30 ? ('unknown' as const) : ('own' as const),
      amounts: [{ unit: 'lovelace', name: 'ADA', quantity: '2000000', amount: '2' }],
    }));
    const { dialog } = await open(preparedDeposit({ summary: { ...base.summary, inputs } }));
    const spent = within(dialog).getByRole('region', { name: 'What is spent' });
    // The header, five of the wallet's coins, the stranger's, the fold and the total.
    expect(within(spent).getAllByRole('row')).toHaveLength(9);
    expect(spent.textContent).toContain('Not a coin of your wallet');
    expect(spent.textContent).toContain('34 more coins of your wallet');
    const total = within(spent).getByRole('rowheader', { name: '40 coins in all' }).closest('tr');
    expect(total?.textContent).toContain('80 ADA');
    await fireEvent.click(within(spent).getByRole('button', { name: 'Show all 40 coins' }));
    expect(within(spent).getAllByRole('row')).toHaveLength(43);
    await fireEvent.click(within(spent).getByRole('button', { name: 'Show fewer coins' }));
    expect(within(spent).getAllByRole('row')).toHaveLength(9);
  });

  it('names a withdrawal’s coin that is not on the chain as the exchange’s, not the wallet’s', async () => {
    const base = preparedDeposit();
    const { dialog } = await open(
      preparedDeposit({
        kind: 'withdrawal',
        title: 'Withdraw 50 ADA',
        summary: {
          ...base.summary,
          inputs: [{ id: `${'c3'.repeat(32)}#0`, party: 'not-on-chain', amounts: null }],
        },
      }),
    );
    const spent = within(dialog).getByRole('region', { name: 'What is spent' });
    expect(spent.textContent).toContain('The exchange (not a coin on the chain, so not yours)');
    expect(spent.textContent).toContain('not stated in the transaction');
    expect(spent.textContent).not.toContain('Your wallet');
  });

  /** An order spending one coin that is not the wallet's, whose contents the transaction does not state. */
  const unstatedOrder = (over: Partial<PreparedOperation> = {}) =>
    preparedOrder({
      summary: {
        ...preparedOrder().summary,
        inputs: [{ id: `${'d0'.repeat(32)}#0`, party: 'unknown', amounts: null }],
      },
      ...over,
    });

  it('says what the check proved of the coin an order spends, whose contents the transaction does not state', async () => {
    const { dialog } = await open(unstatedOrder());
    const spent = within(dialog).getByRole('region', { name: 'What is spent' });
    expect(spent.textContent).toContain('Not a coin of your wallet');
    expect(spent.textContent).toContain(
      'every output goes to this order or back to your exchange account',
    );
  });

  it.each([
    [
      'the check found a difference',
      { matches: false, differences: ['price differs'], warnings: [] },
    ],
    [
      'something could not be verified',
      { matches: true, differences: [], warnings: ['unverified'] },
    ],
  ])('claims nothing of an order’s spent coin when %s', async (_why, check) => {
    const { dialog } = await open(unstatedOrder({ check }));
    const spent = within(dialog).getByRole('region', { name: 'What is spent' });
    expect(spent.textContent).not.toContain('Countersign checked');
  });

  it('asks the spending password for a deposit and signs only once it is typed', async () => {
    const { dialog, main, outcome } = await open(preparedDeposit());
    const view = within(dialog);
    const sign = view.getByRole('button', { name: 'Sign and deposit' });
    expect((sign as HTMLButtonElement).disabled).toBe(true);
    await fireEvent.input(view.getByLabelText('Spending password'), {
      target: { value: 'my long password' },
    });
    expect((sign as HTMLButtonElement).disabled).toBe(false);
    await fireEvent.click(sign);
    await outcome;
    expect(main.callsTo('operations:confirm')).toEqual([
      { operationId: preparedDeposit().operationId, password: 'my long password' },
    ]);
  });

  it('after a wrong password, brings its refusal into sight and the field back to the keyboard', async () => {
    const { dialog, main, outcome } = await open(preparedDeposit());
    let attempts = 0;
    main.handle('operations:confirm', () => {
      if (++attempts === 1) {
        throw mainError(ErrorCode.WrongPassword, 'That password is wrong. Type it again.');
      }
      return operationResult(preparedDeposit());
    });
    // The dialog scrolls: what it brings into sight is what its body is scrolled to.
    const shown: Element[] = [];
    const scroll = vi.spyOn(HTMLElement.prototype, 'scrollIntoView').mockImplementation(function (
      this: HTMLElement,
    ) {
      shown.push(this);
    });
    try {
      const view = within(dialog);
      const field = view.getByLabelText('Spending password') as HTMLInputElement;
      await fireEvent.input(field, { target: { value: 'not my password' } });
      await fireEvent.click(view.getByRole('button', { name: 'Sign and deposit' }));
      const refusal = await view.findByRole('alert');
      expect(refusal.textContent).toContain('That password is wrong. Type it again.');
      expect(shown).toContain(refusal);
      expect(document.activeElement).toBe(field);
      expect(field.value).toBe('');

      // Wrong again: brought into sight again, not only the first time.
      await fireEvent.input(field, { target: { value: 'still not it' } });
      attempts = 0;
      await fireEvent.click(view.getByRole('button', { name: 'Sign and deposit' }));
      await waitFor(() => expect(shown.length).toBe(2));
      expect(shown[1]).toBe(await view.findByRole('alert'));

      await fireEvent.input(field, { target: { value: 'my long password' } });
      await fireEvent.click(view.getByRole('button', { name: 'Sign and deposit' }));
      await outcome;
      expect(attempts).toBe(2);
    } finally {
      scroll.mockRestore();
    }
  });

  it('lists the differences and offers no way to sign a transaction that does not match', async () => {
    const { dialog, main, outcome } = await open(
      preparedOrder({
        check: {
          matches: false,
          differences: ['The price in the order is 0.5512 USDM, not 0.4512 USDM as you asked.'],
          warnings: [],
        },
      }),
    );
    const view = within(dialog);
    const check = view.getByTestId('intent-check');
    expect(check.textContent).toContain('Does not match what you asked');
    expect(check.textContent).toContain('0.5512 USDM, not 0.4512 USDM');
    expect(view.queryByRole('button', { name: /^Sign/ })).toBeNull();
    await fireEvent.click(view.getByRole('button', { name: 'Discard, do not sign' }));
    expect(await outcome).toBeNull();
    expect(main.callsTo('operations:confirm')).toEqual([]);
    expect(main.callsTo('operations:discard')).toHaveLength(1);
  });

  it('shows the order terms read from the datum, the side in words and not only in colour', async () => {
    const { dialog } = await open(preparedOrder());
    const terms = within(dialog).getByRole('region', { name: 'Order terms' });
    expect(terms.textContent).toContain('Buy');
    expect(terms.textContent).toContain('0.4512');
    expect(terms.textContent).toContain('100');
    expect(within(dialog).queryByLabelText('Spending password')).toBeNull();
  });

  it('makes the trader tick each warning before signing', async () => {
    const warnings = ['The order data could not be read.', 'The fee is higher than usual.'];
    const { dialog } = await open(
      preparedOrder({ check: { matches: true, differences: [], warnings } }),
    );
    const view = within(dialog);
    const sign = view.getByRole('button', { name: 'Sign and place order' }) as HTMLButtonElement;
    expect(sign.disabled).toBe(true);
    await fireEvent.click(view.getByRole('checkbox', { name: warnings[0] }));
    expect(sign.disabled).toBe(true);
    await fireEvent.click(view.getByRole('checkbox', { name: warnings[1] }));
    expect(sign.disabled).toBe(false);
  });

  it('counts down to the expiry and offers to build again once it has passed', async () => {
    let now = Date.parse('2025-01-01T00:00:00Z');
    const { dialog, runner } = await open(
      preparedOrder({ expiresAt: '2025-01-01T00:01:30Z' }),
      () => now,
    );
    expect(dialog.textContent).toContain('expires in 1 min 30 s');
    now += 91_000;
    // The dialog's clock ticks every second.
    await waitFor(() => expect(dialog.textContent).toContain('expired: build it again'), {
      timeout: 2500,
    });
    const rebuild = vi.spyOn(runner, 'rebuild');
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Build it again' }));
    expect(rebuild).toHaveBeenCalled();
    expect(within(dialog).queryByRole('button', { name: 'Sign and place order' })).toBeNull();
  });

  it('takes a watch-only wallet’s operation to its offline device and back: save, load the signed file, send', async () => {
    const prepared = preparedDeposit({ offline: true, needsPassword: false });
    const { dialog, main, outcome } = await open(prepared);
    let refuseFirst = true;
    main.handle('operations:exportUnsigned', () => ({
      fileName: 'countersign-deposit-ab12cd34.unsigned.json',
    }));
    main.handle('operations:submitSigned', () => {
      if (refuseFirst) {
        refuseFirst = false;
        throw mainError(
          ErrorCode.SignedFile,
          'The file is not signed by the key of “Cold”. Nothing was sent.',
        );
      }
      return operationResult(prepared);
    });
    const view = within(dialog);
    const section = view.getByRole('region', { name: 'Sign it on your offline device' });
    // No password here: the key is elsewhere. Sending waits for a signed file.
    expect(view.queryByLabelText('Spending password')).toBeNull();
    const send = view.getByRole('button', {
      name: 'Check signature and deposit',
    }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);

    await fireEvent.click(within(section).getByRole('button', { name: 'Save transaction…' }));
    await waitFor(() =>
      expect(within(section).getByRole('status').textContent).toContain(
        'Saved as countersign-deposit-ab12cd34.unsigned.json',
      ),
    );
    expect(main.callsTo('operations:exportUnsigned')).toEqual([
      { operationId: prepared.operationId },
    ]);

    const input = within(section).getByLabelText(/Load the signed file/);
    const choose = (text: string) =>
      fireEvent.change(input, {
        target: { files: [new File([text], 'signed.json', { type: 'application/json' })] },
      });
    await choose('{"type":"TxWitness ConwayEra","cborHex":"00"}');
    await waitFor(() => expect(send.disabled).toBe(false));
    await fireEvent.click(send);
    // A file main cannot use keeps the dialog open, says why, and another can be chosen.
    await waitFor(() =>
      expect(within(section).getByRole('alert').textContent).toContain(
        'not signed by the key of “Cold”',
      ),
    );
    expect(screen.getByRole('dialog')).toBeTruthy();
    await choose('{"type":"TxWitness ConwayEra","cborHex":"01"}');
    await fireEvent.click(send);
    expect(await outcome).toMatchObject({ operationId: prepared.operationId });
    expect(main.callsTo('operations:submitSigned')).toEqual([
      {
        operationId: prepared.operationId,
        signedFile: '{"type":"TxWitness ConwayEra","cborHex":"00"}',
        medium: 'file',
      },
      {
        operationId: prepared.operationId,
        signedFile: '{"type":"TxWitness ConwayEra","cborHex":"01"}',
        medium: 'file',
      },
    ]);
    expect(main.callsTo('operations:confirm')).toEqual([]);
  });

  it('shows a watch-only wallet’s transaction as QR codes for the offline device’s camera', async () => {
    const prepared = preparedDeposit({ offline: true, needsPassword: false });
    const { dialog, main } = await open(prepared);
    const cborHex = 'ab'.repeat(500);
    main.handle('operations:unsignedTransaction', () => ({
      envelope: JSON.stringify({ type: 'Tx ConwayEra', description: '', cborHex }),
    }));
    const view = within(dialog);
    expect(view.queryByRole('button', { name: 'Keep for later' })).toBeNull();
    await fireEvent.click(view.getByRole('button', { name: 'Show QR codes' }));
    const codes = await view.findByRole('figure', {
      name: 'QR codes of the deposit’s transaction',
    });
    expect(within(codes).getByText('Code 1 of 3')).toBeTruthy();
    expect(main.callsTo('operations:unsignedTransaction')).toEqual([
      { operationId: prepared.operationId },
    ]);
    // Handed out: it may wait for its signature while the trader is at the offline device.
    expect(view.getByRole('button', { name: 'Keep for later' })).toBeTruthy();
    expect(view.queryByRole('button', { name: 'Show QR codes' })).toBeNull();
    // This test's DOM has no camera: scanning says so, in words, and a file is still offered.
    await fireEvent.click(view.getByRole('button', { name: 'Scan the signature’s QR code' }));
    expect((await view.findByRole('alert')).textContent).toBe(
      'This computer offers Countersign no camera. Use a file instead.',
    );
    expect(view.getByLabelText(/Load the signed file/)).toBeTruthy();
  });

  it('once saved, can be kept for later: the dialog closes and nothing is discarded', async () => {
    const prepared = preparedDeposit({ offline: true, needsPassword: false });
    const { dialog, main, outcome } = await open(prepared);
    main.handle('operations:exportUnsigned', () => ({ fileName: 'tx.unsigned.json' }));
    const view = within(dialog);
    // Not before it is saved: there would be nothing to sign it from.
    expect(view.queryByRole('button', { name: 'Keep for later' })).toBeNull();
    await fireEvent.click(view.getByRole('button', { name: 'Save transaction…' }));
    await fireEvent.click(await view.findByRole('button', { name: 'Keep for later' }));
    expect(await outcome).toBeNull();
    expect(main.callsTo('operations:discard')).toEqual([]);
  });

  it('opened again for one saved earlier, says so and offers to keep it for later at once', async () => {
    const { dialog } = await open(
      preparedDeposit({ offline: true, needsPassword: false, saved: true }),
    );
    const view = within(dialog);
    expect(
      view.getByRole('region', { name: 'Sign it on your offline device' }).textContent,
    ).toContain('It was handed out earlier');
    expect(view.getByRole('button', { name: 'Keep for later' })).toBeTruthy();
    expect(view.getByRole('button', { name: 'Discard' })).toBeTruthy();
  });
});
