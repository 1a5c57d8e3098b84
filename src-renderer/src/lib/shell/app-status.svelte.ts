import type { Api, AppInfo, SessionStatus } from '../../../../src-shared/contract';
import { messageOf, unwrap } from '../api';

/**
 * What the frame around every screen shows: which app and exchange this is, and whether the
 * trading session is locked. Loaded once, then kept current by `session:changed` events.
 */
export class AppStatus {
  info = $state<AppInfo | null>(null);
  session = $state<SessionStatus | null>(null);
  error = $state<string | null>(null);
  loading = $state(true);

  private stopListening: (() => void) | null = null;

  constructor(private readonly api: Api) {}

  async load(): Promise<void> {
    this.loading = true;
    this.error = null;
    this.stopListening ??= this.api.on('session:changed', (status) => {
      this.session = status;
    });
    try {
      const [info, session] = await Promise.all([
        unwrap(this.api.app.info()),
        unwrap(this.api.session.status()),
      ]);
      this.info = info;
      this.session = session;
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.loading = false;
    }
  }

  dispose(): void {
    this.stopListening?.();
    this.stopListening = null;
  }
}
