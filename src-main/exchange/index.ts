/** The exchange area: the embedded sandbox's process and, for now, its account opening. */
export {
  Announcement,
  nodeChildLauncher,
  startEmbeddedSandbox,
  type EmbeddedSandbox,
  type EmbeddedSandboxOptions,
  type SandboxChild,
  type SandboxCommand,
  type SandboxLauncher,
  type SandboxProgram,
} from './sandbox-process';
export {
  SANDBOX_SERVICE_NAME,
  utilityProcessLauncher,
  type UtilityProcessApi,
  type UtilityProcessChild,
  type UtilityProcessPaths,
} from './sandbox-utility';
export { openSandboxAccount, type SandboxAccount } from './sandbox-accounts';
