import type { Handlers } from '../../../src-shared/contract';
import type { AppInfoService } from './service';

export const aboutHandlers = (about: AppInfoService): Handlers['app'] => ({
  info: async () => about.info(),
});
