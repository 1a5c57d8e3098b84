const ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

const MAX_NOTES = 5_000;

const character = (codePoint: number): string =>
  Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff
    ? String.fromCodePoint(codePoint)
    : ' ';

/**
 * Release notes as plain text for the trader. GitHub hands them over as HTML; they are shown as
 * text, never rendered, so tags are reduced to line breaks and dropped.
 */
export const plainReleaseNotes = (
  notes: string | ReadonlyArray<{ version: string; note: string | null }> | null | undefined,
): string | null => {
  if (notes == null) return null;
  const html =
    typeof notes === 'string' ? notes : notes.map((entry) => entry.note ?? '').join('\n');
  const text = html
    .replace(/<\s*(br|\/p|\/li|\/h\d|\/div)\s*\/?>/gi, '\n')
    .replace(/<\s*li[^>]*>/gi, '• ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#\d+|#x[0-9a-f]+|[a-z]+);/gi, (whole, entity: string) => {
      if (/^#x/i.test(entity)) return character(Number.parseInt(entity.slice(2), 16));
      if (entity.startsWith('#')) return character(Number(entity.slice(1)));
      return ENTITIES[entity.toLowerCase()] ?? whole;
    })
    // eslint-disable-next-line no-control-regex -- control characters have no place in notes
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  if (!text) return null;
  return text.length > MAX_NOTES ? `${text.slice(0, MAX_NOTES)}…` : text;
};
