import { Cardano } from '@cardano-sdk/core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeTransaction,
  displayAmounts,
  readIntentDatum,
  type DecodeContext,
} from '../../../../src-main/signing';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  ADA,
  buyOrder,
  decodeContextOf,
  deposit,
  INTENT_TOKEN,
  makeParties,
  mutate,
  nonCanonical,
  ORDER_ID,
  sellOrder,
  txHash,
  USDM,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';

let p: Parties;
let context: DecodeContext;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
  context = decodeContextOf(p);
});

describe('decoding a transaction for display', () => {
  it('shows an order: parties, human amounts with asset names, fee, validity, signers, mint', () => {
    const tx = decodeTransaction(buyOrder(p).txHex, context);
    expect(tx.id).toMatch(/^[0-9a-f]{64}$/);
    expect(tx.networkId).toBe(0);
    expect(tx.fee).toBe(0n);
    expect(tx.validUntilSlot).toBeGreaterThan(0);
    expect(tx.requiredSigners).toEqual([p.operationKey.keyHash]);
    expect(tx.inputs).toEqual([{ id: `${txHash(1)}#0`, known: null, absent: false }]);
    expect(
      tx.outputs.map((o) => [o.party, o.datum, o.display.map((d) => `${d.amount} ${d.name}`)]),
    ).toEqual([
      ['exchange-intent', 'inline', ['0 ADA', `1 ${INTENT_TOKEN}`, '50 USDM']],
      ['exchange-account', 'none', ['3 ADA', '150 USDM']],
    ]);
    expect(tx.mint).toEqual(new Map([[INTENT_TOKEN, 1n]]));
    expect(tx.redeemers).toEqual([expect.objectContaining({ tag: 'mint', index: 0 })]);
    expect(tx.flags).toMatchObject({
      mint: 1,
      scriptDataHash: true,
      certificates: null,
      collateral: null,
      scripts: null,
      invalid: false,
      metadataMismatch: false,
    });
    expect(tx.metadata).toBe(false);
  });

  it('reads the order the intent datum states', () => {
    const tx = decodeTransaction(sellOrder(p).txHex, context);
    const read = readIntentDatum(tx.outputs[0]?.inlineDatum ?? 0n);
    expect(read).toEqual({
      ok: true,
      value: {
        intent: 'place-order',
        order: {
          orderId: ORDER_ID.replaceAll('-', ''),
          longUnit: 'lovelace',
          shortUnit: USDM,
          isLong: false,
          priceTimes1e9: 500_000_000n,
          size: 100n * ADA,
          feeBp: 10n,
          account: {
            kind: 'spot',
            accountId: p.keys.accountId.replaceAll('-', ''),
            masterKey: { type: 'key', hash: p.user.paymentKeyHash },
            operationKey: { type: 'key', hash: p.keys.operationKeyHash },
          },
        },
      },
    });
  });

  it('shows what a deposit spends when the wallet knows its UTxOs, and marks own change', () => {
    const { txHex, intent } = deposit(p);
    const tx = decodeTransaction(txHex, { ...context, knownOutputs: intent.inputs });
    expect(tx.inputs.map((i) => [i.known?.party, i.known?.display.map((d) => d.amount)])).toEqual([
      ['own', ['300']],
      ['own', ['100', '20']],
    ]);
    expect(tx.outputs.map((o) => o.party)).toEqual(['exchange-deposit', 'own']);
  });

  it('tells our base address from other addresses of our keys and from strangers', () => {
    const hex = mutate(deposit(p).txHex, (b) => {
      b.outputs = [
        p.otherOwn.enterprise,
        p.otherOwn.foreignStake,
        p.otherOwn.pointer,
        p.otherOwn.operationKey,
        p.stranger,
        p.user.baseAddress,
      ].map((address) => ({ address: Cardano.PaymentAddress(address), value: { coins: ADA } }));
    });
    expect(decodeTransaction(hex, context).outputs.map((o) => o.party)).toEqual([
      'own-other',
      'own-other',
      'own-other',
      'own-other',
      'foreign',
      'own',
    ]);
  });

  it('names an unknown asset by policy and name', () => {
    const tx = decodeTransaction(buyOrder(p).txHex, { ...context, assets: new Map() });
    expect(tx.outputs[0]?.display[2]).toMatchObject({
      unit: USDM,
      name: `${USDM.slice(0, 56)}.USDM`,
      amount: (50n * ADA).toString(),
    });
  });

  it('names an unknown asset with no name by its policy alone, as cardano-cli does', () => {
    const policy = USDM.slice(0, 56);
    expect(displayAmounts(new Map([[policy, 3n]]))).toEqual([
      { unit: policy, name: policy, quantity: '3', amount: '3' },
    ]);
  });

  it('counts certificates, reward withdrawals, collateral and treasury fields', () => {
    const hex = mutate(sellOrder(p).txHex, (b) => {
      b.certificates = [
        {
          __typename: Cardano.CertificateType.StakeRegistration,
          stakeCredential: {
            type: Cardano.CredentialType.KeyHash,
            hash: p.user.stakeKeyHash as never,
          },
        },
      ];
      b.withdrawals = [
        {
          stakeAddress: Cardano.RewardAccount(
            'stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn',
          ),
          quantity: 1n,
        },
      ];
      b.collaterals = [{ txId: Cardano.TransactionId('05'.repeat(32)), index: 0 }];
      b.donation = 7n;
    });
    const tx = decodeTransaction(hex, context);
    expect(tx.flags).toMatchObject({
      certificates: 1,
      withdrawals: 1,
      collateral: 1,
      treasury: 1,
      votes: null,
    });
    expect(tx.collateralInputs).toEqual([`${'05'.repeat(32)}#0`]);
  });

  it('gives the same reading and another id for the non-canonical encoding of a body', () => {
    const { txHex } = sellOrder(p);
    const canonical = decodeTransaction(txHex, context);
    const odd = decodeTransaction(nonCanonical(txHex), context);
    expect(odd.outputs.map((o) => o.display)).toEqual(canonical.outputs.map((o) => o.display));
    expect(odd.fee).toBe(canonical.fee);
    expect(odd.id).not.toBe(canonical.id);
  });
});
