import type {
  Api,
  NewRecoveryPhrase,
  WalletBalance,
  WalletSummary,
} from '../../../../src-shared/contract';
import type { NetworkName } from '../../../../src-shared/network';
import { passwordWeakness } from '../../../../src-shared/password';
import { messageOf, unwrap } from '../api';

export type OnboardingStep =
  | 'welcome'
  | 'create'
  | 'phrase'
  | 'confirm'
  | 'restore'
  | 'watch'
  | 'finishing'
  | 'api-key'
  | 'ready';

export type Path = 'create' | 'restore' | 'watch';

/** One thing done after the wallet is saved, shown as a checklist while it runs. */
export interface FinishTask {
  id: 'join' | 'unlock' | 'balance';
  label: string;
  state: 'waiting' | 'running' | 'done' | 'failed';
}

export const RESTORABLE_WORD_COUNTS = [12, 15, 24] as const;

/** The words of a typed recovery phrase: lower case, any spacing or numbering removed. */
export const splitPhrase = (text: string): string[] =>
  text
    .toLowerCase()
    .replace(/\d+[.)]/g, ' ')
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0);

/**
 * A new trader's way in: create a wallet (24 words shown once, three re-typed), restore one from
 * its phrase, or add a watch-only one from its account public key. Then, on the sandbox, the
 * wallet joins the practice exchange and the session is unlocked, with no further step; on a real
 * exchange the trader adds the API key. Main holds every secret; the spending password stays here
 * only until the last step needs it.
 */
export class Onboarding {
  step = $state<OnboardingStep>('welcome');
  path = $state<Path>('create');
  /** Started from Settings ("Add a wallet") rather than on a first start. */
  adding = $state(false);
  busy = $state(false);
  error = $state<string | null>(null);

  name = $state('');
  password = $state('');
  repeat = $state('');
  phrase = $state<NewRecoveryPhrase | null>(null);
  confirmWords = $state<Record<number, string>>({});
  restoreText = $state('');
  accountKey = $state('');
  apiKey = $state('');

  wallet = $state<WalletSummary | null>(null);
  tasks = $state<FinishTask[]>([]);
  balance = $state<WalletBalance | null>(null);
  /** A step after saving failed; the wallet is saved and the trader can retry or go on. */
  finishError = $state<string | null>(null);

  readonly passwordProblem: string | null = $derived(
    this.password.length === 0 ? null : passwordWeakness(this.password),
  );
  readonly repeatProblem: string | null = $derived(
    this.repeat.length > 0 && this.repeat !== this.password
      ? 'The two passwords are not the same.'
      : null,
  );
  readonly restoreWords: string[] = $derived(splitPhrase(this.restoreText));
  readonly restoreProblem: string | null = $derived.by(() => {
    const count = this.restoreWords.length;
    if (count === 0) return null;
    if ((RESTORABLE_WORD_COUNTS as readonly number[]).includes(count)) return null;
    return `A recovery phrase has 12, 15 or 24 words; you have typed ${count}.`;
  });

  constructor(
    private readonly api: Api,
    private readonly network: () => NetworkName | null,
  ) {}

  private credentialsProblem(): string | null {
    if (this.name.trim().length === 0) return 'Give the wallet a name, such as "Main".';
    if (this.password.length === 0) return 'Choose a spending password.';
    if (this.passwordProblem) return this.passwordProblem;
    if (this.repeat !== this.password) return 'Type the same password twice.';
    return null;
  }

  choose(path: Path): void {
    this.path = path;
    this.error = null;
    this.step = path;
    if (!this.name) this.name = path === 'watch' ? 'Watch-only' : 'Main';
  }

  back(): void {
    this.error = null;
    this.step = 'welcome';
  }

  private async attempt(work: () => Promise<void>): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      await work();
    } catch (error) {
      this.error = messageOf(error);
    } finally {
      this.busy = false;
    }
  }

  async submitCreate(): Promise<void> {
    const problem = this.credentialsProblem();
    if (problem) {
      this.error = problem;
      return;
    }
    await this.attempt(async () => {
      this.phrase = await unwrap(
        this.api.wallet.create({ name: this.name.trim(), password: this.password }),
      );
      this.confirmWords = {};
      this.step = 'phrase';
    });
  }

  /** The trader has written the words down: they leave the screen for good. */
  phraseWritten(): void {
    this.step = 'confirm';
    this.error = null;
  }

  async submitConfirm(): Promise<void> {
    const phrase = this.phrase;
    if (!phrase) return;
    const missing = phrase.confirmPositions.find((p) => !this.confirmWords[p]?.trim());
    if (missing !== undefined) {
      this.error = `Type word ${missing} from your written copy.`;
      return;
    }
    await this.attempt(async () => {
      const wallet = await unwrap(
        this.api.wallet.confirmCreate({
          creationId: phrase.creationId,
          words: phrase.confirmPositions.map((position) => ({
            position,
            word: (this.confirmWords[position] ?? '').trim().toLowerCase(),
          })),
        }),
      );
      this.phrase = null;
      await this.saved(wallet);
    });
  }

  async submitRestore(): Promise<void> {
    const problem = this.credentialsProblem() ?? this.restoreProblem;
    if (problem || this.restoreWords.length === 0) {
      this.error = problem ?? 'Type the words of your recovery phrase, in order.';
      return;
    }
    await this.attempt(async () => {
      const wallet = await unwrap(
        this.api.wallet.restore({
          name: this.name.trim(),
          words: this.restoreWords,
          password: this.password,
        }),
      );
      this.restoreText = '';
      await this.saved(wallet);
    });
  }

  async submitWatch(): Promise<void> {
    const problem =
      this.credentialsProblem() ??
      (this.accountKey.trim() ? null : 'Paste the account public key (acct_xvk…) of the wallet.');
    if (problem) {
      this.error = problem;
      return;
    }
    await this.attempt(async () => {
      const wallet = await unwrap(
        this.api.wallet.importWatchOnly({
          name: this.name.trim(),
          accountPublicKey: this.accountKey.trim(),
          password: this.password,
        }),
      );
      await this.saved(wallet);
    });
  }

  /** The wallet is stored: on the sandbox join and unlock at once; elsewhere ask the API key. */
  private async saved(wallet: WalletSummary): Promise<void> {
    this.wallet = wallet;
    if (this.network() === 'sandbox') {
      await this.finish();
    } else {
      this.step = 'api-key';
    }
  }

  private setTask(id: FinishTask['id'], state: FinishTask['state']): void {
    this.tasks = this.tasks.map((t) => (t.id === id ? { ...t, state } : t));
  }

  /** Joins the practice exchange (sandbox), unlocks the session and reads the funds. */
  async finish(): Promise<void> {
    const wallet = this.wallet;
    if (!wallet) return;
    const sandbox = this.network() === 'sandbox';
    this.step = 'finishing';
    this.finishError = null;
    this.tasks = [
      ...(sandbox && !wallet.exchangeAccountId
        ? [
            {
              id: 'join' as const,
              label: 'Opening your account on the practice exchange',
              state: 'waiting' as const,
            },
          ]
        : []),
      { id: 'unlock', label: 'Unlocking your trading session', state: 'waiting' },
      { id: 'balance', label: 'Reading your funds', state: 'waiting' },
    ];
    let current: FinishTask['id'] = 'join';
    try {
      if (this.tasks.some((t) => t.id === 'join')) {
        current = 'join';
        this.setTask('join', 'running');
        this.wallet = await unwrap(
          this.api.wallet.joinExchange({ walletId: wallet.id, password: this.password }),
        );
        this.setTask('join', 'done');
      }
      current = 'unlock';
      this.setTask('unlock', 'running');
      await unwrap(this.api.session.unlock({ password: this.password }));
      this.setTask('unlock', 'done');
      current = 'balance';
      this.setTask('balance', 'running');
      this.balance = await unwrap(this.api.wallet.balance({ walletId: wallet.id }));
      this.setTask('balance', 'done');
    } catch (error) {
      this.setTask(current, 'failed');
      this.finishError = messageOf(error);
      return;
    }
    this.forgetSecrets();
    this.step = 'ready';
  }

  /** Goes on without what failed: the wallet is saved; the rest can be done later. */
  skipRest(): void {
    this.forgetSecrets();
    this.step = 'ready';
  }

  async submitApiKey(): Promise<void> {
    const wallet = this.wallet;
    if (!wallet) return;
    const key = this.apiKey.trim();
    if (!/^[A-Za-z0-9_-]{16,128}$/.test(key)) {
      this.error =
        'An API key is 16 to 128 letters, digits, dashes or underscores. Copy it again from the exchange.';
      return;
    }
    await this.attempt(async () => {
      this.wallet = await unwrap(
        this.api.wallet.setApiKey({ walletId: wallet.id, apiKey: key, password: this.password }),
      );
      this.apiKey = '';
      await this.finish();
    });
  }

  async skipApiKey(): Promise<void> {
    this.apiKey = '';
    await this.finish();
  }

  private forgetSecrets(): void {
    this.password = '';
    this.repeat = '';
    this.apiKey = '';
    this.confirmWords = {};
    this.phrase = null;
  }

  /** Back to the start with nothing kept (after done, or when the trader gives up). */
  reset(): void {
    this.forgetSecrets();
    this.step = 'welcome';
    this.name = '';
    this.restoreText = '';
    this.accountKey = '';
    this.error = null;
    this.finishError = null;
    this.wallet = null;
    this.balance = null;
    this.tasks = [];
    this.busy = false;
    this.adding = false;
  }
}
