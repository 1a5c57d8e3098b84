import { describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import { Notices, orderTopic, transactionTopic } from '../shell/notices.svelte';
import { FakeMain, mainError } from '../testing/fake-main';
import { OPERATION_ID, operationResult, preparedDeposit, preparedOrder } from '../testing/prepared';
import { orderOf } from '../trade/fake-api';
import { OperationRunner, visibleIndexOf } from './runner.svelte';

const setup = (skip = false, requestUnlock?: () => Promise<boolean>) => {
  const main = new FakeMain();
  const notices = new Notices();
  const runner = new OperationRunner({
    api: main.api,
    notices,
    skipOrderConfirmation: () => skip,
    ...(requestUnlock ? { requestUnlock } : {}),
  });
  return { main, notices, runner };
};

const until = async (condition: () => boolean) => {
  await vi.waitFor(() => {
    if (!condition()) throw new Error('not yet');
  });
};

describe('OperationRunner', () => {
  it('shows the dialog, signs with the password the trader typed and reports the outcome', async () => {
    const { main, notices, runner } = setup();
    const prepared = preparedDeposit();
    main.handle('operations:confirm', () => operationResult(prepared));
    const outcome = runner.run(async () => ({ ok: true, value: prepared }));

    await until(() => runner.dialog?.phase === 'review');
    expect(runner.dialog?.prepared?.title).toBe('Deposit 25 ADA');
    expect(main.callsTo('operations:confirm')).toEqual([]);

    runner.confirm('a good long password', []);
    expect((await outcome)?.txHash).toBe(prepared.summary.txId);
    expect(main.callsTo('operations:confirm')).toEqual([
      { operationId: OPERATION_ID, password: 'a good long password' },
    ]);
    expect(runner.dialog).toBeNull();
    expect(notices.all[0]).toMatchObject({
      tone: 'success',
      title: 'Deposit submitted',
      topic: transactionTopic(prepared.summary.txId),
    });
    // Once it lands, that toast gives way to the one that says so.
    notices.success('Deposit credited', 'Deposit 25 ADA: now on the exchange.', {
      topic: transactionTopic(prepared.summary.txId),
    });
    expect(notices.toasts.map((t) => t.title)).toEqual(['Deposit credited']);
  });

  it('keeps the dialog open after a wrong password so the trader can try again', async () => {
    const { main, runner } = setup();
    const prepared = preparedDeposit();
    let tries = 0;
    main.handle('operations:confirm', () => {
      tries += 1;
      if (tries === 1) throw mainError(ErrorCode.WrongPassword, 'Wrong password. 4 more tries.');
      return operationResult(prepared);
    });
    const outcome = runner.run(async () => ({ ok: true, value: prepared }));
    await until(() => runner.dialog?.phase === 'review');
    runner.confirm('wrong', []);
    await until(() => runner.dialog?.passwordError !== null);
    expect(runner.dialog).toMatchObject({
      phase: 'review',
      passwordError: 'Wrong password. 4 more tries.',
    });
    runner.confirm('right', []);
    expect(await outcome).not.toBeNull();
    expect(tries).toBe(2);
  });

  it('asks to unlock a session that locked while the dialog was open, then goes on with what was confirmed', async () => {
    let unlocked = false;
    const requestUnlock = vi.fn(async () => (unlocked = true));
    const { main, runner } = setup(false, requestUnlock);
    const prepared = preparedDeposit({ offline: true, needsPassword: false });
    main.handle('operations:submitSigned', () => {
      if (!unlocked) throw mainError(ErrorCode.Locked, 'The trading session is locked.');
      return operationResult(prepared);
    });
    const outcome = runner.run(async () => ({ ok: true, value: prepared }));
    await until(() => runner.dialog?.phase === 'review');
    runner.submitSigned({ text: '{"signed":1}', medium: 'qr' }, []);
    expect(await outcome).toMatchObject({ operationId: OPERATION_ID });
    expect(requestUnlock).toHaveBeenCalledOnce();
    // The same signature (here scanned from a QR code), sent again once unlocked: the trader did
    // not have to scan it again.
    expect(main.callsTo('operations:submitSigned')).toEqual([
      { operationId: OPERATION_ID, signedFile: '{"signed":1}', medium: 'qr' },
      { operationId: OPERATION_ID, signedFile: '{"signed":1}', medium: 'qr' },
    ]);
  });

  it('keeps the operation waiting, and says why, when the trader does not unlock', async () => {
    const { main, runner } = setup(false, async () => false);
    main.handle('operations:submitSigned', () => {
      throw mainError(
        ErrorCode.Locked,
        'The trading session is locked. Unlock it, then try again.',
      );
    });
    const outcome = runner.run(async () => ({
      ok: true,
      value: preparedDeposit({ offline: true, needsPassword: false }),
    }));
    await until(() => runner.dialog?.phase === 'review');
    runner.submitSigned({ text: '{"signed":1}', medium: 'file' }, []);
    await until(() => runner.dialog?.fileError !== null);
    expect(runner.dialog).toMatchObject({
      phase: 'review',
      fileError: 'The trading session is locked. Unlock it, then try again.',
    });
    expect(main.callsTo('operations:discard')).toEqual([]);
    main.handle('operations:discard', () => null);
    runner.cancel();
    expect(await outcome).toBeNull();
  });

  it('discards what the trader cancels: nothing is signed', async () => {
    const { main, notices, runner } = setup();
    main.handle('operations:discard', () => null);
    const outcome = runner.run(async () => ({ ok: true, value: preparedDeposit() }));
    await until(() => runner.dialog !== null);
    runner.cancel();
    expect(await outcome).toBeNull();
    expect(main.callsTo('operations:discard')).toEqual([{ operationId: OPERATION_ID }]);
    expect(main.callsTo('operations:confirm')).toEqual([]);
    expect(notices.all[0]?.title).toBe('Cancelled: nothing was signed');
  });

  it('reports a failed preparation in words and opens no dialog', async () => {
    const { notices, runner } = setup();
    const outcome = await runner.run(async () => ({
      ok: false,
      error: {
        code: ErrorCode.IntentMismatch,
        message: 'The order price differs: 0.55, not 0.45.',
      },
    }));
    expect(outcome).toBeNull();
    expect(runner.dialog).toBeNull();
    expect(notices.all[0]).toMatchObject({
      tone: 'error',
      title: 'Refused: not what you asked for',
      detail: 'The order price differs: 0.55, not 0.45. Nothing was signed.',
    });
  });

  it('refuses to show what it cannot read', async () => {
    const { notices, runner } = setup();
    const outcome = await runner.run(async () => ({
      ok: true,
      value: { ...preparedDeposit(), check: undefined } as never,
    }));
    expect(outcome).toBeNull();
    expect(notices.all[0]?.tone).toBe('error');
  });

  it('keeps a failure on screen until the trader closes it', async () => {
    const { main, notices, runner } = setup();
    main.handle('operations:confirm', () => {
      throw mainError(ErrorCode.Exchange, 'The exchange refused the deposit (4300). Try again.');
    });
    const outcome = runner.run(async () => ({ ok: true, value: preparedDeposit() }));
    await until(() => runner.dialog?.phase === 'review');
    runner.confirm('pw', []);
    await until(() => runner.dialog?.phase === 'failed');
    expect(runner.dialog?.error).toContain('4300');
    expect(notices.all[0]).toMatchObject({ tone: 'error', title: 'Deposit not made' });
    runner.cancel();
    expect(await outcome).toBeNull();
    expect(runner.dialog).toBeNull();
  });

  it('follows main progress events for the operation on screen', async () => {
    const { main, runner } = setup();
    const prepared = preparedDeposit();
    let finish: (() => void) | undefined;
    main.handle(
      'operations:confirm',
      () =>
        new Promise((resolve) => {
          finish = () => resolve(operationResult(prepared));
        }),
    );
    const outcome = runner.run(async () => ({ ok: true, value: prepared }));
    await until(() => runner.dialog?.phase === 'review');
    runner.confirm('pw', []);
    await until(() => finish !== undefined);
    const progress = (step: 'signing' | 'submitting', operationId = OPERATION_ID) =>
      main.emit('operations:progress', {
        operationId,
        kind: 'deposit',
        title: prepared.title,
        step,
        message: null,
        at: '2025-01-01T00:00:00Z',
      });
    progress('signing');
    expect(runner.dialog?.reached).toBe(visibleIndexOf('signing'));
    progress('submitting', '00000000-0000-4000-8000-000000000000');
    expect(runner.dialog?.reached).toBe(visibleIndexOf('signing'));
    progress('submitting');
    expect(runner.dialog?.reached).toBe(visibleIndexOf('submitting'));
    finish?.();
    await outcome;
  });

  it('builds again when the trader asks (an expired transaction), discarding the old one', async () => {
    const { main, runner } = setup();
    main.handle('operations:discard', () => null);
    const second = preparedDeposit({ operationId: '11111111-1111-4111-8111-111111111111' });
    const prepare = vi
      .fn()
      .mockResolvedValueOnce({ ok: true, value: preparedDeposit() })
      .mockResolvedValueOnce({ ok: true, value: second });
    main.handle('operations:confirm', () => operationResult(second));
    const outcome = runner.run(prepare);
    await until(() => runner.dialog?.phase === 'review');
    runner.rebuild();
    await until(() => runner.dialog?.prepared?.operationId === second.operationId);
    expect(main.callsTo('operations:discard')).toEqual([{ operationId: OPERATION_ID }]);
    runner.confirm('pw', []);
    expect((await outcome)?.operationId).toBe(second.operationId);
  });

  it('passes the warnings the trader accepted, verbatim', async () => {
    const { main, runner } = setup();
    const warning = 'The order datum could not be read on this network.';
    const prepared = preparedOrder({
      check: { matches: true, differences: [], warnings: [warning] },
    });
    main.handle('operations:confirm', () => operationResult(prepared));
    const outcome = runner.run(async () => ({ ok: true, value: prepared }));
    await until(() => runner.dialog !== null);
    runner.confirm(undefined, [warning]);
    await outcome;
    expect(main.callsTo('operations:confirm')).toEqual([
      { operationId: OPERATION_ID, acceptedWarnings: [warning] },
    ]);
  });

  describe('skipping the dialog', () => {
    it('skips it for a clean order when the setting allows', async () => {
      const { main, notices, runner } = setup(true);
      const prepared = preparedOrder();
      main.handle('operations:confirm', () => operationResult(prepared));
      const result = await runner.run(async () => ({ ok: true, value: prepared }));
      expect(result).not.toBeNull();
      expect(runner.dialog).toBeNull();
      expect(main.callsTo('operations:confirm')).toEqual([{ operationId: OPERATION_ID }]);
      expect(notices.all[0]?.title).toBe('Order placed');
      // Its toast is about the order the exchange recorded: the fill takes its place on screen.
      expect(notices.all[0]?.topic).toBeNull();
      main.handle('operations:confirm', () => ({
        ...operationResult(prepared),
        order: orderOf({ id: 'o-42' }),
      }));
      await runner.run(async () => ({ ok: true, value: prepared }));
      expect(notices.all[0]?.topic).toBe(orderTopic('o-42'));
      notices.success('Order filled', 'Bought 100 ADA', { topic: orderTopic('o-42') });
      expect(notices.toasts.map((t) => t.title)).toEqual(['Order placed', 'Order filled']);
    });

    it.each([
      ['the setting is off', preparedOrder(), false],
      [
        'the check found a difference',
        preparedOrder({ check: { matches: false, differences: ['price differs'], warnings: [] } }),
        true,
      ],
      [
        'something could not be verified',
        preparedOrder({ check: { matches: true, differences: [], warnings: ['unverified'] } }),
        true,
      ],
      ['it is a deposit', preparedDeposit({ needsPassword: false }), true],
      ['it needs the password', preparedOrder({ needsPassword: true }), true],
      ['it is signed offline', preparedOrder({ offline: true }), true],
    ])('shows it anyway when %s', (_why, prepared, setting) => {
      const { runner } = setup(setting);
      expect(runner.maySkip(prepared)).toBe(false);
    });

    it('skips it for a clean cancel, as the setting says (place and cancel)', async () => {
      const { main, notices, runner } = setup(true);
      const prepared = preparedOrder({ kind: 'cancel-order', title: 'Cancel order o-42' });
      main.handle('operations:confirm', () => operationResult(prepared));
      expect(await runner.run(async () => ({ ok: true, value: prepared }))).not.toBeNull();
      expect(runner.dialog).toBeNull();
      expect(main.callsTo('operations:confirm')).toEqual([{ operationId: OPERATION_ID }]);
      expect(notices.all[0]?.title).toBe('Order cancelled');
    });
  });

  it('shows one dialog at a time: the second waits for the first', async () => {
    const { main, runner } = setup();
    main.handle('operations:discard', () => null);
    const second = preparedDeposit({
      operationId: '22222222-2222-4222-8222-222222222222',
      title: 'Deposit 30 ADA',
    });
    const first = runner.run(async () => ({ ok: true, value: preparedDeposit() }));
    const next = runner.run(async () => ({ ok: true, value: second }));
    await until(() => runner.dialog !== null);
    expect(runner.dialog?.prepared?.title).toBe('Deposit 25 ADA');
    runner.cancel();
    await first;
    await until(() => runner.dialog?.prepared?.title === 'Deposit 30 ADA');
    runner.cancel();
    expect(await next).toBeNull();
  });
});
