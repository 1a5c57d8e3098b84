/** The real service's error codes (reference/real-service.md), one name per code. */
export const ErrorCode = {
  invalidRequest: 4000,
  unauthorized: 4010,
  /** Sandbox only: a request from a web page, or addressed to another host (HTTP 403). */
  forbidden: 4030,
  insufficientBalance: 4050,
  belowMinimumSize: 4100,
  priceNotPositive: 4101,
  priceTooPrecise: 4102,
  quantityTooPrecise: 4103,
  postOnlyWouldMatch: 4104,
  postOnlyLimitOnly: 4105,
  invalidSymbol: 4106,
  quantityNotPositive: 4107,
  slippageOutOfRange: 4108,
  insufficientLiquidity: 4109,
  tooManyOpenOrders: 4110,
  priceAboveBand: 4111,
  priceBelowBand: 4112,
  orderNotFound: 4200,
  orderNotOpen: 4201,
  orderStateInvalid: 4202,
  rateLimited: 4290,
  transactionExpired: 4300,
  utxoSpent: 4301,
  alreadySubmitted: 4302,
  userNotFound: 4400,
  transactionNotFound: 4402,
  invalidStatus: 4404,
  noOperationKey: 4406,
  signatureInvalid: 4407,
  internal: 5000,
  unavailable: 5001,
  tradingLocked: 5002,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

/** A refusal the trader can act on: sent as `{"error": message, "code": code}`. */
export class SandboxError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    message: string,
    readonly httpStatus = statusFor(code),
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

function statusFor(code: ErrorCodeValue): number {
  if (code === ErrorCode.unauthorized) return 401;
  if (code === ErrorCode.rateLimited) return 429;
  if (code === ErrorCode.internal) return 500;
  if (code === ErrorCode.unavailable || code === ErrorCode.tradingLocked) return 503;
  return 400;
}
