import * as Crypto from '@cardano-sdk/crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkIntent, decodeTransaction, type ExchangeProfile } from '../../../../src-main/signing';
import { cryptoIsReady } from '../../../../src-main/wallet';
import {
  ADA,
  buyOrderBody,
  buyOrderIntent,
  depositBody,
  depositIntent,
  decodeContextOf,
  makeParties,
  orderBody,
  orderIntent,
  out,
  serialize,
  type Parties,
} from '../../../fixtures/cardano/exchange-transactions';

let p: Parties;
beforeAll(async () => {
  await cryptoIsReady();
  p = makeParties();
});

const decode = (hex: string, profile: ExchangeProfile) =>
  decodeTransaction(hex, decodeContextOf(p, profile));

describe('checking a transaction against the intent', () => {
  it('accepts a buy order locking the quote with its minimum ADA', () => {
    const report = checkIntent(
      decode(serialize(buyOrderBody(p)), p.profile),
      buyOrderIntent,
      p.profile,
    );
    expect(report).toEqual({ differences: [], warnings: [] });
  });

  it('refuses a buy order whose output carries more ADA than its minimum', () => {
    const body = buyOrderBody(p);
    body.outputs[0] = { ...out(p.profile.addresses.order ?? '', 30n * ADA, 50n * ADA), datum: 1n };
    const report = checkIntent(decode(serialize(body), p.profile), buyOrderIntent, p.profile);
    expect(report.differences).toEqual([
      'The order output also locks 30 ADA, more than its 2 ADA minimum.',
    ]);
  });

  it('on a real network without published addresses, shows order structure as warnings', () => {
    const real: ExchangeProfile = {
      ...p.profile,
      strict: false,
      network: 'staging',
      addresses: {},
    };
    const body = orderBody(p);
    body.fee = 170_000n;
    body.requiredExtraSignatures?.push(Crypto.Ed25519KeyHashHex(p.strangerKeyHash));
    const report = checkIntent(decode(serialize(body), real), orderIntent, real);
    expect(report.differences).toEqual([]);
    expect(report.warnings).toEqual([
      'The fee is 0.17 ADA, above the 0 ADA this operation may cost.',
      expect.stringContaining('signature from an unknown key'),
      expect.stringMatching(
        /^Output 0 sends 100 ADA to an address that is not your exchange account/,
      ),
      expect.stringMatching(/^Output 1 sends 400 ADA/),
      'The exchange’s order address is not known: the order output cannot be checked.',
    ]);
  });

  it('still refuses on a real network what no trade needs (a mint, another network)', () => {
    const real: ExchangeProfile = {
      ...p.profile,
      strict: false,
      network: 'production',
      networkId: 1,
    };
    const report = checkIntent(decode(serialize(orderBody(p)), real), orderIntent, real);
    expect(report.differences).toContain('It is for network testnet, not production.');
  });

  it('checks deposits strictly everywhere: no known deposit address is a difference', () => {
    const real: ExchangeProfile = { ...p.profile, strict: false, addresses: {} };
    const report = checkIntent(decode(serialize(depositBody(p)), real), depositIntent(p), real);
    expect(report.differences).toContain(
      'The exchange’s deposit address is not known, so the destination cannot be checked.',
    );
    expect(report.warnings).toEqual([]);
  });
});

describe('market orders', () => {
  it('may lock up to the stated amount, never more and never nothing', () => {
    const check = (asked: bigint) =>
      checkIntent(
        decode(serialize(orderBody(p)), p.profile),
        { kind: 'place-order', lock: { unit: 'lovelace', quantity: asked, upTo: true } },
        p.profile,
      ).differences;
    expect(check(100n * ADA)).toEqual([]);
    expect(check(150n * ADA)).toEqual([]);
    expect(check(99n * ADA)).toEqual(['The order locks 100 ADA instead of at most 99 ADA.']);
  });
});
