import { contextBridge, ipcRenderer } from 'electron';
import { buildApi, eventChannel } from '../src-shared/contract/api';
import type { Result } from '../src-shared/result';

/**
 * Exposes `window.api`: one named method per contract operation and a typed event listener.
 * No logic, and no generic invoke(channel): the renderer can reach nothing the contract does
 * not name.
 */
const api = buildApi(
  (channel, payload) => ipcRenderer.invoke(channel, payload) as Promise<Result<unknown>>,
  (name, listener) => {
    const channel = eventChannel(name);
    const forward = (_event: Electron.IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(channel, forward);
    return () => {
      ipcRenderer.removeListener(channel, forward);
    };
  },
);

contextBridge.exposeInMainWorld('api', api);
