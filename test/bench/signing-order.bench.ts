import {
  checkIntent,
  decodeTransaction,
  splitTransaction,
  addVkeyWitnesses,
} from '../../src-main/signing';
import { decodeContextOf, makeParties, sellOrder } from '../fixtures/cardano/exchange-transactions';
import { STRONG_PASSWORD, VECTOR_PHRASE, walletWorld } from '../fixtures/cardano/wallet-services';
import { measure, report, type Timing } from './measure';

/**
 * Signing an order with an unlocked session (target: median ≤ 0.2 ms), decoding and checking an
 * order transaction (target: median ≤ 1 ms), and the whole `signTrade` call.
 */
const ms = (bench: string, t: Timing, target?: number): void =>
  report(bench, {
    unit: 'ms',
    median: Number(t.median.toFixed(4)),
    p99: Number(t.p99.toFixed(4)),
    mean: Number(t.mean.toFixed(4)),
    iterations: t.iterations,
    ...(target === undefined ? {} : { target_median: target }),
  });

const world = await walletWorld();
const wallet = await world.wallet.restore({
  name: 'Bench',
  words: VECTOR_PHRASE,
  password: STRONG_PASSWORD,
});
await world.session.unlock(STRONG_PASSWORD);
const p = makeParties(wallet.operationKeyHash);
// A sandbox-built sell order in the published layout; its datum's terms are checked too.
const { txHex, intent } = sellOrder(p);
const context = decodeContextOf(p, p.profile);
const decoded = decodeTransaction(txHex, context);
const id = Buffer.from(decoded.id, 'hex');

ms(
  'signing.order_sign_ms',
  await measure(() =>
    world.session.withOperationKey((key) =>
      addVkeyWitnesses(decoded.bytes, [{ vkey: key.publicKey, signature: key.sign(id) }]),
    ),
  ),
  0.2,
);
ms(
  'signing.order_decode_check_ms',
  await measure(() => checkIntent(decodeTransaction(txHex, context), intent, p.profile)),
  1,
);
ms('signing.order_split_ms', await measure(() => splitTransaction(txHex)));
ms(
  'signing.order_sign_trade_total_ms',
  await measure(() => world.signer.signTrade(txHex, intent, p.profile), {
    iterations: 3000,
    warmup: 300,
  }),
);
await world.cleanup();
