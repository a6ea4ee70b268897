// html_load.js: how long an HTML report of gerules takes to show its graph
// in headless Chromium (playwright-core driving /usr/bin/chromium, a fresh
// profile each load). Prints, per page given, one line
//   PAGE WALL_MS BUSY_MS SCRIPT_MS LAYOUT_MS STYLE_MS
// WALL_MS: the time from navigation start to the first drawn graph (the
// page's window.grReadyMs). BUSY_MS: the CPU time the page's renderer main
// thread spent on tasks from navigation to that point (the DevTools
// protocol's Performance.getMetrics TaskDuration, in the threadTicks time
// domain: thread CPU time, so the other processes of a loaded machine
// barely move it); SCRIPT_MS, LAYOUT_MS, STYLE_MS: its ScriptDuration,
// LayoutDuration and RecalcStyleDuration parts. bench/run's HTML row loads
// two pages alternately this way. No assertion: t/t4003-html.sh checks what
// the page shows.
// usage: node bench/html_load.js PAGE.html [PAGE.html ...]
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const modules = process.env.GR_NODE_MODULES || path.join(__dirname, '..', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

async function metrics(cdp) {
  const m = {};
  for (const { name, value } of (await cdp.send('Performance.getMetrics')).metrics) m[name] = value;
  return m;
}

(async () => {
  for (const file of process.argv.slice(2)) {
    const profile = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'chromium-profile-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: process.env.GR_CHROMIUM || '/usr/bin/chromium', headless: true,
      viewport: { width: 1400, height: 1000 },
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = context.pages()[0] || await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
      const before = await metrics(cdp);
      await page.goto('file://' + path.resolve(file), { waitUntil: 'load', timeout: 300000 });
      await page.waitForFunction(() => document.documentElement.dataset.ready === '1', null, { timeout: 300000 });
      const wall = await page.evaluate(() => window.grReadyMs);
      const after = await metrics(cdp);
      /* the counters start near zero on the blank page; its share is taken off */
      const d = (k) => 1000 * ((after[k] || 0) - (before[k] || 0));
      process.stdout.write([file, wall.toFixed(0), d('TaskDuration').toFixed(0), d('ScriptDuration').toFixed(0),
                            d('LayoutDuration').toFixed(0), d('RecalcStyleDuration').toFixed(0)].join(' ') + '\n');
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
})();
