import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/** Serious and critical axe-core violations on the page as it is now, in both themes. */
export const seriousViolations = async (page: Page, where: string): Promise<string[]> => {
  const found: string[] = [];
  for (const theme of ['dark', 'light'] as const) {
    await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
    const result = await new AxeBuilder({ page })
      // One page only: axe's default opens helper pages, which this single-window app never has.
      .setLegacyMode(true)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21aa'])
      .analyze();
    for (const violation of result.violations) {
      if (violation.impact !== 'serious' && violation.impact !== 'critical') continue;
      const targets = violation.nodes.map((n) => n.target.join(' ')).join(', ');
      found.push(`${where} (${theme}): ${violation.id}: ${violation.help} at ${targets}`);
    }
  }
  return found;
};
