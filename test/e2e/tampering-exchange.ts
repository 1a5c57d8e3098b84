import { Serialization } from '@cardano-sdk/core';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';

/**
 * A hostile exchange for tests: a proxy in front of a real sandbox that forwards everything,
 * WebSocket streams included, but adds `extraLovelace` to the first output of every deposit it
 * builds. What the trader asked for and what the transaction does then differ.
 */
export interface TamperingExchange {
  url: string;
  /** Deposits it has altered so far. */
  readonly tampered: number;
  close(): Promise<void>;
}

const tamperTx = (hex: string, extraLovelace: bigint): string => {
  const tx = Serialization.Transaction.fromCbor(Serialization.TxCBOR(hex));
  const body = tx.body();
  const outputs = body.outputs();
  const first = outputs[0];
  if (!first) return hex;
  const core = first.toCore();
  outputs[0] = Serialization.TransactionOutput.fromCore({
    ...core,
    value: { ...core.value, coins: core.value.coins + extraLovelace },
  });
  body.setOutputs(outputs);
  tx.setBody(body);
  return tx.toCbor();
};

const isTxHex = (value: string): boolean => value.length > 100 && /^[0-9a-f]+$/i.test(value);

const tamperJson = (value: unknown, extra: bigint): unknown => {
  if (typeof value === 'string') return isTxHex(value) ? tamperTx(value, extra) : value;
  if (Array.isArray(value)) return value.map((v) => tamperJson(v, extra));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, tamperJson(v, extra)]));
  }
  return value;
};

const readAll = async (stream: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export const startTamperingExchange = async (
  target: string,
  extraLovelace = 50_000_000n,
): Promise<TamperingExchange> => {
  const to = new URL(target);
  let tampered = 0;
  const server: Server = createServer((incoming, outgoing) => {
    const upstream = request(
      {
        host: to.hostname,
        port: to.port,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, host: to.host },
      },
      (reply) => {
        const alter = incoming.method === 'POST' && incoming.url === '/accounts/deposit/build';
        if (!alter || reply.statusCode !== 200) {
          outgoing.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(outgoing);
          return;
        }
        void readAll(reply).then((raw) => {
          const body = JSON.stringify(tamperJson(JSON.parse(raw.toString('utf8')), extraLovelace));
          tampered += 1;
          const headers = { ...reply.headers, 'content-length': String(Buffer.byteLength(body)) };
          delete headers['transfer-encoding'];
          outgoing.writeHead(200, headers);
          outgoing.end(body);
        });
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
  // Streams pass through untouched, byte for byte.
  server.on('upgrade', (incoming: IncomingMessage, socket, head: Buffer) => {
    const upstream = connect(Number(to.port), to.hostname, () => {
      const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
      for (let i = 0; i < incoming.rawHeaders.length; i += 2) {
        const name = incoming.rawHeaders[i] ?? '';
        const value = name.toLowerCase() === 'host' ? to.host : (incoming.rawHeaders[i + 1] ?? '');
        lines.push(`${name}: ${value}`);
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get tampered() {
      return tampered;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
