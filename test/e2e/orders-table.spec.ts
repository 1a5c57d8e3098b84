import type { Locator } from '@playwright/test';
import { generateMnemonic } from 'bip39';
import { ordersHandlers } from '../../src-main/app/orders/handlers';
import { OrdersService } from '../../src-main/app/orders/service';
import type { Order } from '../../src-shared/domain';
import { recordOf, recordsExchange } from '../fixtures/orders/records';
import { expect, test } from './fixtures';

/**
 * The Orders screen of a trader with years of history: 20,000 finished orders (filled,
 * cancelled, partly filled; two markets; one to three fills each) served by main's own orders
 * service from an exchange that answers from memory. At the smallest window and at 1080p, in
 * both themes: only the rows in view are in the page, they read right, and they fit the width.
 * Screenshots go to test-results/screens/.
 */
const COUNT = 20_000;
const SHOTS = 'test-results/screens';
const STATUSES: Order['status'][] = ['fully_filled', 'cancelled', 'partially_cancelled'];

const history = Array.from({ length: COUNT }, (_, i) =>
  recordOf(i, {
    status: STATUSES[i % 7 === 0 ? 1 : i % 11 === 0 ? 2 : 0],
    executions: i % 7 === 0 ? 0 : 1 + (i % 3),
  }),
);
const open = Array.from({ length: 12 }, (_, i) =>
  recordOf(COUNT + i, { status: 'open', executions: 0 }),
);

test.describe.configure({ timeout: 120_000 });

/**
 * Where each column's header and the cells of the first drawn row stand (left edge and width,
 * in whole pixels), the columns the window hides left out.
 */
const columnEdges = (grid: Locator) =>
  grid.evaluate((element) => {
    const edges = (row: Element | null | undefined) =>
      [...(row?.children ?? [])]
        .filter((cell) => !cell.classList.contains('waiting'))
        .filter((cell) => getComputedStyle(cell).display !== 'none')
        .map((cell) => {
          const box = cell.getBoundingClientRect();
          return [Math.round(box.left), Math.round(box.width)];
        });
    return {
      header: edges(element.querySelector('[role=columnheader]')?.parentElement),
      row: edges(element.querySelector('.body [role=row]:not([aria-busy=true])')),
    };
  });

/**
 * For each shown cell of a row with a name: whether there is ink inside the cell's box, and how
 * far the ink stands from the side its text keeps to (left, or right for numbers), in CSS
 * pixels. Read from the pixels of the canvas drawn over the row (one covers a block of rows),
 * in the row's own band of it.
 */
const inkOf = (row: Locator) =>
  row.evaluate((element) => {
    const band = element.getBoundingClientRect();
    const canvas = [...(element.closest('[role=grid]')?.querySelectorAll('canvas') ?? [])].find(
      (c) => {
        const box = c.getBoundingClientRect();
        return box.top <= band.top && box.bottom >= band.bottom;
      },
    );
    const context = canvas?.getContext('2d');
    if (!canvas || !context) return [];
    const scale = canvas.width / canvas.getBoundingClientRect().width;
    const origin = canvas.getBoundingClientRect().left;
    const top = Math.round((band.top - canvas.getBoundingClientRect().top) * scale);
    const { data, width, height } = context.getImageData(
      0,
      top,
      canvas.width,
      Math.round(band.height * scale),
    );
    const headers = [
      ...(element.closest('[role=grid]')?.querySelectorAll('[role=columnheader]') ?? []),
    ];
    return [...element.querySelectorAll<HTMLElement>('[role=gridcell]:not(.waiting)')]
      .map((cell, column) => ({ cell, right: headers[column]?.classList.contains('r') ?? false }))
      .filter(({ cell }) => cell.offsetWidth > 0 && cell.hasAttribute('aria-label'))
      .map(({ cell, right }) => {
        const box = cell.getBoundingClientRect();
        const style = getComputedStyle(cell);
        const from = Math.round((box.left - origin + parseFloat(style.paddingLeft)) * scale);
        const to = Math.round((box.right - origin - parseFloat(style.paddingRight)) * scale);
        let first = -1;
        let last = -1;
        // The lightness (0 to 255) of the ink's solid pixels, for the theme it is drawn in.
        let light = 0;
        const rgb = [0, 0, 0];
        let solid = 0;
        for (let x = Math.max(0, from - 4); x < Math.min(width, to + 4); x++) {
          for (let y = 0; y < height; y++) {
            const at = (y * width + x) * 4;
            const alpha = data[at + 3] ?? 0;
            if (alpha === 0) continue;
            if (first < 0) first = x;
            last = x;
            if (alpha === 255) {
              light += ((data[at] ?? 0) + (data[at + 1] ?? 0) + (data[at + 2] ?? 0)) / 3;
              for (let c = 0; c < 3; c++) rgb[c] = (rgb[c] ?? 0) + (data[at + c] ?? 0);
              solid++;
            }
          }
        }
        return {
          name: cell.getAttribute('aria-label') ?? '',
          inked: first >= 0,
          fromSide: first < 0 ? null : (right ? to - last : first - from) / scale,
          light: solid > 0 ? light / solid : null,
          /** The colour of its solid pixels, as the page writes it ("rgb(r, g, b)"). */
          color: solid > 0 ? `rgb(${rgb.map((c) => Math.round(c / solid)).join(', ')})` : null,
        };
      });
  });

test.beforeEach(async ({ harness }) => {
  await harness.services.handlers.wallet.restore({
    name: 'Main',
    words: generateMnemonic(256),
    password: 'correct horse battery',
  });
  const exchange = recordsExchange({
    orderHistory: history,
    tradingHistory: history.filter((o) => o.executions.length > 0),
    open,
  });
  Object.assign(
    harness.services.handlers.orders,
    ordersHandlers(
      new OrdersService({
        network: exchange.network,
        apiKey: () => 'e2e',
        emit: () => undefined,
        saveFile: async () => null,
      }),
    ),
  );
});

for (const size of [
  { width: 1024, height: 680 },
  { width: 1920, height: 1080 },
]) {
  test(`20,000 orders at ${size.width}×${size.height} in both themes`, async ({
    page,
    harness,
  }) => {
    await page.setViewportSize(size);
    await page.goto(`${harness.url}#/orders`);
    await page.getByRole('tab', { name: 'Order history' }).click();
    const grid = page.getByRole('grid', { name: 'Order history' });
    await expect(page.getByText('20,000 orders')).toBeVisible();
    // The newest first: a cancelled buy of 10 with nothing filled.
    await expect(grid.getByRole('row').nth(1)).toHaveAccessibleName(/Buy.*10\.0000.*0%.*Cancelled/);

    // Halfway down: the rows there are read and drawn, and only a screenful is in the page.
    await grid.evaluate((element) => (element.scrollTop = element.scrollHeight / 2));
    const middle = Math.floor((await grid.evaluate((e) => e.scrollTop)) / 28) + 2;
    await expect(page.locator(`#orders-row-${middle}`)).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.locator(`#orders-row-${middle}`)).toHaveAccessibleName(/USDM/);
    // Its texts are drawn where the page would set them: in each cell, numbers to the right.
    const drawn = await inkOf(page.locator(`#orders-row-${middle}`));
    expect(drawn.length).toBeGreaterThanOrEqual(7);
    for (const cell of drawn) {
      expect(cell, cell.name).toMatchObject({ inked: true, fromSide: expect.any(Number) });
      expect(cell.fromSide, cell.name).toBeLessThanOrEqual(3);
    }
    const inPage = await grid.getByRole('row').count();
    expect(inPage).toBeLessThan(size.height / 28 + 14);
    // The columns fit the window: nothing runs off to the side.
    expect(await grid.evaluate((e) => e.scrollWidth - e.clientWidth)).toBeLessThanOrEqual(0);
    // Each header stands over its column, all ten where there is room, the seven that matter
    // most in a narrow window.
    const orderColumns = await columnEdges(grid);
    expect(orderColumns.row).toEqual(orderColumns.header);
    expect(orderColumns.header).toHaveLength(size.width >= 1920 ? 10 : 7);

    // The rows are drawn anew in each theme's colours: every cell's text lighter on dark.
    const tones: Record<string, (number | null)[]> = {};
    for (const theme of ['light', 'dark'] as const) {
      await page.evaluate((t) => document.documentElement.setAttribute('data-theme', t), theme);
      await expect
        .poll(async () => {
          tones[theme] = (await inkOf(page.locator(`#orders-row-${middle}`))).map((c) => c.light);
          return (
            theme === 'light' ||
            tones['dark']?.every((tone, k) => (tone ?? 0) > (tones['light']?.[k] ?? 255) + 40)
          );
        })
        .toBe(true);
      await page.screenshot({ path: `${SHOTS}/orders-many-${size.width}-${theme}.png` });
    }

    // The trading history: a row per fill, and the order of a fill opens beside the list.
    await page.getByRole('tab', { name: 'Trading history' }).click();
    const fills = page.getByRole('grid', { name: 'Trading history' });
    await expect(fills.getByRole('row').nth(1)).toHaveAccessibleName(/Maker|Taker|USDM/);
    const fillColumns = await columnEdges(fills);
    expect(fillColumns.row).toEqual(fillColumns.header);
    expect(fillColumns.header).toHaveLength(size.width >= 1920 ? 8 : 5);
    await fills.getByRole('row').nth(3).click();
    await expect(
      page.getByRole('region', { name: /(Buy|Sell) [\d,.]+ (ADA|NIGHT)/ }),
    ).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/orders-many-fills-${size.width}-dark.png` });
  });
}

test('in the system’s forced colours every text and mark is drawn in its text colour, and what is chosen is outlined', async ({
  page,
  harness,
}) => {
  await page.goto(`${harness.url}#/orders`);
  await page.getByRole('tab', { name: 'Order history' }).click();
  const grid = page.getByRole('grid', { name: 'Order history' });
  await expect(page.getByText('20,000 orders')).toBeVisible();
  const row = page.locator('#orders-row-1');
  await expect(row).toHaveAccessibleName(/Sell/);
  const textColor = () => row.evaluate((element) => getComputedStyle(element).color);
  const side = async () => (await inkOf(row)).find((cell) => cell.name === 'Sell')?.color;
  // The theme's own colours first: the side is drawn red, not in the text's colour.
  await expect.poll(side).not.toBeNull();
  expect(await side()).not.toBe(await textColor());

  await page.emulateMedia({ forcedColors: 'active' });
  await expect
    .poll(async () => {
      const color = await textColor();
      const cells = await inkOf(row);
      return cells.length > 0 && cells.every((cell) => cell.color === color);
    })
    .toBe(true);
  // What is chosen keeps a mark the system's colours do not take away: the keyboard's row, the
  // tab, the section.
  await grid.focus();
  await page.keyboard.press('ArrowDown');
  const selected = grid.locator('[role=row][aria-selected=true]');
  await expect(selected).toHaveCSS('outline-style', 'solid');
  await expect(page.getByRole('tab', { name: 'Order history' })).toHaveCSS(
    'outline-style',
    'solid',
  );
  await expect(page.getByRole('tab', { name: 'Open orders' })).not.toHaveCSS(
    'outline-style',
    'solid',
  );
  await expect(page.locator('[aria-current=page]')).toHaveCSS('outline-style', 'solid');
  await page.screenshot({ path: `${SHOTS}/orders-forced-colors.png` });
  // And on Trade, the chosen side of the order form.
  await page.goto(`${harness.url}#/trade`);
  // (These 20,000 fills are from 2024: none stands on a candle of today's chart, and none is
  // pinned to its edge.)
  await expect(page.getByRole('img', { name: /candles/ })).toHaveAccessibleName(
    /0 of your fills marked/,
  );
  const sideOf = (name: string) => page.getByRole('radio', { name }).locator('xpath=..');
  await expect(sideOf('Buy')).toHaveCSS('outline-style', 'solid');
  await expect(sideOf('Sell')).not.toHaveCSS('outline-style', 'solid');
  await page.getByRole('radio', { name: 'Sell' }).check();
  await expect(sideOf('Sell')).toHaveCSS('outline-style', 'solid');
  // The market data's dot (a background, which forced colours would take away) as its words.
  const marketData = page.getByText(/^Market data:/).locator('xpath=..');
  const dotAndWords = () =>
    marketData.evaluate((line) => [
      getComputedStyle(line.querySelector('.dot') as Element).backgroundColor,
      getComputedStyle(line).color,
    ]);
  const [dot, words] = await dotAndWords();
  expect(dot).toBe(words);
  // The chart (canvases, which forced colours do not reach) in the system's colours too: not a
  // pixel in the theme's buy or sell colour, its candles in the text's colour.
  const chart = page.getByRole('img', { name: /candles/ });
  await expect
    .poll(() =>
      chart.evaluate((element) => {
        const rgbOf = (color: string) => {
          const probe = document.createElement('span');
          probe.style.cssText = `forced-color-adjust: none; color: ${color}`;
          document.body.append(probe);
          const [r, g, b] = (getComputedStyle(probe).color.match(/\d+/g) ?? []).map(Number);
          probe.remove();
          return `${r},${g},${b}`;
        };
        const root = getComputedStyle(document.documentElement);
        const theme = new Set(
          ['--buy', '--sell'].map((name) => rgbOf(root.getPropertyValue(name))),
        );
        const text = rgbOf('CanvasText');
        let themed = 0;
        let inText = 0;
        for (const canvas of element.querySelectorAll('canvas')) {
          if (canvas.width === 0 || canvas.height === 0) continue;
          const data = canvas
            .getContext('2d')
            ?.getImageData(0, 0, canvas.width, canvas.height).data;
          for (let k = 0; data && k < data.length; k += 4) {
            if (data[k + 3] !== 255) continue;
            const pixel = `${data[k]},${data[k + 1]},${data[k + 2]}`;
            if (theme.has(pixel)) themed++;
            if (pixel === text) inText++;
          }
        }
        return { themed, drawnInText: inText > 100 };
      }),
    )
    .toEqual({ themed: 0, drawnInText: true });
  await page.screenshot({ path: `${SHOTS}/trade-forced-colors.png` });
});

test('the row the keyboard is on is always in the page, even before main has sent it', async ({
  page,
  harness,
}) => {
  await page.setViewportSize({ width: 1024, height: 680 });
  await page.goto(`${harness.url}#/orders`);
  await page.getByRole('tab', { name: 'Order history' }).click();
  const grid = page.getByRole('grid', { name: 'Order history' });
  await expect(page.getByText('20,000 orders')).toBeVisible();
  await expect(grid.getByRole('row').nth(1)).toHaveAccessibleName(/Cancelled/);

  // From now on, every frame: the row the grid names to assistive technology as the keyboard's
  // is in the page (End jumps into thousands of rows main has not sent yet).
  await grid.evaluate((element) => {
    const seen: string[] = [];
    (window as unknown as { missingActive: string[] }).missingActive = seen;
    const check = () => {
      const id = element.getAttribute('aria-activedescendant');
      if (id && !document.getElementById(id)) seen.push(id);
      requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  });
  await grid.focus();
  await page.keyboard.press('End');
  await expect(grid).toHaveAttribute('aria-activedescendant', 'orders-row-19999');
  const last = page.locator('#orders-row-19999');
  await expect(last).toHaveAttribute('aria-selected', 'true');
  await expect(last).toHaveAccessibleName(/USDM/);
  await expect(last).toBeInViewport();

  await page.keyboard.press('Home');
  await expect(grid).toHaveAttribute('aria-activedescendant', 'orders-row-0');
  await expect(page.locator('#orders-row-0')).toHaveAccessibleName(/Cancelled/);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  const active = await grid.getAttribute('aria-activedescendant');
  await expect(page.locator(`#${active}`)).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator(`#${active}`)).toBeInViewport();

  const missing = await page.evaluate(
    () => (window as unknown as { missingActive: string[] }).missingActive,
  );
  expect(missing).toEqual([]);
});

test('draws the rows anew, sharp, when the zoom changes', async ({ page, harness }) => {
  await page.setViewportSize({ width: 2048, height: 1360 });
  await page.goto(`${harness.url}#/orders`);
  await page.getByRole('tab', { name: 'Order history' }).click();
  await expect(page.getByText('20,000 orders')).toBeVisible();
  const first = page.locator('#orders-row-0');
  await expect(first).toHaveAccessibleName(/Cancelled/);
  /** The canvas drawn over the row: its pixels across, and its width in the page. */
  const sizes = () =>
    first.evaluate((row) => {
      const canvas = row.closest('[role=grid]')?.querySelector('canvas');
      return [canvas?.width, Math.round(canvas?.getBoundingClientRect().width ?? 0)];
    });
  const [pixels, across] = await sizes();
  expect(pixels).toBe(across);

  // Zoomed to 200%, as the window's zoom does it: the same screen, the page half as wide in its
  // own pixels, two of the screen's to each of them.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', {
    width: 1024,
    height: 680,
    deviceScaleFactor: 2,
    mobile: false,
  });
  await expect
    .poll(async () => {
      const [zoomedPixels = 0, zoomedAcross = 0] = await sizes();
      return zoomedAcross < (across ?? 0) && zoomedPixels === 2 * zoomedAcross;
    })
    .toBe(true);
  for (const cell of await inkOf(first)) {
    expect(cell, cell.name).toMatchObject({ inked: true });
    expect(cell.fromSide, cell.name).toBeLessThanOrEqual(3);
  }
});
