import type { Handlers } from '../../../src-shared/contract';
import type { SettingsService } from './service';

export const settingsHandlers = (settings: SettingsService): Handlers['settings'] => ({
  get: () => settings.get(),
  setNetwork: ({ network }) => settings.setNetwork(network),
  update: (change) => settings.update(change),
  importOperationKey: (request) => settings.importOperationKey(request),
  connection: async () => settings.connection(),
  resetSandbox: ({ password }) => settings.resetSandbox(password),
});
