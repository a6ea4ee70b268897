// html_load.js: how long an HTML report of gerules takes to show its graph
// in headless Chromium (playwright-core driving /usr/bin/chromium, a fresh
// profile each load): prints, per page given, one line "PAGE MS" with the
// time from navigation start to the first drawn graph (the page's
// window.grReadyMs). bench/run's HTML row loads two pages alternately this
// way. No assertion: t/t4003-html.sh checks what the page shows.
// usage: node bench/html_load.js PAGE.html [PAGE.html ...]
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const modules = process.env.GR_NODE_MODULES || path.join(__dirname, '..', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

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
      await page.goto('file://' + path.resolve(file), { waitUntil: 'load', timeout: 300000 });
      await page.waitForFunction(() => document.documentElement.dataset.ready === '1', null, { timeout: 300000 });
      process.stdout.write(file + ' ' + (await page.evaluate(() => window.grReadyMs)).toFixed(0) + '\n');
    } finally {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    }
  }
})();
