import type { NetworkName } from '../../../../src-shared/network';

/**
 * Whether orders may go through without the confirmation dialog: the trader's setting, and only
 * on the practice exchange. Off it, where coins are real or the exchange is not ours, every
 * order is shown before it is signed. The intent check runs in every case.
 */
export const mayPlaceOrdersWithoutDialog = (
  setting: boolean | undefined,
  network: NetworkName | null,
): boolean => setting === true && network === 'sandbox';
