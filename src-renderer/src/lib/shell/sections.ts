/** The four places a trader moves between. */
export const SECTIONS = [
  { id: 'trade', label: 'Trade', hint: 'Order book and order entry' },
  { id: 'orders', label: 'Orders', hint: 'Open orders, history and fills' },
  { id: 'funds', label: 'Funds', hint: 'Balances, deposits and withdrawals' },
  { id: 'settings', label: 'Settings', hint: 'Network, security and appearance' },
] as const;

export type SectionId = (typeof SECTIONS)[number]['id'];

export const isSectionId = (value: string): value is SectionId =>
  SECTIONS.some((section) => section.id === value);
