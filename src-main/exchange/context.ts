import type { HttpTransport } from './http';

/** What the endpoint groups share: the transport, the API key's header, and the time. */
export interface ApiContext {
  readonly http: HttpTransport;
  /** The headers of an authenticated call; throws a clear error when no API key is set. */
  auth(action: string, endpoint: string): Record<string, string>;
  now(): number;
}
