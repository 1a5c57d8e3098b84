/** The app's self-update: the service behind the contract's `updates` area. */
export { InFlight, REVIEW_HOLD_MS } from './in-flight';
export { updatesHandlers } from './handlers';
export {
  CHECK_EVERY_MS,
  FIRST_CHECK_AFTER_MS,
  UpdateService,
  type UpdateEngine,
  type UpdateOffer,
  type UpdateServiceDeps,
  type UpdateSource,
} from './service';
