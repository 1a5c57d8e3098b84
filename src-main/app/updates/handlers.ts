import type { Handlers } from '../../../src-shared/contract';
import type { UpdateService } from './service';

/** The `updates` area of the contract. */
export const updatesHandlers = (updates: UpdateService): Handlers['updates'] => ({
  status: async () => updates.status(),
  check: () => updates.check(),
  download: () => updates.download(),
  install: () => updates.install(),
});
