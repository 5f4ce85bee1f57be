// A small driver of headless Chromium for the companion tests: one JSON
// command per line on standard input, one JSON answer per line on standard
// output.  playwright-core (from npm, in target/node) drives Debian's
// /usr/bin/chromium; nothing is downloaded.
import { createInterface } from 'node:readline';
import { createRequire } from 'node:module';

// playwright-core lives in target/node (installed by scripts/deps.sh).
const require = createRequire(process.env.HECTOR_NODE_DIR + '/');
const { chromium } = require('playwright-core');

const browser = await chromium.launch({
  executablePath: process.env.HECTOR_CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
// Each "page" is its own browser context: its own storage, like another phone.
const pages = [];
const events = [];

async function run(c) {
  const page = () => {
    const p = pages[c.page ?? 0];
    if (!p) throw new Error('no page ' + c.page);
    return p;
  };
  const timeout = c.timeout ?? 5000;
  switch (c.op) {
    case 'new_page': {
      const ctx = await browser.newContext(c.width ? { viewport: { width: c.width, height: c.height } } : {});
      const p = await ctx.newPage();
      p.on('dialog', (d) => d.accept());
      p.on('pageerror', (e) => events.push('pageerror: ' + e.message));
      pages.push(p);
      return pages.length - 1;
    }
    case 'goto': await page().goto(c.url); return null;
    case 'reload': await page().reload(); return null;
    case 'text': return await page().textContent(c.sel, { timeout });
    case 'attr': return await page().getAttribute(c.sel, c.name, { timeout });
    case 'click': await page().click(c.sel, { timeout }); return null;
    case 'fill': await page().fill(c.sel, c.value, { timeout }); return null;
    case 'press': await page().press(c.sel, c.key, { timeout }); return null;
    case 'focused': return await page().evaluate(() => document.activeElement && (document.activeElement.dataset.square || document.activeElement.id));
    case 'wait_text': {
      await page().waitForFunction(([sel, text]) => {
        const el = document.querySelector(sel);
        return el && el.textContent.includes(text);
      }, [c.sel, c.text], { timeout });
      return await page().textContent(c.sel);
    }
    case 'wait_enabled':
      await page().waitForSelector(c.sel + ':not([disabled])', { timeout });
      return null;
    case 'eval': return await page().evaluate(c.js);
    case 'screenshot': await page().screenshot({ path: c.path, fullPage: !c.first_screen }); return c.path;
    case 'errors': return events.splice(0);
    case 'keyboard': await page().keyboard.press(c.key); return null;
    case 'viewport': await page().setViewportSize({ width: c.width, height: c.height }); return null;
    // The axe-core audit (npm, in target/node): the rules broken, with
    // their impact and the elements, serious and critical ones only.
    case 'axe': {
      await page().addScriptTag({ path: require.resolve('axe-core/axe.min.js') });
      return await page().evaluate(async () => {
        const r = await window.axe.run(document);
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => v.id + ' (' + v.impact + '): ' + v.nodes.map((n) => n.target.join(' ')).join(', '));
      });
    }
    case 'close_page': await page().context().close(); pages[c.page ?? 0] = null; return null;
    case 'quit': await browser.close(); process.exit(0);
    default: throw new Error('unknown op ' + c.op);
  }
}

const rl = createInterface({ input: process.stdin });
for await (const line of rl) {
  let c;
  try { c = JSON.parse(line); } catch (e) { console.log(JSON.stringify({ ok: false, error: 'bad json' })); continue; }
  try {
    const value = await run(c);
    console.log(JSON.stringify({ ok: true, value: value ?? null }));
  } catch (e) {
    console.log(JSON.stringify({ ok: false, error: String(e && e.message || e).split('\n')[0] }));
  }
}
await browser.close();
