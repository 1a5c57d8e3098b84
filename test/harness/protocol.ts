import { z } from 'zod';

/** Messages on the harness's loopback WebSocket: the browser's stand-in for Electron IPC. */
export const HarnessRequest = z.object({
  id: z.number().int().nonnegative(),
  channel: z.string().max(200),
  payload: z.unknown().optional(),
});
export type HarnessRequest = z.infer<typeof HarnessRequest>;

export const HARNESS_PATH = '/__harness';
export const CLIENT_SCRIPT_PATH = `${HARNESS_PATH}/api.js`;
export const SOCKET_PATH = `${HARNESS_PATH}/ws`;
