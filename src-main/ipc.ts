import type { BrowserWindow, IpcMain, IpcMainInvokeEvent } from 'electron';
import { channels, type SendEvent } from '../src-shared/contract';
import { eventChannel } from '../src-shared/contract/api';
import { ErrorCode } from '../src-shared/errors';
import type { Result } from '../src-shared/result';
import type { Dispatch } from './dispatch';
import { isTrustedUrl, type TrustedOrigin } from './window';

export const FORBIDDEN_SENDER: Result<never> = {
  ok: false,
  error: {
    code: ErrorCode.ForbiddenSender,
    message: 'This request did not come from the Countersign window and was refused.',
  },
};

/**
 * A request is ours only if it comes from our window's WebContents, from its main frame (not an
 * iframe), and that frame shows our origin.
 */
export const isOurSender = (
  event: IpcMainInvokeEvent,
  window: BrowserWindow | null,
  trusted: TrustedOrigin,
): boolean => {
  if (!window || window.isDestroyed()) return false;
  if (event.sender.id !== window.webContents.id) return false;
  const frame = event.senderFrame;
  const main = event.sender.mainFrame;
  if (!frame || frame.parent !== null) return false;
  if (frame.processId !== main.processId || frame.routingId !== main.routingId) return false;
  return isTrustedUrl(frame.url, trusted);
};

/** Binds every contract channel to ipcMain through the one dispatcher. */
export const bindIpc = (
  ipcMain: IpcMain,
  dispatch: Dispatch,
  getWindow: () => BrowserWindow | null,
  trusted: TrustedOrigin,
): (() => void) => {
  for (const { channel } of channels) {
    ipcMain.handle(channel, (event, payload: unknown) =>
      isOurSender(event, getWindow(), trusted) ? dispatch(channel, payload) : FORBIDDEN_SENDER,
    );
  }
  return () => {
    for (const { channel } of channels) ipcMain.removeHandler(channel);
  };
};

/** Pushes contract events to our window only. */
export const eventEmitter =
  (getWindow: () => BrowserWindow | null): SendEvent =>
  (name, payload) => {
    const window = getWindow();
    if (window && !window.isDestroyed()) window.webContents.send(eventChannel(name), payload);
  };
