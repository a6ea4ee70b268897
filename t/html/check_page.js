// check_page.js: loads an HTML report of gerules in headless Chromium
// (playwright-core driving /usr/bin/chromium, a fresh profile, no network
// features) and prints one JSON object describing what the page did:
//   errors      console errors and uncaught exceptions (must be empty)
//   requests    URLs other than the page itself that it tried to load
//   nodeCount   the node count the page shows (#node-count)
//   readyMs     time from navigation start to the first drawn graph
//   colours     per legend entry: its colour, how many canvas pixels have it,
//               whether it stands for values without effect, its text
//   field       the slot the graph is coloured by
//   mark        the slot marked by the band along each node's left edge, its
//               legend (value, colour), and per node the canvas pixel in the
//               middle of its band next to the colour the page says it has
//               (nodes whose band is off the canvas are left out)
//   plus, with --interact, the outcome of clicking a node on the canvas,
//   searching a name, sorting and filtering the table and clicking a
//   diagnostic's node link.
// usage: node check_page.js PAGE.html SCREENSHOT.png [--interact NODE_NAME]
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const modules = process.env.GR_NODE_MODULES || path.join(__dirname, '..', '..', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

(async () => {
  const [page_file, shot, flag, probe] = process.argv.slice(2);
  const profile = fs.mkdtempSync(path.join(process.env.TMPDIR || os.tmpdir(), 'chromium-profile-'));
  // a fresh profile (--user-data-dir, which playwright takes as this argument)
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.GR_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1400, height: 1000 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
           '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const out = { errors: [], requests: [] };
  try {
    const page = context.pages()[0] || await context.newPage();
    const url = 'file://' + path.resolve(page_file);
    page.on('console', m => { if (m.type() === 'error') out.errors.push('console: ' + m.text()); });
    page.on('pageerror', e => out.errors.push('exception: ' + e.message));
    page.on('request', r => { if (r.url() !== url) out.requests.push(r.url()); });
    await page.goto(url, { waitUntil: 'load', timeout: 300000 });
    await page.waitForFunction(() => document.documentElement.dataset.ready === '1', null, { timeout: 300000 });
    out.readyMs = await page.evaluate(() => window.grReadyMs);
    out.nodeCount = await page.evaluate(() => document.getElementById('node-count').textContent);
    out.field = await page.evaluate(() => window.gr.field());
    await page.screenshot({ path: shot });
    // which legend colours the canvas really shows
    out.colours = await page.evaluate(() => {
      const cv = document.getElementById('graph'), ctx = cv.getContext('2d');
      const img = ctx.getImageData(0, 0, cv.width, cv.height).data, seen = new Map();
      for (let i = 0; i < img.length; i += 4) {
        if (img[i + 3] !== 255) continue;
        const hex = '#' + [img[i], img[i + 1], img[i + 2]].map(v => v.toString(16).padStart(2, '0')).join('');
        seen.set(hex, (seen.get(hex) || 0) + 1);
      }
      return Array.from(document.querySelectorAll('#legend span')).map(s => {
        const c = s.querySelector('i').style.backgroundColor.match(/\d+/g).map(Number);
        const hex = '#' + c.map(v => v.toString(16).padStart(2, '0')).join('');
        return { value: s.getAttribute('data-value'), colour: hex, pixels: seen.get(hex) || 0, noEffect: s.hasAttribute('data-no-effect'), text: s.textContent };
      });
    });
    out.mark = await page.evaluate(() => {
      const cv = document.getElementById('graph'), ctx = cv.getContext('2d');
      const N = JSON.parse(document.getElementById('gr-data').textContent).report.nodes, bands = [];
      const hex = c => '#' + c.map(v => v.toString(16).padStart(2, '0')).join('');
      N.forEach((nd, v) => {
        const p = window.gr.bandPixel(v);
        if (p.x < 0 || p.y < 0 || p.x >= cv.width || p.y >= cv.height) return;
        const d = ctx.getImageData(p.x, p.y, 1, 1).data;
        bands.push({ name: nd.name, want: window.gr.markOf(v), got: hex([d[0], d[1], d[2]]) });
      });
      const legend = Array.from(document.querySelectorAll('#mark-legend span')).map(s => ({
        value: s.getAttribute('data-value'),
        colour: hex(s.querySelector('i').style.backgroundColor.match(/\d+/g).map(Number)) }));
      return { field: window.gr.markField(), label: document.getElementById('mark-label').textContent, legend, bands };
    });
    if (flag === '--interact') {
      const it = out.interact = {};
      // click the node on the canvas where the page says it is
      const idx = await page.evaluate(name =>
        JSON.parse(document.getElementById('gr-data').textContent).report.nodes.findIndex(n => n.name === name), probe);
      await page.evaluate(i => window.gr.select(i, true), idx);   // centre it first
      await page.waitForTimeout(100);
      await page.evaluate(() => { document.getElementById('details').textContent = ''; });
      const pos = await page.evaluate(i => window.gr.screenPos(i), idx);
      await page.mouse.click(pos.x, pos.y);
      it.clicked = await page.evaluate(() => (document.getElementById('detail-name') || {}).textContent || null);
      it.explain = await page.evaluate(() => (document.getElementById('explain') || {}).textContent || null);
      // search by name
      await page.evaluate(() => { document.getElementById('details').textContent = ''; });
      await page.fill('#search', probe);
      await page.press('#search', 'Enter');
      it.searched = await page.evaluate(() => (document.getElementById('detail-name') || {}).textContent || null);
      // sort by name, descending (two clicks), and read the first row
      await page.click('#nodes th[data-col="1"]');
      await page.click('#nodes th[data-col="1"]');
      it.firstDesc = await page.evaluate(() => document.querySelector('#nodes tbody tr td:nth-child(2)').textContent);
      // filter
      await page.fill('#filter', probe);
      it.filtered = await page.evaluate(() => Array.from(document.querySelectorAll('#nodes tbody tr td:nth-child(2)')).map(td => td.textContent));
      // a diagnostic's node link
      const link = await page.$('#diag-list a.node');
      if (link) {
        it.linkNode = await link.textContent();
        await page.evaluate(() => { document.getElementById('details').textContent = ''; });
        await link.click();
        it.linkSelected = await page.evaluate(() => (document.getElementById('detail-name') || {}).textContent || null);
      }
      // wheel zoom and drag pan change the view without errors
      const box = await page.locator('#graph').boundingBox();
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, -400);
      await page.mouse.down(); await page.mouse.move(box.x + box.width / 2 + 80, box.y + box.height / 2 + 40, { steps: 4 }); await page.mouse.up();
      await page.waitForTimeout(100);
    }
  } catch (e) {
    out.errors.push('driver: ' + (e && e.message));
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(out) + '\n');
})();
