import { wordlists } from 'bip39';

/**
 * The app's log. Messages are for developers; secrets must never reach it, so the message and
 * every detail pass through `redact` before they are written: by field name (a `password`,
 * `apiKey`, `mnemonic`… is never written) and by content (anything shaped like a recovery phrase,
 * a private key or an API key is cut out of any text, wherever it hides).
 */
export interface Logger {
  info(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  error(message: string, detail?: unknown): void;
}

const SECRET_KEYS =
  /(password|passphrase|mnemonic|phrase|words|secret|private|xprv|seed|api[-_]?key|token|signing[-_]?key|entropy)/i;

export const REDACTED = '[redacted]';

const BIP39_WORDS: ReadonlySet<string> = new Set(wordlists['english'] ?? []);
/** The shortest recovery phrase is 12 words; a run that long of list words is never prose. */
const PHRASE_MIN_WORDS = 12;
/** What may stand between two words of a written-out phrase: spaces, commas, quotes, numbering. */
const PHRASE_GAP = /^[\s,;:."'`[\](){}\d-]{1,8}$/;

/** Cuts out every run of 12 or more BIP-39 words in a row (a recovery phrase, whole or part). */
const redactPhrases = (text: string): string => {
  const cuts: Array<[number, number]> = [];
  let runStart = -1;
  let runEnd = -1;
  let runLength = 0;
  const closeRun = () => {
    if (runLength >= PHRASE_MIN_WORDS) cuts.push([runStart, runEnd]);
    runLength = 0;
  };
  for (const match of text.matchAll(/[A-Za-z]+/g)) {
    const start = match.index;
    const end = start + match[0].length;
    if (!BIP39_WORDS.has(match[0].toLowerCase())) {
      closeRun();
      continue;
    }
    if (runLength > 0 && PHRASE_GAP.test(text.slice(runEnd, start))) {
      runEnd = end;
      runLength++;
    } else {
      closeRun();
      runStart = start;
      runEnd = end;
      runLength = 1;
    }
  }
  closeRun();
  let out = text;
  for (const [start, end] of cuts.reverse()) {
    out = `${out.slice(0, start)}[redacted recovery phrase]${out.slice(end)}`;
  }
  return out;
};

const BECH32 = '[02-9ac-hj-np-z]';
const SECRET_PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // Bech32 private keys: ed25519_sk1…, ed25519e_sk1…, root_xsk1…, acct_xsk1…, addr_xsk1…
  [new RegExp(`\\b[a-z0-9_]*(?:_sk|_xsk|_esk|xprv|xsk)1${BECH32}{20,}`, 'gi'), '[redacted key]'],
  // BIP-32 extended private keys in base58.
  [/\b[xt]prv[1-9A-HJ-NP-Za-km-z]{60,}/g, '[redacted key]'],
];

/** 64 or 128 hex characters soon after a word that says "key": a raw private key or seed. */
const KEYISH_HEX =
  /(key|secret|private|priv|seed|entropy|xprv|skey|signing)([^\n]{0,30}?)(?<![0-9a-fA-F])([0-9a-fA-F]{128}|[0-9a-fA-F]{64})(?![0-9a-fA-F])/gi;

/** 32 hex characters on their own: the shape of an exchange API key. */
const API_KEY_HEX = /(?<![0-9a-fA-F])[0-9a-fA-F]{32}(?![0-9a-fA-F])/g;

/** Cuts anything shaped like a secret out of a text. */
export const redactText = (text: string): string => {
  let out = redactPhrases(text);
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  out = out.replace(KEYISH_HEX, (_all, word: string, gap: string) => `${word}${gap}[redacted key]`);
  return out.replace(API_KEY_HEX, '[redacted api key]');
};

/** Replaces secret-looking fields and text, recursively, before anything is logged. */
export const redact = (value: unknown, depth = 0): unknown => {
  if (depth > 6) return '[…]';
  if (typeof value === 'string') return redactText(value);
  if (value instanceof Error) {
    return {
      name: value.name,
      message: redactText(value.message),
      stack: value.stack === undefined ? undefined : redactText(value.stack),
      ...(value.cause === undefined ? {} : { cause: redact(value.cause, depth + 1) }),
    };
  }
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (Array.isArray(value)) {
    // A phrase kept as a list of words: each word alone looks harmless.
    const words = value.filter((v): v is string => typeof v === 'string').join(' ');
    if (words && redactPhrases(words) !== words) return REDACTED;
    return value.map((v) => redact(v, depth + 1));
  }
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        SECRET_KEYS.test(k) ? REDACTED : redact(v, depth + 1),
      ]),
    );
  }
  return value;
};

const write =
  (out: (...args: unknown[]) => void, prefix: string) => (message: string, detail?: unknown) =>
    out(`[${prefix}] ${redactText(message)}`, ...(detail === undefined ? [] : [redact(detail)]));

export const consoleLogger = (prefix = 'countersign'): Logger => ({
  info: write((...args) => console.info(...args), prefix),
  warn: write((...args) => console.warn(...args), prefix),
  error: write((...args) => console.error(...args), prefix),
});

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
