/** JSON schemas of request bodies and queries; a mismatch answers 4000. */

const amountEntry = {
  type: 'object',
  required: ['unit', 'quantity'],
  additionalProperties: false,
  properties: { unit: { type: 'string' }, quantity: { type: 'string' } },
} as const;

export const amountList = { type: 'array', minItems: 1, maxItems: 10, items: amountEntry } as const;

const nullableString = { type: ['string', 'null'] } as const;

export const inputUtxoSchema = {
  type: 'object',
  required: ['input', 'output'],
  additionalProperties: false,
  properties: {
    input: {
      type: 'object',
      required: ['tx_hash', 'output_index'],
      additionalProperties: false,
      properties: {
        tx_hash: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
        output_index: { type: 'integer', minimum: 0 },
      },
    },
    output: {
      type: 'object',
      required: ['address', 'amount'],
      additionalProperties: false,
      properties: {
        address: { type: 'string' },
        amount: { type: 'array', items: amountEntry },
        data_hash: nullableString,
        plutus_data: nullableString,
        script_ref: nullableString,
        script_hash: nullableString,
      },
    },
  },
} as const;

export const orderBuildBody = {
  type: 'object',
  required: ['symbol', 'side', 'type', 'quantity'],
  additionalProperties: false,
  properties: {
    symbol: { type: 'string' },
    side: { type: 'string', enum: ['buy', 'sell'] },
    type: { type: 'string', enum: ['limit', 'market'] },
    quantity: { type: 'number' },
    price: { type: 'number' },
    limit_slippage: { type: 'boolean' },
    max_slippage_basis_point: { type: 'integer' },
    post_only: { type: 'boolean' },
  },
} as const;

export const signedTxBody = {
  type: 'object',
  required: ['signed_tx'],
  additionalProperties: false,
  properties: { signed_tx: { type: 'string', minLength: 1 } },
} as const;

export const orderSubmitBody = {
  type: 'object',
  required: ['order_id', 'signed_tx'],
  additionalProperties: false,
  properties: { order_id: { type: 'string' }, signed_tx: { type: 'string', minLength: 1 } },
} as const;

export const symbolQuery = {
  type: 'object',
  required: ['symbol'],
  properties: { symbol: { type: 'string' } },
} as const;
