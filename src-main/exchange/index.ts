/** The exchange area: the embedded sandbox's process and, for now, its account opening. */
export {
  startEmbeddedSandbox,
  type EmbeddedSandbox,
  type EmbeddedSandboxOptions,
  type SandboxCommand,
} from './embedded-sandbox';
export { openSandboxAccount, type SandboxAccount } from './sandbox-accounts';
export { rememberSandboxAdminToken, sandboxAdminHeaders } from './sandbox-admin';
