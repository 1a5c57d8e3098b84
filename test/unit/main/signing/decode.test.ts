import { Cardano } from '@cardano-sdk/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeTransaction, type DecodeContext } from '../../../../src-main/signing';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  ADA,
  buyOrderBody,
  depositBody,
  depositIntent,
  decodeContextOf,
  makeParties,
  nonCanonical,
  orderBody,
  serialize,
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
  it('shows an order: parties, human amounts with asset names, fee, validity, signers', () => {
    const tx = decodeTransaction(serialize(buyOrderBody(p)), context);
    expect(tx.id).toMatch(/^[0-9a-f]{64}$/);
    expect(tx.networkId).toBe(0);
    expect(tx.fee).toBe(0n);
    expect(tx.validUntilSlot).toBe(90_000_000);
    expect(tx.requiredSigners).toEqual([p.operationKey.keyHash]);
    expect(tx.inputs).toEqual([{ id: `${'01'.repeat(32)}#0`, known: null }]);
    expect(
      tx.outputs.map((o) => [o.party, o.datum, o.display.map((d) => `${d.amount} ${d.name}`)]),
    ).toEqual([
      ['exchange-order', 'inline', ['2 ADA', '50 USDM']],
      ['exchange-account', 'none', ['3 ADA', '150 USDM']],
    ]);
    expect(Object.values(tx.flags).every((f) => f === false)).toBe(true);
    expect(tx.metadata).toBe(false);
  });

  it('shows what a deposit spends when the wallet knows its UTxOs, and marks own change', () => {
    const intent = depositIntent(p);
    const tx = decodeTransaction(serialize(depositBody(p)), {
      ...context,
      knownOutputs: intent.inputs,
    });
    expect(tx.inputs.map((i) => [i.known?.party, i.known?.display.map((d) => d.amount)])).toEqual([
      ['own', ['300']],
      ['own', ['100', '20']],
    ]);
    expect(tx.outputs.map((o) => o.party)).toEqual(['exchange-deposit', 'own']);
  });

  it('names an unknown asset by policy and name', () => {
    const tx = decodeTransaction(serialize(buyOrderBody(p)), { ...context, assets: new Map() });
    expect(tx.outputs[0]?.display[1]).toMatchObject({
      unit: USDM,
      name: `${USDM.slice(0, 56)}.USDM`,
      amount: (50n * ADA).toString(),
    });
  });

  it('flags mint, certificates, withdrawals, collateral, donation and metadata', () => {
    const body: Cardano.TxBody = {
      ...orderBody(p),
      mint: new Map([[Cardano.AssetId(`${'ab'.repeat(28)}4142`), 5n]]),
      certificates: [
        {
          __typename: Cardano.CertificateType.StakeRegistration,
          stakeCredential: {
            type: Cardano.CredentialType.KeyHash,
            hash: p.user.stakeKeyHash as never,
          },
        },
      ],
      withdrawals: [
        {
          stakeAddress: Cardano.RewardAccount(
            'stake_test1uqehkck0lajq8gr28t9uxnuvgcqrc6070x3k9r8048z8y5gssrtvn',
          ),
          quantity: 1n,
        },
      ],
      collaterals: [{ txId: Cardano.TransactionId('05'.repeat(32)), index: 0 }],
      donation: 7n,
    };
    const tx = decodeTransaction(serialize(body, { blob: new Map([[674n, 'hello']]) }), context);
    expect(tx.flags).toMatchObject({
      mint: true,
      certificates: true,
      withdrawals: true,
      collateral: true,
      donation: true,
      votes: false,
    });
    expect(tx.metadata).toBe(true);
    expect(tx.collateralInputs).toEqual([`${'05'.repeat(32)}#0`]);
  });

  it('gives the same reading and id for the non-canonical encoding of a body', () => {
    const canonical = decodeTransaction(serialize(orderBody(p)), context);
    const odd = decodeTransaction(nonCanonical(serialize(orderBody(p))), context);
    expect(odd.outputs.map((o) => o.display)).toEqual(canonical.outputs.map((o) => o.display));
    expect(odd.id).not.toBe(canonical.id);
  });
});
