import type { Cardano } from '@cardano-sdk/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '../../../../src-shared/errors';
import {
  existingVkeyWitnesses,
  keyHashOf,
  readSignedFile,
  splitTransaction,
  transactionEnvelope,
  transactionIdOf,
  witnessEnvelope,
  witnessVerifies,
  type VkeyWitness,
} from '../../../../src-main/signing';
import { SigningKey } from '../../../../src-main/wallet';
import {
  ADA,
  deposit,
  makeParties,
  mutate,
  chainOf,
  withdrawal,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';
import {
  STRONG_PASSWORD,
  VECTOR_PHRASE,
  walletWorld,
  type WalletWorld,
} from '../../../fixtures/cardano/wallet-services';

/**
 * A watch-only wallet's deposit or withdrawal, signed on the offline device that holds its key:
 * the file that comes back is trusted for one thing only, a valid signature of this wallet's
 * payment key over the very transaction that was checked here. Everything else in it is ignored,
 * and the transaction is checked against the trader's request again before it is sent.
 */
let online: WalletWorld;
let p: Parties;

beforeEach(async () => {
  // The offline device's key is the test-vector wallet's; this computer only has its public key.
  const cold = await walletWorld();
  await cold.wallet.restore({ name: 'Cold', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
  const { accountPublicKey } = await cold.wallet.addresses({});
  await cold.cleanup();
  online = await walletWorld();
  const watch = await online.wallet.importWatchOnly({
    name: 'Cold',
    accountPublicKey,
    password: STRONG_PASSWORD,
  });
  p = makeParties(watch.operationKeyHash);
});
afterEach(() => online.cleanup());

/** What the offline device writes: the transaction with its witness, or the witness alone. */
const signOffline = (txHex: string, key: SigningKey = p.userKey): VkeyWitness => ({
  vkey: key.publicKey,
  signature: key.sign(Buffer.from(transactionIdOf(splitTransaction(txHex).body), 'hex')),
});
const signedTransactionFile = (txHex: string, witness: VkeyWitness): string => {
  const signed = mutate(txHex, (_body, tx) => {
    tx.witness.signatures = new Map([
      [
        Buffer.from(witness.vkey).toString('hex') as never,
        Buffer.from(witness.signature).toString('hex') as never,
      ],
    ]);
  });
  return transactionEnvelope(signed);
};

const expectSentWith = (signedTxHex: string, original: string, witness: VkeyWitness): void => {
  const sent = splitTransaction(signedTxHex);
  const built = splitTransaction(original);
  // The bytes checked here, untouched: the same body, so the same transaction id.
  expect(Buffer.compare(sent.body, built.body)).toBe(0);
  expect(Buffer.compare(sent.tail, built.tail)).toBe(0);
  const witnesses = existingVkeyWitnesses(sent.witnessSet);
  expect(witnesses).toHaveLength(1);
  expect(Buffer.from(witnesses[0]?.vkey ?? []).equals(Buffer.from(witness.vkey))).toBe(true);
  expect(keyHashOf(witnesses[0]?.vkey ?? new Uint8Array())).toBe(p.user.paymentKeyHash);
  expect(
    witnessVerifies(witnesses[0] as VkeyWitness, Buffer.from(transactionIdOf(built.body), 'hex')),
  ).toBe(true);
};

describe('a deposit or withdrawal signed on the offline device', () => {
  it('is completed from the key witness file, onto the bytes that were checked', async () => {
    const d = deposit(p);
    const witness = signOffline(d.txHex);
    const file = readSignedFile(witnessEnvelope(witness));
    const signed = await online.signer.attachOfflineSignature(d.txHex, d.intent, p.profile, file);
    expectSentWith(signed.signedTxHex, d.txHex, witness);
    expect(signed.txId).toBe(transactionIdOf(splitTransaction(d.txHex).body));
  });

  it('is completed from the signed transaction file (a withdrawal, whose coins the chain names)', async () => {
    const w = withdrawal(p);
    const witness = signOffline(w.txHex);
    const file = readSignedFile(signedTransactionFile(w.txHex, witness));
    expect(file.kind).toBe('transaction');
    const signed = await online.signer.attachOfflineSignature(w.txHex, w.intent, p.profile, file, {
      coins: chainOf(p),
    });
    expectSentWith(signed.signedTxHex, w.txHex, witness);
  });

  it('takes only this wallet’s signature from the file, never another key’s', async () => {
    const d = deposit(p);
    const ours = signOffline(d.txHex);
    const stranger = signOffline(d.txHex, new SigningKey(Buffer.alloc(64, 7)));
    const withBoth = mutate(d.txHex, (_body, tx) => {
      tx.witness.signatures = new Map(
        [stranger, ours].map((w) => [
          Buffer.from(w.vkey).toString('hex') as never,
          Buffer.from(w.signature).toString('hex') as never,
        ]),
      );
    });
    const file = readSignedFile(transactionEnvelope(withBoth));
    const signed = await online.signer.attachOfflineSignature(d.txHex, d.intent, p.profile, file);
    expectSentWith(signed.signedTxHex, d.txHex, ours);
  });

  it('refuses a file signed by another key, a signature of another transaction, and another transaction', async () => {
    const d = deposit(p);
    const otherKey = signOffline(d.txHex, new SigningKey(Buffer.alloc(64, 9)));
    await expect(
      online.signer.attachOfflineSignature(
        d.txHex,
        d.intent,
        p.profile,
        readSignedFile(witnessEnvelope(otherKey)),
      ),
    ).rejects.toMatchObject({
      code: ErrorCode.SignedFile,
      message: expect.stringMatching(/not signed by the key of “Cold”.*Nothing was sent/),
    });

    // Our key, but over a different transaction (the same deposit with a larger fee).
    const other = mutate(d.txHex, (body) => {
      body.fee = body.fee + 1n;
    });
    await expect(
      online.signer.attachOfflineSignature(
        d.txHex,
        d.intent,
        p.profile,
        readSignedFile(witnessEnvelope(signOffline(other))),
      ),
    ).rejects.toMatchObject({
      code: ErrorCode.SignedFile,
      message: expect.stringMatching(/not a valid signature of this transaction/),
    });

    // That other transaction, validly signed: not the one waiting here.
    await expect(
      online.signer.attachOfflineSignature(
        d.txHex,
        d.intent,
        p.profile,
        readSignedFile(signedTransactionFile(other, signOffline(other))),
      ),
    ).rejects.toMatchObject({
      code: ErrorCode.SignedFile,
      message: expect.stringMatching(/holds another transaction .* than the one waiting here/),
    });

    // Scanned from a QR code rather than loaded from a file: the refusal names what was scanned.
    await expect(
      online.signer.attachOfflineSignature(
        d.txHex,
        d.intent,
        p.profile,
        readSignedFile(witnessEnvelope(otherKey), 'qr'),
      ),
    ).rejects.toMatchObject({
      code: ErrorCode.SignedFile,
      message: expect.stringMatching(
        /^This QR code is not signed by the key of “Cold”.*Sign the transaction shown as QR codes here/,
      ),
    });
  });

  it('checks the transaction against the request again: a valid signature does not make a tampered deposit acceptable', async () => {
    const d = deposit(p);
    // The exchange's build sends 1 ADA of the change to a stranger; the offline device signed it.
    const tampered = mutate(d.txHex, (body) => {
      const change = body.outputs[1] as Cardano.TxOut;
      change.value = { ...change.value, coins: change.value.coins - ADA };
      body.outputs.push({ address: p.stranger as Cardano.PaymentAddress, value: { coins: ADA } });
    });
    await expect(
      online.signer.attachOfflineSignature(
        tampered,
        d.intent,
        p.profile,
        readSignedFile(witnessEnvelope(signOffline(tampered))),
      ),
    ).rejects.toMatchObject({ code: ErrorCode.IntentMismatch });
  });
});

describe('reading the file the offline device wrote', () => {
  const refusal = (text: string) => {
    try {
      readSignedFile(text);
    } catch (error) {
      return error as { code: string; message: string };
    }
    throw new Error('the file was accepted');
  };

  it('reads current and older cardano-cli transaction types', () => {
    const d = deposit(p);
    const signed = JSON.parse(signedTransactionFile(d.txHex, signOffline(d.txHex))) as {
      cborHex: string;
    };
    for (const type of ['Tx ConwayEra', 'Witnessed Tx ConwayEra']) {
      const file = readSignedFile(
        JSON.stringify({ type, description: 'Ledger Cddl Format', cborHex: signed.cborHex }),
      );
      expect(file.kind).toBe('transaction');
      expect(file.witnesses).toHaveLength(1);
    }
  });

  it.each([
    ['not JSON', 'hello', /not a text envelope/],
    ['JSON of another shape', '{"tx":"84a4"}', /not a text envelope with “type” and “cborHex”/],
    [
      'another kind of envelope',
      '{"type":"PaymentSigningKeyShelley_ed25519","description":"","cborHex":"5820aa"}',
      /holds a “PaymentSigningKeyShelley_ed25519”, not a transaction or a witness/,
    ],
    ['bytes that are not hex', '{"type":"Tx ConwayEra","cborHex":"84zz"}', /not hex-encoded/],
    [
      'a transaction that is not CBOR',
      '{"type":"Tx ConwayEra","cborHex":"ffff"}',
      /not readable CBOR/,
    ],
    [
      'a Byron witness',
      `{"type":"TxWitness ConwayEra","cborHex":"820182${'5820'}${'aa'.repeat(32)}5840${'bb'.repeat(64)}"}`,
      /Byron-era/,
    ],
  ])('refuses %s, in words that say what to choose', (_what, text, why) => {
    const error = refusal(text);
    expect(error.code).toBe(ErrorCode.SignedFile);
    expect(error.message).toMatch(why);
    expect(error.message).toMatch(/Choose the file your offline device wrote after signing/);
  });

  it('refuses the unsigned transaction saved here, saying it is not signed yet', () => {
    const error = refusal(transactionEnvelope(deposit(p).txHex));
    expect(error.code).toBe(ErrorCode.SignedFile);
    expect(error.message).toMatch(/without any signature/);
  });

  it('writes the transaction as cardano-cli does: type, description, cborHex in that order', () => {
    const { txHex } = deposit(p);
    const text = transactionEnvelope(txHex);
    expect(Object.keys(JSON.parse(text) as object)).toEqual(['type', 'description', 'cborHex']);
    expect(JSON.parse(text)).toEqual({
      type: 'Tx ConwayEra',
      description: 'Ledger Cddl Format',
      cborHex: txHex,
    });
  });
});
