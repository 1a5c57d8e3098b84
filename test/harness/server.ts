import { build } from 'esbuild';
import { timingSafeEqual, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import { createAppServices, type AppServices } from '../../src-main/app';
import { silentLogger, type Logger } from '../../src-main/log';
import type { SecretStore } from '../../src-main/wallet/secret-store';
import { buildCsp, contentTypeOf, resolveRendererFile } from '../../src-main/renderer-files';
import type { OperationProgress, OperationStep, SendEvent } from '../../src-shared/contract';
import type { NetworkChoice } from '../../src-shared/network';
import { CLIENT_SCRIPT_PATH, HarnessRequest, SOCKET_PATH } from './protocol';
import { sourceSandboxCommand } from './sandbox-command';

const root = resolve(import.meta.dirname, '../..');

export interface HarnessOptions {
  /** The built renderer (electron-vite build's out/renderer). */
  rendererDir?: string;
  dataDir: string;
  port?: number;
  network?: NetworkChoice;
  logger?: Logger;
  /**
   * Start the embedded sandbox exchange (from source) as Electron's main would (default true),
   * or use one already running at this address (a test's own, or a proxy in front of it).
   */
  sandbox?: boolean | { url: string; adminToken?: string };
  /** Where sealed secrets go; the OS keychain unless a bench or test gives another. */
  secretStore?: SecretStore;
  /**
   * Crash tests only: the process kills itself (SIGKILL: nothing flushed, nothing cleaned up)
   * the moment an operation reaches this step, as a crash or a power cut would. Meant for a
   * harness run in a process of its own (`cli.ts --kill-at`); the app itself has no such hook.
   */
  killAt?: OperationStep;
}

export interface Harness {
  /** Open this in the browser: it carries the per-run token. */
  url: string;
  origin: string;
  token: string;
  services: AppServices;
  close(): Promise<void>;
}

const buildClientScript = async (): Promise<string> => {
  const result = await build({
    entryPoints: [resolve(import.meta.dirname, 'client.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('harness client did not build');
  return file.text;
};

const sameSecret = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

/**
 * The browser harness: the app's services and dispatcher in Node, the built renderer on
 * 127.0.0.1, and `window.api` over a loopback WebSocket that only our page can open (a random
 * per-run token and an Origin check). A development and test tool, never packaged.
 */
export const startHarness = async (options: HarnessOptions): Promise<Harness> => {
  const rendererDir = options.rendererDir ?? resolve(root, 'out/renderer');
  const token = randomBytes(24).toString('hex');
  const sockets = new Set<WebSocket>();
  const send: SendEvent = (name, payload) => {
    if (
      options.killAt !== undefined &&
      name === 'operations:progress' &&
      (payload as OperationProgress).step === options.killAt
    ) {
      process.kill(process.pid, 'SIGKILL');
    }
    const message = JSON.stringify({ event: name, payload });
    for (const socket of sockets) socket.send(message);
  };
  const packageJson = JSON.parse(await readFile(resolve(root, 'package.json'), 'utf8')) as {
    productName: string;
    version: string;
  };
  const services = await createAppServices({
    name: packageJson.productName,
    version: packageJson.version,
    dataDir: options.dataDir,
    runtime: 'harness',
    network: options.network ?? { name: 'sandbox' },
    logger: options.logger ?? silentLogger,
    send,
    ...(options.secretStore ? { secretStore: options.secretStore } : {}),
    ...(options.sandbox === false
      ? {}
      : { sandbox: typeof options.sandbox === 'object' ? options.sandbox : sourceSandboxCommand }),
  });
  const clientScript = await buildClientScript();

  let origin = '';
  const serve = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', origin);
    const csp = buildCsp(`ws://${url.host}`);
    const send = (status: number, type: string, body: string | Buffer) => {
      response.writeHead(status, {
        'content-type': type,
        'content-security-policy': csp,
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-store',
      });
      response.end(body);
    };
    if (request.method !== 'GET') return send(405, 'text/plain', 'method not allowed');
    if (url.pathname === CLIENT_SCRIPT_PATH) return send(200, 'text/javascript', clientScript);
    const file = resolveRendererFile(rendererDir, url.pathname);
    if (!file) return send(404, 'text/plain', 'not found');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return send(404, 'text/plain', 'not found');
    }
    if (file.endsWith('.html')) {
      // The page's own meta CSP forbids every connection; the harness's header CSP allows only
      // its WebSocket, and its api script must run before the app's module.
      const html = body
        .toString('utf8')
        .replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/i, '')
        .replace(
          '<script type="module"',
          `<script src="${CLIENT_SCRIPT_PATH}"></script>\n    <script type="module"`,
        );
      return send(200, contentTypeOf(file), html);
    }
    return send(200, contentTypeOf(file), body);
  };

  const server = createServer((request, response) => {
    serve(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  const wss = new WebSocketServer({
    server,
    path: SOCKET_PATH,
    maxPayload: 1024 * 1024,
    verifyClient: ({ origin: from, req }: { origin: string; req: IncomingMessage }) => {
      const given = new URL(req.url ?? '', 'http://x').searchParams.get('token') ?? '';
      return from === origin && sameSecret(given, token);
    },
  });
  wss.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('message', async (raw) => {
      let request: HarnessRequest;
      try {
        request = HarnessRequest.parse(JSON.parse(raw.toString()));
      } catch {
        socket.close(1008, 'bad message');
        return;
      }
      const result = await services.dispatch(request.channel, request.payload);
      socket.send(JSON.stringify({ id: request.id, result }));
    });
  });

  await new Promise<void>((ready) => server.listen(options.port ?? 0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    services,
    close: async () => {
      for (const socket of sockets) socket.terminate();
      await new Promise<void>((done) => wss.close(() => done()));
      await new Promise<void>((done) => server.close(() => done()));
      await services.dispose();
    },
  };
};
