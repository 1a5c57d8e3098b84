/** The wallet area: recovery phrases, derivation, vault, keychain, and the keys they open. */
export * from './derivation';
export * from './keychain';
export * from './mnemonic';
export * from './operation-key';
export * from './password-rules';
export * from './secret-store';
export * from './session-settings';
export * from './signing-key';
export * from './unlock-attempts';
export * from './vault';
export * from './wallet-book';
export * from './wallet-secrets';
