// axe-core in any engine: its source is evaluated by the driver (WebDriver's execute script,
// BiDi's script.evaluate, CDP), which the portal's Content-Security-Policy does not govern, then
// run on the settled page with the same rule tags as tests/a11y.mjs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

/** The page's axe violations, as `rule: target, target` lines, once its screen is drawn. */
export async function axeViolations(page) {
  await page.waitForFunction(
    () => {
      const main = document.querySelector('main');
      return Boolean(
        main && main.querySelector('h1') && !main.querySelector('.skeleton, [aria-busy="true"]') && !document.querySelector('.progress'),
      );
    },
    null,
    { what: 'the page to settle' },
  );
  await page.evaluate(() => document.fonts.ready.then(() => true));
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    (tags) =>
      window.axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((r) => r.violations.map((v) => `${v.id} (${v.help}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)),
    TAGS,
  );
}
