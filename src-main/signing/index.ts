/** The signing area: decode for display, intent checks, byte-preserving witnesses, the signer. */
export * from './decode';
export * from './intent';
export * from './signer';
export * from './transaction-bytes';
export * from './order-datum';
