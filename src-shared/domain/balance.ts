import { z } from 'zod';
import { Amount } from './amount';

/** What the trader holds on the exchange in one asset (seed 2.3), in human units. */
export const Balance = z.object({
  /** The asset's name as traders read it (`ADA`, `USDM`). */
  asset: z.string(),
  /** The on-chain unit (`lovelace` for ADA, else policy id + asset name hex). */
  unit: z.string(),
  free: Amount,
  locked: Amount,
});
export type Balance = z.output<typeof Balance>;
