/** The exchanges Countersign can talk to. The embedded sandbox is the default. */
export const NETWORKS = ['sandbox', 'staging', 'production'] as const;
export type NetworkName = (typeof NETWORKS)[number];

export const NETWORK_LABELS: Readonly<Record<NetworkName, string>> = {
  sandbox: 'Sandbox',
  staging: 'Staging (preprod)',
  production: 'Production (mainnet)',
};

/** Cardano network id of each exchange: testnet (0) except production (1). */
export const NETWORK_IDS: Readonly<Record<NetworkName, 0 | 1>> = {
  sandbox: 0,
  staging: 0,
  production: 1,
};
