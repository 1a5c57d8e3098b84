export type ThemePreference = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

const STORAGE_KEY = 'countersign.theme';

const isPreference = (value: unknown): value is ThemePreference =>
  value === 'system' || value === 'light' || value === 'dark';

/**
 * The colour theme: the user's preference (remembered on this machine) and what it resolves to
 * given the system's. Applying it sets `data-theme` on <html>, which switches the tokens.
 */
export class Theme {
  preference = $state<ThemePreference>('system');
  systemPrefersDark = $state(true);
  readonly resolved: ResolvedTheme = $derived(
    this.preference === 'system' ? (this.systemPrefersDark ? 'dark' : 'light') : this.preference,
  );

  constructor(
    private readonly storage: Pick<
      Storage,
      'getItem' | 'setItem'
    > | null = globalThis.localStorage ?? null,
    media: MediaQueryList | null = globalThis.matchMedia?.('(prefers-color-scheme: dark)') ?? null,
  ) {
    const saved = this.storage?.getItem(STORAGE_KEY);
    if (isPreference(saved)) this.preference = saved;
    if (media) {
      this.systemPrefersDark = media.matches;
      media.addEventListener('change', (event) => {
        this.systemPrefersDark = event.matches;
      });
    }
  }

  set(preference: ThemePreference): void {
    this.preference = preference;
    this.storage?.setItem(STORAGE_KEY, preference);
  }

  apply(root: HTMLElement = document.documentElement): void {
    root.dataset['theme'] = this.resolved;
  }
}
