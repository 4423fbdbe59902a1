/** Checks of the UI's layout in Chromium that several e2e tests make: things cut, covered or past an edge. */
import type { Page } from 'playwright-core';

/** What is wrong with the pods table's visible headers: one running into the next, cut short, or past the table's edge. */
export const headerProblems = (page: Page) =>
  page.locator('.pods-head').evaluate((head) => {
    const edge = head.getBoundingClientRect().right;
    const shown = [...head.querySelectorAll<HTMLElement>('[role=columnheader]')].filter((c) => c.getBoundingClientRect().width > 0);
    return shown.flatMap((cell, i) => {
      const label = cell.querySelector<HTMLElement>('.sort-label');
      const name = cell.textContent?.trim() ?? '';
      if (!label) return [`${name} has no label`];
      const own = cell.querySelector('button')!.getBoundingClientRect();
      const next = shown[i + 1]?.querySelector('button')?.getBoundingClientRect();
      return [
        ...(next && own.right > next.left ? [`${name} runs into ${shown[i + 1]!.textContent?.trim()}`] : []),
        ...(label.scrollWidth > label.clientWidth ? [`${name} is cut`] : []),
        ...(cell.getBoundingClientRect().right > edge + 0.5 ? [`${name} is past the table's edge`] : []),
      ];
    });
  });

/** Pairs of elements that overlap on screen, by the names given. */
export const overlaps = (page: Page, selectors: Record<string, string>) =>
  page.evaluate((sel) => {
    const boxes = Object.entries(sel).flatMap(([name, css]) =>
      [...document.querySelectorAll<HTMLElement>(css)].map((el, i) => ({ name: `${name}#${i}`, box: el.getBoundingClientRect() })).filter((b) => b.box.width > 0 && b.box.height > 0),
    );
    const found: string[] = [];
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        if (a.name.split('#')[0] === b.name.split('#')[0]) continue;
        if (a.box.left < b.box.right - 0.5 && b.box.left < a.box.right - 0.5 && a.box.top < b.box.bottom - 0.5 && b.box.top < a.box.bottom - 0.5) found.push(`${a.name} overlaps ${b.name}`);
      }
    }
    return found;
  }, selectors);

/** Tabs of the open pod that are not wholly inside their tab list (cut or scrolled out of sight). */
export const cutTabs = (page: Page) =>
  page.locator('section.pod-detail [role=tablist]').evaluate((list) => {
    const edge = list.getBoundingClientRect();
    return [...list.querySelectorAll<HTMLElement>('[role=tab]')]
      .filter((t) => {
        const b = t.getBoundingClientRect();
        return b.width === 0 || b.left < edge.left - 0.5 || b.right > edge.right + 0.5 || t.scrollWidth > t.clientWidth;
      })
      .map((t) => t.textContent);
  });

/** Rows whose cells do not line up with the headers: a cell the header row does not have, or one missing. */
export const misalignedRows = (page: Page) =>
  page.locator('.pods-grid').evaluate((g) => {
    const classes = (row: Element) => [...row.querySelectorAll(':scope > [role=columnheader], :scope > [role=gridcell]')].map((c) => c.className.split(' ')[0]);
    const head = classes(g.querySelector('.pods-head')!).join(' ');
    return [...g.querySelectorAll('.pod-row')].map((r) => classes(r).join(' ')).filter((cells) => cells !== head).map((cells) => `${cells} under ${head}`);
  });
