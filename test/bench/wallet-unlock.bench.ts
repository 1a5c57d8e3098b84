import { PRODUCTION_SCRYPT_COST } from '../../src-main/wallet';
import { STRONG_PASSWORD, VECTOR_PHRASE, walletWorld } from '../fixtures/cardano/wallet-services';
import { measure, report } from './measure';

/** Unlocking the trading session with the production scrypt cost (target: under 1 s). */
const world = await walletWorld('sandbox', undefined, PRODUCTION_SCRYPT_COST);
await world.wallet.restore({ name: 'Bench', words: VECTOR_PHRASE, password: STRONG_PASSWORD });
const t = await measure(
  async () => {
    await world.session.unlock(STRONG_PASSWORD);
    await world.session.lock('user');
  },
  { iterations: 7, warmup: 1 },
);
report('wallet.unlock_ms', {
  unit: 'ms',
  median: Math.round(t.median),
  p99: Math.round(t.p99),
  iterations: t.iterations,
  kdf: `scrypt N=${PRODUCTION_SCRYPT_COST.N} r=${PRODUCTION_SCRYPT_COST.r} p=${PRODUCTION_SCRYPT_COST.p}`,
  target_median: 1000,
});
await world.cleanup();
