/// <reference types="svelte" />
/// <reference types="vite/client" />
import type { Api } from '../../src-shared/contract';

declare global {
  interface Window {
    /** Provided by the preload (Electron) or the browser harness; the renderer's only way out. */
    readonly api: Api;
  }
}
