/** The chain area: a wallet's coins on Cardano (L1), behind one interface. */
export { SandboxChain } from './sandbox-chain';
export { AmountEntry, InputUtxo, totalOf, type ChainLookup } from './utxo';
