/**
 * Runs in the browser before the renderer: provides `window.api` over the harness's WebSocket,
 * built from the same contract as Electron's preload. The per-run token arrives in the page URL
 * (?token=…) and is removed from the address bar at once; the tab keeps it in sessionStorage so
 * a reload still works, and it is gone with the tab.
 */
import { buildApi, type Call } from '../../src-shared/contract/api';
import type { EventName } from '../../src-shared/contract';
import { ErrorCode } from '../../src-shared/errors';
import type { Result } from '../../src-shared/result';
import { SOCKET_PATH } from './protocol';

const TOKEN_KEY = 'countersign.harness.token';
const params = new URLSearchParams(location.search);
const token = params.get('token') ?? sessionStorage.getItem(TOKEN_KEY) ?? '';
sessionStorage.setItem(TOKEN_KEY, token);
params.delete('token');
history.replaceState(
  null,
  '',
  `${location.pathname}${params.size ? `?${params}` : ''}${location.hash}`,
);

const socket = new WebSocket(
  `ws://${location.host}${SOCKET_PATH}?token=${encodeURIComponent(token)}`,
);
const pending = new Map<number, (result: Result<unknown>) => void>();
const listeners = new Map<string, Set<(payload: unknown) => void>>();
let nextId = 1;

const opened = new Promise<boolean>((resolve) => {
  socket.addEventListener('open', () => resolve(true));
  socket.addEventListener('error', () => resolve(false));
  socket.addEventListener('close', () => resolve(false));
});

const disconnected: Result<never> = {
  ok: false,
  error: {
    code: ErrorCode.ForbiddenSender,
    message: 'The test harness refused or lost this page. Open the address the harness printed.',
  },
};

socket.addEventListener('close', () => {
  for (const resolve of pending.values()) resolve(disconnected);
  pending.clear();
});

socket.addEventListener('message', (message: MessageEvent<string>) => {
  const data = JSON.parse(message.data) as
    { id: number; result: Result<unknown> } | { event: string; payload: unknown };
  if ('id' in data) {
    pending.get(data.id)?.(data.result);
    pending.delete(data.id);
  } else {
    for (const listener of listeners.get(data.event) ?? []) listener(data.payload);
  }
});

const call: Call = async (channel, payload) => {
  if (!(await opened) || socket.readyState !== WebSocket.OPEN) return disconnected;
  const id = nextId++;
  return new Promise((resolve) => {
    pending.set(id, resolve);
    socket.send(JSON.stringify({ id, channel, payload }));
  });
};

const subscribe = (name: EventName, listener: (payload: unknown) => void) => {
  const set = listeners.get(name) ?? new Set();
  listeners.set(name, set);
  set.add(listener);
  return () => {
    set.delete(listener);
  };
};

Object.defineProperty(window, 'api', { value: buildApi(call, subscribe), writable: false });
