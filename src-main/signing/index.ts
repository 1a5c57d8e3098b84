/** The signing area: decode for display, intent checks, byte-preserving witnesses, the signer. */
export * from './decode';
export * from './intent';
export * from './intent-datum';
export * from './key-source';
export * from './plutus-data';
export * from './profile';
export * from './signer';
export * from './transaction-bytes';
export * from './text-envelope';
