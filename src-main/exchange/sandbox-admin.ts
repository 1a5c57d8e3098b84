/**
 * The embedded sandbox's per-run admin token, by the sandbox's origin. The sandbox prints it
 * when it starts (`startEmbeddedSandbox` records it here) and refuses every `/sandbox/*` request
 * without it, so that no web page and no other program on this computer can reset it, take
 * accounts or mint coins. It lives only in this process's memory.
 */
const tokens = new Map<string, string>();

export const SANDBOX_TOKEN_HEADER = 'x-sandbox-token';

export const rememberSandboxAdminToken = (sandboxUrl: string, adminToken: string): void => {
  tokens.set(new URL(sandboxUrl).origin, adminToken);
};

/** The header that opens the sandbox's admin routes at this URL, if its token is known. */
export const sandboxAdminHeaders = (url: string | URL): Record<string, string> => {
  const token = tokens.get(new URL(url).origin);
  return token === undefined ? {} : { [SANDBOX_TOKEN_HEADER]: token };
};
