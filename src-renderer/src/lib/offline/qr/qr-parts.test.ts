import jsQR from 'jsqr';
import { correction, generate } from 'lean-qr';
import { describe, expect, it } from 'vitest';
import { crc32, HEX_PER_CODE, QrAssembler, qrPartsOf } from './qr-parts';

const envelopeOf = (type: string, cborHex: string) =>
  `${JSON.stringify({ type, description: '', cborHex }, null, 4)}\n`;
/** Bytes as hex that look like nothing in particular (a transaction's worth). */
const bytes = (count: number, seed = 7) =>
  Array.from({ length: count }, (_, i) =>
    ((i * 131 + seed * 17) % 256).toString(16).padStart(2, '0'),
  ).join('');

/** What a camera reads from a code drawn as the app draws it: the code made, then decoded. */
const throughCamera = (text: string): string => {
  const code = generate(text, { minCorrectionLevel: correction.M });
  const scale = 3;
  const pad = 4;
  const side = (code.size + pad * 2) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      const on = code.get(Math.floor(x / scale) - pad, Math.floor(y / scale) - pad);
      const i = (y * side + x) * 4;
      pixels.fill(on ? 0 : 255, i, i + 3);
      pixels[i + 3] = 255;
    }
  }
  const read = jsQR(pixels, side, side, { inversionAttempts: 'dontInvert' });
  if (!read) throw new Error('the code could not be read back');
  return read.data;
};

describe('a transaction carried as QR codes', () => {
  const tx = bytes(700);
  const envelope = envelopeOf('Tx ConwayEra', tx);

  it('is split into codes a camera reads back, and reassembled in any order into the same envelope', () => {
    const parts = qrPartsOf(envelope);
    expect(parts).toHaveLength(Math.ceil(tx.length / HEX_PER_CODE));
    // Only characters of the QR alphanumeric mode (the dense one).
    for (const part of parts) expect(part).toMatch(/^[0-9A-Z $%*+\-./:]+$/);
    const assembler = new QrAssembler(['TX'], 'Show the transaction’s codes.');
    const order = [2, 0, 2, 3, 1, 0, 3];
    let last;
    for (const k of order) last = assembler.add(throughCamera(parts[k] ?? ''));
    expect(last).toEqual({ state: 'complete', kind: 'TX', envelope: expect.any(String) });
    const read = JSON.parse(last?.state === 'complete' ? last.envelope : '{}');
    expect(read).toEqual({ type: 'Tx ConwayEra', description: 'Ledger Cddl Format', cborHex: tx });
  });

  it('tells how many codes are read so far, counting each once', () => {
    const parts = qrPartsOf(envelope);
    const assembler = new QrAssembler(['TX'], '');
    expect(assembler.add(parts[1] ?? '')).toEqual({
      state: 'reading',
      kind: 'TX',
      read: 1,
      parts: 4,
    });
    expect(assembler.add(parts[1] ?? '')).toEqual({
      state: 'reading',
      kind: 'TX',
      read: 1,
      parts: 4,
    });
    expect(assembler.add(parts[3] ?? '')).toEqual({
      state: 'reading',
      kind: 'TX',
      read: 2,
      parts: 4,
    });
  });

  it('a key witness fits in one code', () => {
    const witness = envelopeOf(
      'TxWitness ConwayEra',
      `82008258 20${bytes(32)}5840${bytes(64, 3)}`.replace(' ', ''),
    );
    const parts = qrPartsOf(witness);
    expect(parts).toHaveLength(1);
    const scan = new QrAssembler(['WIT', 'TX'], '').add(throughCamera(parts[0] ?? ''));
    expect(scan.state).toBe('complete');
    expect(JSON.parse(scan.state === 'complete' ? scan.envelope : '{}')).toMatchObject({
      type: 'TxWitness ConwayEra',
    });
  });

  it('starts over when the codes of another transaction come into view', () => {
    const first = qrPartsOf(envelope);
    const other = qrPartsOf(envelopeOf('Tx ConwayEra', bytes(700, 9)));
    const assembler = new QrAssembler(['TX'], '');
    assembler.add(first[0] ?? '');
    assembler.add(first[1] ?? '');
    expect(assembler.add(other[2] ?? '')).toMatchObject({ state: 'reading', read: 1 });
    for (const part of other) assembler.add(part);
    const done = assembler.add(other[0] ?? '');
    expect(done.state).toBe('complete');
    expect(done.state === 'complete' && JSON.parse(done.envelope).cborHex).toBe(bytes(700, 9));
  });

  it('says in words what a code from elsewhere is, and keeps what was read', () => {
    const parts = qrPartsOf(envelope);
    const assembler = new QrAssembler(['WIT'], 'Show the signature’s code.');
    expect(assembler.add('https://example.com/')).toEqual({
      state: 'foreign',
      message: 'That QR code is not a Countersign transaction code. Show the signature’s code.',
    });
    expect(assembler.add(parts[0] ?? '')).toEqual({
      state: 'foreign',
      message:
        'That QR code carries a transaction, not what is needed here. Show the signature’s code.',
    });
    const txAssembler = new QrAssembler(['TX'], 'Again.');
    txAssembler.add(parts[0] ?? '');
    expect(txAssembler.add('CS1:TX:5/4:00000000:AB').state).toBe('foreign');
    expect(txAssembler.add(parts[1] ?? '')).toMatchObject({ state: 'reading', read: 2 });
  });

  it('refuses codes that do not add up to the transaction they claim', () => {
    const parts = qrPartsOf(envelope);
    const tampered = parts.map((p, k) =>
      k === 2 ? p.replace(/.{2}$/, p.endsWith('00') ? '11' : '00') : p,
    );
    const assembler = new QrAssembler(['TX'], 'Show them again.');
    let last;
    for (const part of tampered) last = assembler.add(part);
    expect(last).toEqual({
      state: 'foreign',
      message:
        'The codes read do not add up to one transaction; scanning starts over. Show them again.',
    });
    for (const part of parts) last = assembler.add(part);
    expect(last?.state).toBe('complete');
  });

  it('only carries transactions and witnesses', () => {
    expect(() => qrPartsOf(envelopeOf('PaymentSigningKeyShelley_ed25519', bytes(34)))).toThrow(
      /Only a transaction or a key witness/,
    );
    expect(crc32('123456789')).toBe('CBF43926');
  });
});
