import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  splitTransaction,
  transactionIdOf,
  witnessEnvelope,
} from '../../../../../src-main/signing';
import {
  accountKeyOf,
  accountPublicKeyToBech32,
  cryptoIsReady,
  paymentSigningKeyOf,
  rootKeyFromEntropy,
} from '../../../../../src-main/wallet/derivation';
import { recoveryPhraseEntropy } from '../../../../../src-main/wallet/mnemonic';
import { SigningKey } from '../../../../../src-main/wallet/signing-key';
import type {
  FundsOverview,
  OperationProgress,
  OperationResult,
  PreparedOperation,
  WalletSummary,
} from '../../../../../src-shared/contract';
import type { Serialized } from '../../../../../src-shared/domain/amount';
import { ErrorCode } from '../../../../../src-shared/errors';
import { appWorld, type AppWorld } from '../../../../fixtures/app/app-world';
import { STRONG_PASSWORD, VECTOR_PHRASE } from '../../../../fixtures/cardano/wallet-services';

/**
 * A watch-only wallet's deposits and withdrawals are signed on the offline device that holds its
 * key: the app saves the exchange's transaction as a cardano-cli text envelope, the trader signs
 * it there, and loads the signature back; the app checks it and sends it. Against a real sandbox,
 * with the offline device's key kept out of the app (only this test holds it).
 */
let world: AppWorld;
let offlineKey: SigningKey;
const call = <T>(channel: string, payload?: unknown): Promise<T> => world.call<T>(channel, payload);

beforeAll(async () => {
  world = await appWorld({
    sandboxArgs: ['--no-takers', '--confirmation-delay-ms', '100', '--withdrawal-delay-ms', '100'],
    pollEveryMs: 200,
  });
  await cryptoIsReady();
  // What the offline device holds, and the account public key it exported for this computer.
  const account = accountKeyOf(rootKeyFromEntropy(recoveryPhraseEntropy(VECTOR_PHRASE.split(' '))));
  offlineKey = new SigningKey(Buffer.from(paymentSigningKeyOf(account)));
  const cold = await call<WalletSummary>('wallet:importWatchOnly', {
    name: 'Cold',
    accountPublicKey: accountPublicKeyToBech32(account.toPublic()),
    password: STRONG_PASSWORD,
  });
  await call('wallet:select', { walletId: cold.id });
  await call('session:unlock', { password: STRONG_PASSWORD });
  await call('wallet:joinExchange', { walletId: cold.id, password: STRONG_PASSWORD });
}, 60_000);

afterAll(() => world?.dispose());

const stepsOf = (operationId: string): string[] =>
  world.events
    .filter((e) => e.name === 'operations:progress')
    .map((e) => e.payload as OperationProgress)
    .filter((p) => p.operationId === operationId)
    .map((p) => p.step);

/** Saves the prepared transaction (the harness's save dialog writes to the exports folder). */
const exported = async (operationId: string): Promise<string> => {
  const saved = await call<{ fileName: string }>('operations:exportUnsigned', { operationId });
  expect(saved.fileName).toMatch(/^countersign-(deposit|withdrawal)-[0-9a-f]{8}\.unsigned\.json$/);
  return readFile(join(world.dataDir, 'exports', saved.fileName), 'utf8');
};

/** The offline device: signs the transaction id of the file's body, writes a key witness file. */
const signedOffline = (file: string, key: SigningKey = offlineKey): string => {
  const { cborHex } = JSON.parse(file) as { cborHex: string };
  const id = transactionIdOf(splitTransaction(cborHex).body);
  return witnessEnvelope({ vkey: key.publicKey, signature: key.sign(Buffer.from(id, 'hex')) });
};

const freeAda = (overview: Serialized<FundsOverview>): number =>
  Number(overview.exchange.find((b) => b.unit === 'lovelace')?.free ?? '0');

describe('a watch-only wallet moving funds through its offline device', () => {
  it('deposit: saved unsigned, signed offline, loaded back, checked, sent and credited', async () => {
    const before = await call<Serialized<FundsOverview>>('funds:overview');
    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '20' }],
    });
    expect(prepared).toMatchObject({ offline: true, needsPassword: false, signer: 'wallet-key' });
    expect(prepared.check).toEqual({ matches: true, differences: [], warnings: [] });

    // Confirming here is not possible: the key is not on this computer. It keeps waiting.
    const here = await world.refused('operations:confirm', {
      operationId: prepared.operationId,
      password: STRONG_PASSWORD,
    });
    expect(here.code).toBe(ErrorCode.WatchOnly);
    expect(here.message).toMatch(/Save the transaction, sign it on the device that holds the key/);

    // Nothing waits for a signature before the transaction is saved for the offline device.
    expect(await call('operations:awaitingSignature')).toEqual([]);
    const file = await exported(prepared.operationId);
    expect(JSON.parse(file)).toMatchObject({ type: 'Tx ConwayEra', cborHex: expect.any(String) });
    // Saved, it waits for its signature (the dialog may be closed meanwhile).
    expect(await call('operations:awaitingSignature')).toEqual([{ ...prepared, saved: true }]);
    // Only the saved file leaves; nothing of it is in the exports folder but the transaction.
    expect(await readdir(join(world.dataDir, 'exports'))).toHaveLength(1);

    // A file signed with another key is refused, and the operation still waits for the right one.
    const wrong = await world.refused('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(file, new SigningKey(Buffer.alloc(64, 5))),
    });
    expect(wrong.code).toBe(ErrorCode.SignedFile);
    expect(wrong.message).toMatch(/not signed by the key of “Cold”/);

    const result = await call<Serialized<OperationResult>>('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(file),
    });
    expect(result.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.txHash).toBe(prepared.summary.txId);
    expect(await call('operations:awaitingSignature')).toEqual([]);
    expect(stepsOf(prepared.operationId)).toEqual(
      expect.arrayContaining(['signing', 'journaled', 'submitting', 'done']),
    );
    const credited = await world.until(
      () => call<Serialized<FundsOverview>>('funds:overview'),
      (o) => freeAda(o) >= freeAda(before) + 20 && o.pending.length === 0,
      'the deposit to be credited',
    );
    expect(freeAda(credited) - freeAda(before)).toBeCloseTo(20, 6);
    // Sent once: a second load of the same signature finds nothing waiting.
    const again = await world.refused('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(file),
    });
    expect(again.code).toBe(ErrorCode.NotFound);
  });

  it('deposit by QR codes: handed out as text, nothing saved, the signature scanned back', async () => {
    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '10' }],
    });
    const files = await readdir(join(world.dataDir, 'exports'));
    const { envelope } = await call<{ envelope: string }>('operations:unsignedTransaction', {
      operationId: prepared.operationId,
    });
    expect(JSON.parse(envelope)).toMatchObject({
      type: 'Tx ConwayEra',
      cborHex: expect.stringMatching(/^[0-9a-f]+$/),
    });
    expect(await readdir(join(world.dataDir, 'exports'))).toEqual(files);
    // Shown, it waits for its signature as a saved one does.
    expect(await call('operations:awaitingSignature')).toEqual([{ ...prepared, saved: true }]);

    const wrong = await world.refused('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(envelope, new SigningKey(Buffer.alloc(64, 5))),
      medium: 'qr',
    });
    expect(wrong.code).toBe(ErrorCode.SignedFile);
    expect(wrong.message).toMatch(/^This QR code is not signed by the key of “Cold”/);

    const result = await call<Serialized<OperationResult>>('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(envelope),
      medium: 'qr',
    });
    expect(result.txHash).toBe(prepared.summary.txId);
    expect(await call('operations:awaitingSignature')).toEqual([]);
    await world.until(
      () => call<Serialized<FundsOverview>>('funds:overview'),
      (o) => o.pending.length === 0,
      'the deposit to be credited',
    );
  });

  it('withdrawal: the same way back, the payout reaching the wallet on L1, even after the session locked meanwhile', async () => {
    const before = await call<Serialized<FundsOverview>>('funds:overview');
    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareWithdrawal', {
      amounts: [{ unit: 'lovelace', amount: '5' }],
    });
    expect(prepared).toMatchObject({ offline: true, needsPassword: false });
    const file = await exported(prepared.operationId);

    // The session locks while the trader is at the offline computer: the signature is taken
    // only once it is unlocked, and nothing is signed or journaled before.
    await call('session:lock');
    const locked = await world.refused('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(file),
    });
    expect(locked.code).toBe(ErrorCode.Locked);
    expect(stepsOf(prepared.operationId)).not.toContain('signing');
    expect(await call('operations:pending')).toEqual([]);
    await call('session:unlock', { password: STRONG_PASSWORD });

    const result = await call<Serialized<OperationResult>>('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(file),
    });
    expect(result.txHash).toBe(prepared.summary.txId);
    const after = await world.until(
      () => call<Serialized<FundsOverview>>('funds:overview'),
      (o) => o.pending.length === 0 && freeAda(o) < freeAda(before),
      'the withdrawal to land',
    );
    // 5 ADA out, and the 1 ADA withdrawal fee on top.
    expect(freeAda(before) - freeAda(after)).toBeCloseTo(6, 6);
  });

  it('a deposit waiting for its signature holds its coins: another deposit does not spend them', async () => {
    const first = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '20' }],
    });
    const coins = first.summary.inputs.map((i) => i.id);
    expect(coins.length).toBeGreaterThan(0);
    // Before it is handed out, the dialog is open and nothing else is built meanwhile.
    await exported(first.operationId);

    // The wallet's one coin is spent by the waiting deposit: said, with where to find it.
    const auto = await world.refused('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '20' }],
    });
    expect(auto.code).toBe(ErrorCode.InvalidInput);
    expect(auto.message).toMatch(
      /Some of your wallet’s coins are spent by “Deposit 20 ADA”, which waits for its signature \(Funds › Waiting for a signature\)/,
    );
    const chosen = await world.refused('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '20' }],
      utxos: coins,
    });
    expect(chosen.message).toMatch(
      /is spent by “Deposit 20 ADA”, which waits for its signature .* Choose another coin, or send or discard that one first\./,
    );

    // Discarded, its coins are free again.
    await call('operations:discard', { operationId: first.operationId });
    const again = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '20' }],
      utxos: coins,
    });
    expect(again.summary.inputs.map((i) => i.id)).toEqual(coins);
    await call('operations:discard', { operationId: again.operationId });
  });

  it('an unreadable file says what to choose and leaves the operation waiting', async () => {
    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '20' }],
    });
    const refused = await world.refused('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: await exported(prepared.operationId),
    });
    expect(refused.code).toBe(ErrorCode.SignedFile);
    expect(refused.message).toMatch(/without any signature/);
    await call('operations:discard', { operationId: prepared.operationId });
    expect(await call('operations:pending')).toEqual([]);
  });

  it('what waits for its signature still does after the app is closed and opened again', async () => {
    const prepared = await call<Serialized<PreparedOperation>>('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '12' }],
    });
    const file = await exported(prepared.operationId);
    const before = await call<Serialized<FundsOverview>>('funds:overview');

    world = await world.restart();
    // Checked again and waiting, as before; the session starts locked.
    expect(await call('operations:awaitingSignature')).toEqual([{ ...prepared, saved: true }]);
    // Its coins are still held.
    await call('session:unlock', { password: STRONG_PASSWORD });
    const second = await world.refused('funds:prepareDeposit', {
      amounts: [{ unit: 'lovelace', amount: '12' }],
    });
    expect(second.message).toMatch(/spent by “Deposit 12 ADA”, which waits for its signature/);

    const result = await call<Serialized<OperationResult>>('operations:submitSigned', {
      operationId: prepared.operationId,
      signedFile: signedOffline(file),
    });
    expect(result.txHash).toBe(prepared.summary.txId);
    expect(await call('operations:awaitingSignature')).toEqual([]);
    // Followed until credited, like any deposit sent.
    const credited = await world.until(
      () => call<Serialized<FundsOverview>>('funds:overview'),
      (o) => o.pending.length === 0 && freeAda(o) >= freeAda(before) + 12,
      'the deposit to be credited',
    );
    expect(freeAda(credited) - freeAda(before)).toBeCloseTo(12, 6);

    // Sent, it is not brought back by another restart.
    world = await world.restart();
    expect(await call('operations:awaitingSignature')).toEqual([]);
  }, 60_000);

  it('only a watch-only wallet’s fund movements are saved to be signed elsewhere', async () => {
    const refused = await world.refused('operations:exportUnsigned', {
      operationId: crypto.randomUUID(),
    });
    expect(refused.code).toBe(ErrorCode.NotFound);
  });
});
