import { Cardano } from '@cardano-sdk/core';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError, ErrorCode } from '../../../../../src-shared/errors';
import { OfflineSigningService } from '../../../../../src-main/app/offline/service';
import { WalletService } from '../../../../../src-main/app/wallet/service';
import {
  keyHashOf,
  splitTransaction,
  transactionEnvelope,
  transactionIdOf,
  witnessVerifies,
} from '../../../../../src-main/signing';
import { cryptoIsReady, UnlockAttempts, WalletBook } from '../../../../../src-main/wallet';
import {
  ADA,
  deposit,
  makeParties,
  mutate,
  onRealNetwork,
  withdrawal,
  type Parties,
  walletVote,
} from '../../../../fixtures/cardano/exchange-transactions';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../../fixtures/cardano/wallet-services';

/**
 * The offline computer's half of offline signing, against the test-vector wallet's real keys and
 * honest exchange transactions built by the sandbox's own builders.
 */

const saved: Array<{ name: string; content: string; kind: string }> = [];
let saveAnswer: { fileName: string } | null = { fileName: '/tmp/signed.witness.json' };
const saveFile = vi.fn(async (name: string, content: string, kind: string) => {
  saved.push({ name, content, kind });
  return saveAnswer;
});

let world: WalletWorld;
let wallet: WalletService;
let offline: OfflineSigningService;
let p: Parties;

/**
 * The wallet service (to restore or add wallets) and the offline signing service like the app's,
 * sharing the book, the secrets and the throttle, with a save dialog that records what it was given.
 */
const serviceOver = (w: WalletWorld, networkId: 0 | 1 = 0) => {
  const book = new WalletBook(w.dataDir);
  const attempts = new UnlockAttempts(w.dataDir);
  const wallets = new WalletService({
    book,
    secrets: w.secrets,
    session: w.session,
    attempts,
    network: () => (networkId === 1 ? 'production' : 'sandbox'),
    networkId: () => networkId,
  });
  return {
    wallets,
    offline: new OfflineSigningService({ book, secrets: w.secrets, attempts, saveFile }),
  };
};

const failureOf = async (promise: Promise<unknown>): Promise<AppError> => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a failure');
};

/** The witness a saved file holds: `[0, [vkey, signature]]` as cardano-cli writes it. */
const witnessOf = (content: string) => {
  const envelope = JSON.parse(content) as { type: string; description: string; cborHex: string };
  expect(envelope.type).toBe('TxWitness ConwayEra');
  expect(envelope.description).toBe('Key Witness ShelleyEra');
  const match = /^8200825820([0-9a-f]{64})5840([0-9a-f]{128})$/.exec(envelope.cborHex);
  if (!match) throw new Error(`not a key witness: ${envelope.cborHex}`);
  return {
    vkey: Buffer.from(match[1] ?? '', 'hex'),
    signature: Buffer.from(match[2] ?? '', 'hex'),
  };
};

const idOf = (txHex: string) => transactionIdOf(splitTransaction(txHex).body);

beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
});

beforeEach(async () => {
  saved.length = 0;
  saveFile.mockClear();
  saveAnswer = { fileName: '/tmp/signed.witness.json' };
  world = await walletWorld();
  ({ wallets: wallet, offline } = serviceOver(world));
  await wallet.restore({ name: 'Vector', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
});

afterEach(async () => {
  await world.cleanup();
});

describe('reading a transaction file on the offline computer', () => {
  it('shows what a deposit does: where it goes, what comes back, the fee, by coin reference only', async () => {
    const tx = deposit(p).txHex;
    const reading = await offline.readTransactionFile({ file: transactionEnvelope(tx) });
    const { summary } = reading;
    expect(summary.txId).toBe(idOf(tx));
    expect(reading.network).toBe('A Cardano test network (test coins)');
    expect(reading.refusals).toEqual([]);
    expect(summary.inputs.map((i) => [i.party, i.amounts])).toEqual([
      ['unknown', null],
      ['unknown', null],
    ]);
    expect(summary.outputs.map((o) => o.party)).toEqual(['unknown', 'own']);
    expect(summary.outputs[1]?.address).toBe(p.user.baseAddress);
    expect(summary.signers).toEqual([{ keyHash: p.user.paymentKeyHash, whose: 'your wallet key' }]);
    expect(summary.validUntil).not.toBeNull();
    expect(reading.leaves.map((a) => [a.name, a.amount])).toEqual([
      ['ADA', '150'],
      ['USDM', '20'],
    ]);
    const fee = BigInt(summary.fee.quantity);
    expect(fee).toBeGreaterThan(0n);
    expect(reading.returns).toEqual([
      {
        unit: 'lovelace',
        name: 'ADA',
        quantity: (250n * ADA - fee).toString(),
        amount: expect.any(String),
      },
    ]);
    expect(reading.warnings).toHaveLength(1);
    expect(reading.warnings[0]).toMatch(/cannot know what the coins this transaction spends hold/);
  });

  it('reads a mainnet transaction with the wallet’s mainnet address as its own', async () => {
    const tx = onRealNetwork(deposit(p).txHex, 'production');
    const reading = await offline.readTransactionFile({ file: transactionEnvelope(tx) });
    expect(reading.network).toBe('Cardano mainnet (real money)');
    expect(reading.summary.outputs[1]).toMatchObject({ address: p.mainnetUser, party: 'own' });
    expect(reading.refusals).toEqual([]);
  });

  it('says a withdrawal creates its request token', async () => {
    const reading = await offline.readTransactionFile({
      file: transactionEnvelope(withdrawal(p).txHex),
    });
    expect(reading.refusals).toEqual([]);
    expect(reading.warnings[1]).toMatch(/^It creates \(\+\) or destroys \(-\) tokens: \+1 /);
  });

  it('refuses a file that is not a transaction, in words that say what to choose', async () => {
    const cases: Array<[string, RegExp]> = [
      ['hello', /^This file cannot be signed here: it is not a text envelope \(JSON\)\. /],
      ['{"cborHex":"00"}', /not a text envelope with “type” and “cborHex”/],
      [
        JSON.stringify({ type: 'TxWitness ConwayEra', cborHex: '8200' }),
        /holds a signature \(a key witness\), not a transaction/,
      ],
      [JSON.stringify({ type: 'TxBodyConway', cborHex: '80' }), /holds a “TxBodyConway”/],
      [transactionEnvelope('8400a0'), /its transaction cannot be read/],
    ];
    for (const [file, message] of cases) {
      const failure = await failureOf(offline.readTransactionFile({ file }));
      expect(failure.code, file).toBe(ErrorCode.SignedFile);
      expect(failure.message, file).toMatch(message);
      expect(failure.message, file).toMatch(/Choose the transaction file the online Countersign/);
      expect(failure.message, file).not.toMatch(/offline device wrote/);
      const signing = await failureOf(
        offline.signTransactionFile({ file, password: STRONG_PASSWORD }),
      );
      expect(signing.code).toBe(ErrorCode.SignedFile);
    }
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('refuses on a watch-only wallet: its key is not on this computer either', async () => {
    const other = await walletWorld();
    const cold = serviceOver(other);
    const { accountPublicKey } = await wallet.addresses({});
    await cold.wallets.importWatchOnly({
      name: 'Cold',
      accountPublicKey,
      password: STRONG_PASSWORD,
    });
    const file = transactionEnvelope(deposit(p).txHex);
    for (const attempt of [
      cold.offline.readTransactionFile({ file }),
      cold.offline.signTransactionFile({ file, password: STRONG_PASSWORD }),
    ]) {
      const failure = await failureOf(attempt);
      expect(failure.code).toBe(ErrorCode.WatchOnly);
      expect(failure.message).toMatch(/watch-only: its key is not on this computer either/);
    }
    expect(saveFile).not.toHaveBeenCalled();
    await other.cleanup();
  });
});

/** The deposit with its raw parts changed: the validity flag, the witness set. */
const rebuilt = (change: { witnessSet?: string; isValid?: false }): string => {
  const tx = splitTransaction(deposit(p).txHex);
  const tail =
    change.isValid === false
      ? Buffer.concat([Buffer.from('f4', 'hex'), tx.tail.subarray(1)])
      : tx.tail;
  const witnessSet = change.witnessSet ? Buffer.from(change.witnessSet, 'hex') : tx.witnessSet;
  return Buffer.concat([tx.head, tx.body, witnessSet, tail]).toString('hex');
};

const REWARD_ACCOUNT = 'stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn';

/** What no deposit or withdrawal needs, each refused with what it is. */
const REFUSED: Array<[string, () => string, RegExp]> = [
  [
    'a certificate',
    () =>
      mutate(deposit(p).txHex, (b) => {
        b.certificates = [
          {
            __typename: Cardano.CertificateType.StakeDelegation,
            stakeCredential: {
              type: Cardano.CredentialType.KeyHash,
              hash: p.user.stakeKeyHash as never,
            },
            poolId: Cardano.PoolId('pool1pu5jlj4q9w9jlxeu370a3c9myx47md5j5m2str0naunn2q3lkdy'),
          },
        ];
      }),
    /^It changes staking or delegation \(certificates\), which a deposit or withdrawal never needs: do not sign it\.$/,
  ],
  [
    'a reward withdrawal',
    () =>
      mutate(deposit(p).txHex, (b) => {
        b.withdrawals = [{ stakeAddress: Cardano.RewardAccount(REWARD_ACCOUNT), quantity: 5n }];
      }),
    /^It withdraws staking rewards/,
  ],
  [
    'a governance vote',
    () => mutate(deposit(p).txHex, (b) => void (b.votingProcedures = walletVote(p))),
    /^It casts governance votes/,
  ],
  [
    'a treasury donation',
    () => mutate(deposit(p).txHex, (b) => void (b.donation = 10n * ADA)),
    /^It pays or states the Cardano treasury/,
  ],
  [
    'collateral',
    () =>
      mutate(deposit(p).txHex, (b) => {
        b.collaterals = [{ txId: Cardano.TransactionId('05'.repeat(32)), index: 0 }];
      }),
    /^It puts up collateral/,
  ],
  [
    'a Byron-era witness',
    () => rebuilt({ witnessSet: 'a1028100' }),
    /^It carries Byron-era \(bootstrap\) signatures/,
  ],
  ['is_valid false', () => rebuilt({ isValid: false }), /^It is marked to fail its scripts/],
  [
    'metadata without its hash',
    () =>
      mutate(deposit(p).txHex, (_b, t) => {
        t.auxiliaryData = { blob: new Map([[674n, 'hello']]) };
      }),
    /^Its metadata does not match the hash its body states/,
  ],
  [
    'metadata with its hash stated',
    () =>
      mutate(deposit(p).txHex, (b, t) => {
        const blob: Cardano.TxMetadata = new Map([[674n, new Map([['msg', ['I agree']]])]]);
        t.auxiliaryData = { blob };
        b.auxiliaryDataHash = Cardano.computeAuxiliaryDataHash({ blob });
      }),
    /^It carries metadata, published on the chain under your signature/,
  ],
  [
    'an output on another network',
    () =>
      mutate(deposit(p).txHex, (b) => {
        const change = b.outputs[1];
        if (change) b.outputs[1] = { ...change, address: Cardano.PaymentAddress(p.mainnetUser) };
      }),
    /^Its addresses are not all on one Cardano network/,
  ],
];

describe('what is never signed', () => {
  it.each(REFUSED)('refuses %s, before the password is asked', async (_name, make, message) => {
    const file = transactionEnvelope(make());
    const reading = await offline.readTransactionFile({ file });
    expect(reading.refusals).toHaveLength(1);
    expect(reading.refusals[0]).toMatch(message);
    const failure = await failureOf(
      offline.signTransactionFile({ file, password: 'not my password' }),
    );
    expect(failure.code).toBe(ErrorCode.InvalidTransaction);
    expect(failure.message).toMatch(/^Countersign will not sign this transaction\. /);
    expect(failure.message).toContain(reading.refusals[0]);
    expect(failure.message).toMatch(/Nothing was signed/);
    expect(saveFile).not.toHaveBeenCalled();
  });
});

describe('signing a transaction file', () => {
  it('saves a key witness of the wallet’s payment key over the transaction id', async () => {
    const tx = deposit(p).txHex;
    const id = idOf(tx);
    const answer = await offline.signTransactionFile({
      file: transactionEnvelope(tx),
      password: STRONG_PASSWORD,
    });
    expect(answer).toEqual({ fileName: '/tmp/signed.witness.json' });
    expect(saved).toHaveLength(1);
    expect(saved[0]?.name).toBe(`countersign-${id.slice(0, 8)}.witness.json`);
    expect(saved[0]?.kind).toBe('transaction');
    const witness = witnessOf(saved[0]?.content ?? '');
    expect(keyHashOf(witness.vkey)).toBe(p.user.paymentKeyHash);
    expect(keyHashOf(witness.vkey)).toBe((await wallet.addresses({})).paymentKeyHash);
    expect(witnessVerifies(witness, Buffer.from(id, 'hex'))).toBe(true);
    expect(witnessVerifies(witness, Buffer.from(idOf(withdrawal(p).txHex), 'hex'))).toBe(false);
  });

  it('hands the signature back as text for a QR code, saving nothing, and words a refusal for codes', async () => {
    const tx = deposit(p).txHex;
    const { witness } = await offline.signTransaction({
      file: transactionEnvelope(tx),
      password: STRONG_PASSWORD,
      medium: 'qr',
    });
    expect(saveFile).not.toHaveBeenCalled();
    const read = witnessOf(witness);
    expect(keyHashOf(read.vkey)).toBe(p.user.paymentKeyHash);
    expect(witnessVerifies(read, Buffer.from(idOf(tx), 'hex'))).toBe(true);

    const failure = await failureOf(
      offline.signTransaction({
        file: JSON.stringify({ type: 'TxWitness ConwayEra', cborHex: '8200' }),
        password: STRONG_PASSWORD,
        medium: 'qr',
      }),
    );
    expect(failure.message).toMatch(
      /^These QR codes cannot be signed here: it holds a signature .* Scan the QR codes the online Countersign shows/,
    );
  });

  it('reads the envelope types older cardano-cli versions write, and answers null when not saved', async () => {
    const tx = withdrawal(p).txHex;
    saveAnswer = null;
    const file = JSON.stringify({ type: 'Unwitnessed Tx ConwayEra', cborHex: tx.toUpperCase() });
    expect(await offline.signTransactionFile({ file, password: STRONG_PASSWORD })).toBeNull();
    const witness = witnessOf(saved[0]?.content ?? '');
    expect(witnessVerifies(witness, Buffer.from(idOf(tx), 'hex'))).toBe(true);
  });

  it('refuses a wrong password under the shared throttle, and saves nothing', async () => {
    const file = transactionEnvelope(deposit(p).txHex);
    const wrong = () =>
      failureOf(offline.signTransactionFile({ file, password: 'not my password' }));
    const first = await wrong();
    expect(first.code).toBe(ErrorCode.WrongPassword);
    expect(first.message).toMatch(/4 more tries before a wait is imposed/);
    for (let i = 0; i < 4; i++) expect((await wrong()).code).toBe(ErrorCode.WrongPassword);
    // Unlocking counts the same wrong passwords: even the right one must wait now.
    const waiting = await failureOf(
      offline.signTransactionFile({ file, password: STRONG_PASSWORD }),
    );
    expect(waiting.code).toBe(ErrorCode.TooManyAttempts);
    expect((await failureOf(world.session.unlock(STRONG_PASSWORD))).code).toBe(
      ErrorCode.TooManyAttempts,
    );
    expect(saveFile).not.toHaveBeenCalled();
  });
});
