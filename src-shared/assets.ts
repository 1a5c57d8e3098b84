import type { NetworkName } from './network';

/** An asset as a trader reads it: its name and how many decimals its smallest unit has. */
export interface AssetInfo {
  unit: string;
  name: string;
  decimals: number;
}

export const LOVELACE = 'lovelace';

const ADA: AssetInfo = { unit: LOVELACE, name: 'ADA', decimals: 6 };
const USDM_TESTNET = 'c69b981db7a65e339a6d783755f85a2e03afa1cece9714c55fe4c9135553444d';
const USDM_MAINNET = 'c48cbb3d5e57ed56e276bc45f99ab39abe94e6cd7ac39fb402da47ad0014df105553444d';

/** The assets each network trades (real-service.md; the sandbox adds its own NIGHT). */
export const KNOWN_ASSETS: Readonly<Record<NetworkName, readonly AssetInfo[]>> = {
  custom: [
    ADA,
    { unit: USDM_TESTNET, name: 'USDM', decimals: 6 },
    { unit: USDM_MAINNET, name: 'USDM', decimals: 6 },
  ],
  sandbox: [
    ADA,
    { unit: USDM_TESTNET, name: 'USDM', decimals: 6 },
    {
      unit: '0691b2fecca1ac4f53cb6dfb00b7013e561d1f34403b957cbb5af1fa4e49474854',
      name: 'NIGHT',
      decimals: 6,
    },
  ],
  staging: [ADA, { unit: USDM_TESTNET, name: 'USDM', decimals: 6 }],
  production: [ADA, { unit: USDM_MAINNET, name: 'USDM', decimals: 6 }],
};

/** What the app knows of a unit on a network; an unknown token shows by its unit, undivided. */
export const assetInfo = (network: NetworkName, unit: string): AssetInfo =>
  KNOWN_ASSETS[network].find((a) => a.unit === unit) ?? {
    unit,
    name: `${unit.slice(0, 8)}…${unit.slice(-6)}`,
    decimals: 0,
  };
