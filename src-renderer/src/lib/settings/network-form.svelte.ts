import {
  customUrlProblem,
  NetworkChoice,
  type NetworkName,
  type NetworkChoice as NetworkChoiceValue,
} from '../../../../src-shared/network';

export const NETWORK_DESCRIPTIONS: Readonly<Record<NetworkName, string>> = {
  sandbox:
    'A practice exchange running on this computer, with test coins. No API key needed; nothing real at stake.',
  staging:
    "The exchange's test deployment, on Cardano's preprod test network. Needs an API key from the exchange.",
  production:
    'The live exchange on Cardano mainnet: real funds. Needs an API key from the exchange.',
  custom:
    'Another deployment of the same exchange interface, at an address you give (self-hosted, or through a proxy).',
};

/**
 * The network form in Settings: which exchange, and for a custom one its addresses and Cardano
 * network. It produces a `NetworkChoice` only when everything typed is acceptable.
 */
export class NetworkForm {
  name = $state<NetworkName>('sandbox');
  baseUrl = $state('');
  streamUrl = $state('');
  networkId = $state<0 | 1>(0);

  readonly baseUrlProblem: string | null = $derived(
    this.name !== 'custom'
      ? null
      : this.baseUrl.trim() === ''
        ? 'Type the address of the exchange, such as https://exchange.example.com.'
        : customUrlProblem(this.baseUrl.trim(), ['https:', 'http:']),
  );
  readonly streamUrlProblem: string | null = $derived(
    this.name !== 'custom' || this.streamUrl.trim() === ''
      ? null
      : customUrlProblem(this.streamUrl.trim(), ['wss:', 'ws:']),
  );
  readonly choice: NetworkChoiceValue | null = $derived.by(() => {
    if (this.baseUrlProblem || this.streamUrlProblem) return null;
    const parsed = NetworkChoice.safeParse(
      this.name === 'custom'
        ? {
            name: 'custom',
            baseUrl: this.baseUrl.trim(),
            ...(this.streamUrl.trim() ? { streamUrl: this.streamUrl.trim() } : {}),
            networkId: this.networkId,
          }
        : { name: this.name },
    );
    return parsed.success ? parsed.data : null;
  });

  constructor(current: NetworkChoiceValue | null) {
    this.reset(current);
  }

  reset(current: NetworkChoiceValue | null): void {
    this.name = current?.name ?? 'sandbox';
    if (current?.name === 'custom') {
      this.baseUrl = current.baseUrl;
      this.streamUrl = current.streamUrl ?? '';
      this.networkId = current.networkId;
    }
  }

  /** Whether the form asks for something other than what is in use. */
  differsFrom(current: NetworkChoiceValue | null): boolean {
    const choice = this.choice;
    if (!choice || !current) return choice !== null;
    return JSON.stringify(choice) !== JSON.stringify(current);
  }
}
