import { isSectionId, type SectionId } from './sections';

/**
 * Which section is on screen. It follows the URL fragment (#/orders), so the back button and a
 * reload keep the trader where they were, without ever navigating the page itself.
 */
export class Navigation {
  current = $state<SectionId>('trade');

  constructor(
    private readonly location: Pick<Location, 'hash'> | null = globalThis.location ?? null,
  ) {
    this.syncFromLocation();
  }

  syncFromLocation(): void {
    const id = this.location?.hash.replace(/^#\/?/, '') ?? '';
    if (isSectionId(id)) this.current = id;
  }

  go(id: SectionId): void {
    this.current = id;
    if (this.location) this.location.hash = `/${id}`;
  }
}
