export type ThemePreference = 'system' | 'light' | 'dark';
export type ResolvedTheme = 'light' | 'dark';

const STORAGE_KEY = 'countersign.theme';

const isPreference = (value: unknown): value is ThemePreference =>
  value === 'system' || value === 'light' || value === 'dark';

/**
 * The colour theme: the trader's preference and what it resolves to given the system's. The
 * preference is kept by main with the other settings (`fromSettings`, the truth once read); a copy
 * on this machine paints the first frame in the right colours before main has answered. Applying
 * it sets `data-theme` on <html>, which switches the tokens.
 */
export class Theme {
  local = $state<ThemePreference>('system');
  systemPrefersDark = $state(true);
  readonly preference: ThemePreference = $derived.by(() => this.fromSettings() ?? this.local);
  readonly resolved: ResolvedTheme = $derived(
    this.preference === 'system' ? (this.systemPrefersDark ? 'dark' : 'light') : this.preference,
  );

  constructor(
    private readonly storage: Pick<
      Storage,
      'getItem' | 'setItem'
    > | null = globalThis.localStorage ?? null,
    media: MediaQueryList | null = globalThis.matchMedia?.('(prefers-color-scheme: dark)') ?? null,
    private readonly fromSettings: () => ThemePreference | null = () => null,
  ) {
    const saved = this.storage?.getItem(STORAGE_KEY);
    if (isPreference(saved)) this.local = saved;
    if (media) {
      this.systemPrefersDark = media.matches;
      media.addEventListener('change', (event) => {
        this.systemPrefersDark = event.matches;
      });
    }
  }

  set(preference: ThemePreference): void {
    this.local = preference;
    this.storage?.setItem(STORAGE_KEY, preference);
  }

  apply(root: HTMLElement = document.documentElement): void {
    root.dataset['theme'] = this.resolved;
    if (this.storage?.getItem(STORAGE_KEY) !== this.preference) {
      this.storage?.setItem(STORAGE_KEY, this.preference);
    }
  }
}
