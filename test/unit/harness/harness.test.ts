import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startHarness, type Harness } from '../../harness/server';

let harness: Harness;
let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'cs-harness-'));
  const rendererDir = join(base, 'renderer');
  await mkdir(rendererDir);
  await writeFile(
    join(rendererDir, 'index.html'),
    '<html><head><meta http-equiv="Content-Security-Policy" content="connect-src \'none\'"></head>' +
      '<body><script type="module" src="/app.js"></script></body></html>',
  );
  await writeFile(join(base, 'outside.txt'), 'outside');
  harness = await startHarness({ dataDir: join(base, 'data'), rendererDir, sandbox: false });
});

afterAll(async () => {
  await harness.close();
  await rm(base, { recursive: true, force: true });
});

const connect = (token: string, origin: string) =>
  new Promise<WebSocket>((resolve, reject) => {
    const socket = new WebSocket(
      `${harness.origin.replace('http', 'ws')}/__harness/ws?token=${token}`,
      { origin },
    );
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });

const call = (socket: WebSocket, channel: string, payload?: unknown) =>
  new Promise<unknown>((resolve) => {
    socket.once('message', (data) => resolve(JSON.parse(data.toString())));
    socket.send(JSON.stringify({ id: 1, channel, payload }));
  });

describe('the browser harness', () => {
  it('serves window.api to our page with the token, through the same dispatcher', async () => {
    const socket = await connect(harness.token, harness.origin);
    const answer = (await call(socket, 'app:info')) as { result: { ok: boolean; value: unknown } };
    expect(answer.result).toEqual({
      ok: true,
      value: expect.objectContaining({ runtime: 'harness', network: 'sandbox' }),
    });
    const invalid = (await call(socket, 'app:info', { x: 1 })) as { result: unknown };
    expect(invalid.result).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    socket.close();
  });

  it('refuses a socket without the right token', async () => {
    await expect(connect('', harness.origin)).rejects.toThrow(/401/);
    await expect(connect('0'.repeat(48), harness.origin)).rejects.toThrow(/401/);
  });

  it('refuses a socket from another origin, even with the token', async () => {
    await expect(connect(harness.token, 'http://evil.example')).rejects.toThrow(/401/);
    await expect(connect(harness.token, 'http://localhost:1')).rejects.toThrow(/401/);
  });

  it('serves the page with its api script first and a CSP that allows only its socket', async () => {
    const response = await fetch(`${harness.origin}/`);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`connect-src ws://${new URL(harness.origin).host}`);
    const html = await response.text();
    expect(html).not.toContain('http-equiv');
    expect(html.indexOf('/__harness/api.js')).toBeLessThan(html.indexOf('type="module"'));
    expect(html.indexOf('/__harness/api.js')).toBeGreaterThan(-1);
  });

  it('never serves a file outside the renderer folder', async () => {
    for (const path of ['/../outside.txt', '/%2e%2e/outside.txt', '/..%2foutside.txt']) {
      const response = await fetch(`${harness.origin}${path}`);
      expect(response.status, path).toBe(404);
    }
  });

  it('closes a socket that sends something that is not a request', async () => {
    const socket = await connect(harness.token, harness.origin);
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send('not json');
    await expect(closed).resolves.toBe(1008);
  });
});
