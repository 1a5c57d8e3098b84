/** The chain area: a wallet's coins on Cardano (L1), behind one interface, from three providers. */
export { SandboxChain, type SandboxTarget } from './sandbox-chain';
export { KoiosChain } from './koios-chain';
export { BlockfrostChain } from './blockfrost-chain';
export { scriptRefOf, scriptLanguage, type ScriptLanguage, type ScriptRef } from './script-ref';
export {
  AmountEntry,
  COIN_REF,
  InputUtxo,
  MOST_COINS_SPENT,
  coinOf,
  coinsCovering,
  lovelaceOf,
  refOf,
  richestCoins,
  totalOf,
  type ChainLookup,
  type CoinOutput,
} from './utxo';
