import { Cardano } from '@cardano-sdk/core';
import * as Crypto from '@cardano-sdk/crypto';
import { HexBlob } from '@cardano-sdk/util';
import { ErrorCode, SandboxError } from './errors.js';

function scriptHash(label: string): Crypto.Hash28ByteBase16 {
  return Crypto.blake2b.hash(HexBlob(Buffer.from(label, 'utf8').toString('hex')), 28);
}

function scriptAddress(hash: Crypto.Hash28ByteBase16): string {
  return Cardano.EnterpriseAddress.fromCredentials(Cardano.NetworkId.Testnet, {
    type: Cardano.CredentialType.ScriptHash,
    hash,
  })
    .toAddress()
    .toBech32();
}

/**
 * The user-intent script: one script that is both the minting policy of the intent token (one
 * token with an empty name per intent) and the spending validator of the user-intent address
 * where intents wait for the exchange, so the policy id is the address's script hash.
 */
export const INTENT_POLICY_ID: string = scriptHash('countersign-sandbox:user-intent');
/** The intent token's unit (policy id + empty name). */
export const INTENT_TOKEN = INTENT_POLICY_ID;

/** The exchange's own addresses on the sandbox testnet (script addresses, network id 0). */
export const EXCHANGE_ADDRESSES = {
  intent: scriptAddress(scriptHash('countersign-sandbox:user-intent')),
  deposit: scriptAddress(scriptHash('countersign-sandbox:deposit')),
  treasury: scriptAddress(scriptHash('countersign-sandbox:treasury')),
} as const;

const ACCOUNT_SCRIPT_HASH = scriptHash('countersign-sandbox:account');

export interface WalletAddress {
  bech32: string;
  /** Payment key hash: the wallet (master) key that signs deposits and withdrawals. */
  paymentKeyHash: string;
  /** The account's exchange-side address: the account script, staked to the wallet. */
  exchangeAddress: string;
}

/** Parses a testnet key-payment wallet address, or refuses it with 4000. */
export function parseWalletAddress(bech32: string): WalletAddress {
  let address: Cardano.Address;
  try {
    address = Cardano.Address.fromBech32(bech32);
  } catch {
    throw new SandboxError(ErrorCode.invalidRequest, 'address is not a bech32 Cardano address');
  }
  if (address.getNetworkId() !== Cardano.NetworkId.Testnet) {
    throw new SandboxError(ErrorCode.invalidRequest, 'address is not a testnet address');
  }
  const base = address.asBase();
  const enterprise = address.asEnterprise();
  const payment = base?.getPaymentCredential() ?? enterprise?.getPaymentCredential();
  if (!payment || payment.type !== Cardano.CredentialType.KeyHash) {
    throw new SandboxError(
      ErrorCode.invalidRequest,
      'address must be a base or enterprise address with a key payment credential',
    );
  }
  const stake = base?.getStakeCredential() ?? payment;
  const exchangeAddress = Cardano.BaseAddress.fromCredentials(
    Cardano.NetworkId.Testnet,
    { type: Cardano.CredentialType.ScriptHash, hash: ACCOUNT_SCRIPT_HASH },
    stake,
  )
    .toAddress()
    .toBech32();
  return { bech32, paymentKeyHash: payment.hash, exchangeAddress };
}

export function isTestnetAddress(bech32: string): boolean {
  try {
    return Cardano.Address.fromBech32(bech32).getNetworkId() === Cardano.NetworkId.Testnet;
  } catch {
    return false;
  }
}
