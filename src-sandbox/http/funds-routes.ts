import type { FastifyInstance } from 'fastify';
import { utxoId } from '../l1-ledger.js';
import { ErrorCode, SandboxError } from '../errors.js';
import { parseFundsAmounts } from '../funds.js';
import { toAmountRecord } from '../journal-entries.js';
import { balanceEntries } from '../records.js';
import type { SandboxCore } from '../sandbox-core.js';
import { checkSignatures, parseSignedTx } from '../transactions.js';
import { amountList, inputUtxoSchema, signedTxBody } from './schemas.js';
import { authenticate } from './server.js';

interface AmountEntry {
  unit: string;
  quantity: string;
}
interface InputUtxo {
  input: { tx_hash: string; output_index: number };
  output: { address: string; amount: AmountEntry[] };
}

export interface FundsDelays {
  confirmationDelayMs: number;
  withdrawalDelayMs: number;
}

/** Balance, deposits and withdrawals. */
export function fundsRoutes(app: FastifyInstance, core: SandboxCore, delays: FundsDelays): void {
  const auth = authenticate(core);

  app.get('/accounts/balance', { onRequest: auth }, async (request) => {
    await core.synced();
    return balanceEntries(core.current(), request.accountId);
  });

  app.post(
    '/accounts/deposit/build',
    {
      onRequest: auth,
      schema: {
        body: {
          type: 'object',
          required: ['deposit_amount', 'input_utxos'],
          additionalProperties: false,
          properties: {
            deposit_amount: amountList,
            input_utxos: { type: 'array', minItems: 1, maxItems: 100, items: inputUtxoSchema },
          },
        },
      },
    },
    (request) => {
      const body = request.body as { deposit_amount: AmountEntry[]; input_utxos: InputUtxo[] };
      const amounts = parseFundsAmounts(body.deposit_amount);
      const exchange = core.current();
      const inputs: string[] = [];
      for (const u of body.input_utxos) {
        const id = utxoId(u.input.tx_hash.toLowerCase(), u.input.output_index);
        if (inputs.includes(id)) {
          throw new SandboxError(ErrorCode.invalidRequest, `UTxO ${id} is listed twice`);
        }
        inputs.push(id);
        const known = exchange.l1.get(id);
        if (!known) continue;
        const stated = new Map(u.output.amount.map((a) => [a.unit, a.quantity]));
        const same =
          known.address === u.output.address &&
          stated.size === known.amounts.size &&
          [...known.amounts].every(([unit, q]) => stated.get(unit) === q.toString());
        if (!same) {
          throw new SandboxError(
            ErrorCode.invalidRequest,
            `UTxO ${id}: the stated output differs from the ledger's`,
          );
        }
      }
      return core.commit<{ tx_hex: string }>({
        t: 'depositBuild',
        at: core.now(),
        accountId: request.accountId,
        amounts: toAmountRecord(amounts),
        inputs,
      });
    },
  );

  app.post(
    '/accounts/deposit/submit',
    { onRequest: auth, schema: { body: signedTxBody } },
    (request) => {
      const signed = parseSignedTx((request.body as { signed_tx: string }).signed_tx);
      const at = core.now();
      const { signer } = core.current().pendingFor('deposit', request.accountId, signed.txId, at);
      checkSignatures(signed, [signer]);
      return core.commit<{ tx_hash: string }>({
        t: 'depositSubmit',
        at,
        txId: signed.txId,
        confirmAt: at + delays.confirmationDelayMs,
      });
    },
  );

  app.post(
    '/accounts/withdrawal/build',
    {
      onRequest: auth,
      schema: {
        body: {
          type: 'object',
          required: ['withdrawal_amount'],
          additionalProperties: false,
          properties: { withdrawal_amount: amountList },
        },
      },
    },
    (request) => {
      const body = request.body as { withdrawal_amount: AmountEntry[] };
      const amounts = parseFundsAmounts(body.withdrawal_amount);
      return core.commit<{ tx_hex: string }>({
        t: 'withdrawalBuild',
        at: core.now(),
        accountId: request.accountId,
        amounts: toAmountRecord(amounts),
      });
    },
  );

  app.post(
    '/accounts/withdrawal/submit',
    { onRequest: auth, schema: { body: signedTxBody } },
    (request) => {
      const signed = parseSignedTx((request.body as { signed_tx: string }).signed_tx);
      const at = core.now();
      const { signer } = core
        .current()
        .pendingFor('withdrawal', request.accountId, signed.txId, at);
      checkSignatures(signed, [signer]);
      return core.commit<{ tx_hash: string }>({
        t: 'withdrawalSubmit',
        at,
        txId: signed.txId,
        settleAt: at + delays.withdrawalDelayMs,
      });
    },
  );
}
