import { render } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import Amounts from './Amounts.svelte';

const POLICY = '6937a2afd3d01c4b3f6b7e460324a0c6945f3edbeeb93baebf44297a';

describe('Amounts', () => {
  it('names a known asset after its amount (grouped), and an unknown one as a token with its whole id', () => {
    const { container } = render(Amounts, {
      list: [
        { unit: 'lovelace', name: 'ADA', quantity: '20000000000', amount: '20000' },
        { unit: `${POLICY}4e4654`, name: `${POLICY}.NFT`, quantity: '1', amount: '1' },
      ],
    });
    const lines = [...container.querySelectorAll('.amount')];
    expect(lines.map((line) => line.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
      '20,000 ADA',
      `1 token ${POLICY}.NFT`,
    ]);
    // The id is never shortened: it is how the trader tells one token from a lookalike.
    expect(lines[1]?.querySelector('.asset-id')?.textContent).toBe(`${POLICY}.NFT`);
    expect(lines[0]?.querySelector('.asset-id')).toBeNull();
  });

  it('says when there is nothing', () => {
    const { container } = render(Amounts, { list: [], empty: 'nothing' });
    expect(container.textContent?.trim()).toBe('nothing');
  });
});
