import type { Balance } from '../../src-shared/domain';
import type { ApiContext } from './context';
import { invalidInput as invalid } from './errors';
import { signedTxText } from './orders';
import {
  amountEntries,
  decodeBalances,
  decodeTxHash,
  decodeTxHex,
  InputUtxo,
  type UnitAmount,
} from './wire';

/** Balances, deposits and withdrawals (seed 4.1 #4 to #8). */

export const balances = async (api: ApiContext, signal?: AbortSignal): Promise<Balance[]> => {
  const action = 'read your balances';
  const path = '/accounts/balance';
  const reply = await api.http.request({
    method: 'GET',
    path,
    kind: 'read',
    action,
    headers: api.auth(action, `GET ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeBalances(reply.body, { endpoint: reply.endpoint, action });
};

const checkedAmounts = (amounts: readonly UnitAmount[]) => {
  if (!Array.isArray(amounts) || amounts.length === 0 || amounts.length > 10) {
    throw invalid('Give between one and ten amounts.');
  }
  for (const a of amounts) {
    if (
      typeof a.unit !== 'string' ||
      !/^(lovelace|[0-9a-f]{56}(?:[0-9a-f]{2}){0,32})$/.test(a.unit)
    ) {
      throw invalid('An amount names an asset unit that is not lovelace or a policy id + name.');
    }
    if (typeof a.quantity !== 'bigint' || a.quantity <= 0n) {
      throw invalid('Every amount must be a positive whole number of the smallest unit.');
    }
  }
  return amountEntries(amounts);
};

export const buildDeposit = async (
  api: ApiContext,
  req: { amounts: readonly UnitAmount[]; inputUtxos: readonly InputUtxo[] },
  signal?: AbortSignal,
): Promise<{ txHex: string }> => {
  const deposit_amount = checkedAmounts(req.amounts);
  const utxos = InputUtxo.array().min(1).max(100).safeParse(req.inputUtxos);
  if (!utxos.success)
    throw invalid('The coins (UTxOs) to deposit from are not in the expected form.');
  const action = 'build the deposit';
  const path = '/accounts/deposit/build';
  const reply = await api.http.request({
    method: 'POST',
    path,
    body: JSON.stringify({ deposit_amount, input_utxos: utxos.data }),
    kind: 'build',
    action,
    headers: api.auth(action, `POST ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeTxHex(reply.body, { endpoint: reply.endpoint, action });
};

const submitSigned = async (
  api: ApiContext,
  path: string,
  action: string,
  signedTx: string,
  signal?: AbortSignal,
): Promise<{ txHash: string }> => {
  const reply = await api.http.request({
    method: 'POST',
    path,
    body: JSON.stringify({ signed_tx: signedTxText(signedTx) }),
    kind: 'submit',
    action,
    headers: api.auth(action, `POST ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeTxHash(reply.body, { endpoint: reply.endpoint, action, ambiguous: true });
};

export const submitDeposit = (api: ApiContext, signedTx: string, signal?: AbortSignal) =>
  submitSigned(api, '/accounts/deposit/submit', 'submit the deposit', signedTx, signal);

export const buildWithdrawal = async (
  api: ApiContext,
  req: { amounts: readonly UnitAmount[] },
  signal?: AbortSignal,
): Promise<{ txHex: string }> => {
  const withdrawal_amount = checkedAmounts(req.amounts);
  const action = 'build the withdrawal';
  const path = '/accounts/withdrawal/build';
  const reply = await api.http.request({
    method: 'POST',
    path,
    body: JSON.stringify({ withdrawal_amount }),
    kind: 'build',
    action,
    headers: api.auth(action, `POST ${path}`),
    ...(signal ? { signal } : {}),
  });
  return decodeTxHex(reply.body, { endpoint: reply.endpoint, action });
};

export const submitWithdrawal = (api: ApiContext, signedTx: string, signal?: AbortSignal) =>
  submitSigned(api, '/accounts/withdrawal/submit', 'submit the withdrawal', signedTx, signal);
