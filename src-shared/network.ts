import { z } from 'zod';

/**
 * The exchanges Countersign can talk to: the embedded sandbox (the default), the real service's
 * staging and production deployments, or a custom base URL (a self-hosted or proxied deployment).
 */
export const NETWORKS = ['sandbox', 'staging', 'production', 'custom'] as const;
export const NetworkName = z.enum(NETWORKS);
export type NetworkName = (typeof NETWORKS)[number];

export const NETWORK_LABELS: Readonly<Record<NetworkName, string>> = {
  sandbox: 'Sandbox',
  staging: 'Staging (preprod)',
  production: 'Production (mainnet)',
  custom: 'Custom',
};

export type CardanoNetworkId = 0 | 1;

/** Cardano network id of the fixed networks: testnet (0) except production (1). */
export const NETWORK_IDS: Readonly<Record<Exclude<NetworkName, 'custom'>, CardanoNetworkId>> = {
  sandbox: 0,
  staging: 0,
  production: 1,
};

/** The real service's public deployments (real-service.md). */
export const REAL_SERVICE_URLS = {
  staging: {
    baseUrl: 'https://api-staging.deltadefi.io',
    streamUrl: 'wss://stream-staging.deltadefi.io',
  },
  production: { baseUrl: 'https://api.deltadefi.io', streamUrl: 'wss://stream.deltadefi.io' },
} as const;

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/;

/** A URL a trader may type for a custom exchange: https, or http only on this machine. */
export const customUrlProblem = (text: string, schemes: readonly string[]): string | null => {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'That is not a web address. Type it in full, such as https://exchange.example.com.';
  }
  const secure = schemes[0] ?? 'https:';
  const plain = schemes[1] ?? 'http:';
  if (url.username || url.password) return 'The address must not contain a user name or password.';
  if (url.search || url.hash) return 'The address must not contain a query or a fragment.';
  if (url.protocol === secure) return null;
  if (url.protocol === plain && LOOPBACK.test(url.hostname)) return null;
  if (url.protocol === plain) {
    return `Only ${secure.replace(':', '')} addresses are accepted, except on this machine (127.0.0.1 or localhost): ${plain.replace(':', '')} would send your API key in the clear.`;
  }
  return `Use an ${secure.replace(':', '')} address.`;
};

const urlOf = (schemes: readonly string[]) =>
  z
    .string()
    .trim()
    .max(300)
    .superRefine((text, ctx) => {
      const problem = customUrlProblem(text, schemes);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((text) => text.replace(/\/+$/, ''));

export const CustomBaseUrl = urlOf(['https:', 'http:']);
export const CustomStreamUrl = urlOf(['wss:', 'ws:']);

/** Which exchange the app uses, as chosen in Settings and kept on disk. */
export const NetworkChoice = z.discriminatedUnion('name', [
  z.object({ name: z.literal('sandbox') }),
  z.object({ name: z.literal('staging') }),
  z.object({ name: z.literal('production') }),
  z.object({
    name: z.literal('custom'),
    baseUrl: CustomBaseUrl,
    /** Where its WebSocket streams are; none: live updates come by polling. */
    streamUrl: CustomStreamUrl.optional(),
    networkId: z.union([z.literal(0), z.literal(1)]),
  }),
]);
export type NetworkChoice = z.output<typeof NetworkChoice>;

export const DEFAULT_NETWORK: NetworkChoice = { name: 'sandbox' };

export const networkIdOf = (choice: NetworkChoice): CardanoNetworkId =>
  choice.name === 'custom' ? choice.networkId : NETWORK_IDS[choice.name];

/** A key for everything kept per network (API keys, caches, journals): custom ones by URL. */
export const networkKeyOf = (choice: NetworkChoice): string =>
  choice.name === 'custom' ? `custom:${choice.baseUrl}` : choice.name;
