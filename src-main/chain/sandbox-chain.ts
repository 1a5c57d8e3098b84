import { request } from 'undici';
import { z } from 'zod';
import { AppError, ErrorCode } from '../../src-shared/errors';
import { sandboxAdminHeaders } from '../exchange';
import { InputUtxo, type ChainLookup } from './utxo';

const unreadable = (cause?: unknown) =>
  new AppError(
    ErrorCode.Network,
    'Countersign could not read your wallet’s coins from the practice exchange’s ledger. Try again in a moment.',
    { cause },
  );

/** The embedded sandbox's simulated L1: `GET /sandbox/utxos?address=`. */
export class SandboxChain implements ChainLookup {
  constructor(
    private readonly sandboxUrl: () => Promise<string>,
    private readonly timeoutMs = 10_000,
  ) {}

  async utxosAt(address: string): Promise<InputUtxo[]> {
    const url = new URL('/sandbox/utxos', await this.sandboxUrl());
    url.searchParams.set('address', address);
    let status: number;
    let body: unknown;
    try {
      const response = await request(url, {
        headers: sandboxAdminHeaders(url),
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
      });
      status = response.statusCode;
      body = await response.body.json().catch(() => null);
    } catch (error) {
      throw unreadable(error);
    }
    if (status !== 200) throw unreadable(new Error(`HTTP ${status}`));
    const utxos = z.array(InputUtxo).safeParse(body);
    if (!utxos.success) throw unreadable(utxos.error);
    return utxos.data;
  }
}
