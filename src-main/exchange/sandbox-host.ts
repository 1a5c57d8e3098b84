import { runSandboxHost } from './sandbox-host-run';

/** Entry of Electron's utility process for the embedded sandbox (see sandbox-host-run.ts). */
runSandboxHost(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(
    `sandbox host: ${error instanceof Error ? error.message : 'the sandbox program did not load'}\n`,
  );
  process.exit(2);
});
