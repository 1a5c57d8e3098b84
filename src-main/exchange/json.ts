/**
 * JSON as the exchange sends it, read without losing a digit. `JSON.parse` turns every number
 * into a float: `12345678901234567.89` silently becomes `12345678901234568`, and `1e400` becomes
 * Infinity. Here a number written with more significant digits than a float always holds (15),
 * or with an exponent, is kept as its text: a decimal field then reads it exactly (an exponent
 * included) or refuses it by name, and no field gets a rounded value.
 */

/**
 * Quick test: could the text hold such a number at all? A number starts the text or follows `:`,
 * `,` or `[`; one with 16 digits or an exponent is looked at closely. (Most answers have none,
 * and their ids, like `…8e-6c3b…`, must not send every page down the slow path.) A string that
 * happens to look so only costs the close look.
 */
const MAYBE_INEXACT = /(?:^|[:,[])\s*-?(?:[\d.]{16}|[\d.]+[eE])/;

/** A JSON string, or a JSON number (only these two, in a text already known to be JSON). */
const TOKEN = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** At most this many significant digits survive a float exactly, whatever they are. */
const FLOAT_DIGITS = 15;

/** Longer than any plain amount or time: past float range it would be Infinity or 0. */
const MAX_LITERAL = 30;

/** A JSON number literal that a float would not hold as written. */
const isInexact = (literal: string): boolean => {
  if (literal.length > MAX_LITERAL || /[eE]/.test(literal)) return true;
  const digits = literal.replace(/[-.]/g, '').replace(/^0+/, '').replace(/0+$/, '');
  return digits.length > FLOAT_DIGITS;
};

/** Parses JSON text (throws SyntaxError as `JSON.parse` does); inexact numbers stay text. */
export const parseJsonExact = (text: string): unknown => {
  // Parsed as it is first: a text that is not JSON fails here, never after the rewriting.
  const plain = JSON.parse(text) as unknown;
  if (!MAYBE_INEXACT.test(text)) return plain;
  let changed = false;
  const exact = text.replace(TOKEN, (token) => {
    if (token.startsWith('"') || !isInexact(token)) return token;
    changed = true;
    return `"${token}"`;
  });
  return changed ? (JSON.parse(exact) as unknown) : plain;
};
