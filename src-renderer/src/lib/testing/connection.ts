import type { ConnectionState } from '../../../../src-shared/contract/market';

/** An `exchange:connection` event of the sandbox, as main sends one when the feeds' state changes. */
export const connectionEvent = (
  state: ConnectionState['state'],
  detail: string,
): ConnectionState => ({ network: 'sandbox', since: '2025-01-01T00:00:00Z', state, detail });
