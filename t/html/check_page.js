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
//   diagnostic's node link;
//   with --views NODE_NAME, `views`: at fit, the scale and the labels drawn
//   (node, op type shown, font px, and how many pixels of the box's label
//   area differ from its fill: the text is really there); the graphs (list,
//   breadcrumb) and, for each graph shown through the list, the nodes drawn
//   and a sample of their fill pixels; the panel of NODE_NAME (its graph after
//   select, its rows, tensors and attributes); and, after switching "colour
//   by" to each of dtype and engine, per drawn node the fill pixel next to
//   the colour the page gives it. Screenshots of the panel (SCREENSHOT with
//   -panel) and of the first subgraph (-sub) go beside SCREENSHOT;
//   with --gear NODE_NAME, `gears`: the gear list (its options' texts) and,
//   for each gear chosen in it, the gear the page says it shows, NODE_NAME's
//   colour, its fill pixel on the canvas, its panel row of the colour-by
//   field (found by the field's label, which the panel shows), the legend, and the diagnostics shown dimmed (not of this gear).
//   A screenshot per gear (-gearK) goes beside SCREENSHOT.
// usage: node check_page.js PAGE.html SCREENSHOT.png [--interact NODE_NAME | --views NODE_NAME | --gear NODE_NAME]
'use strict';
const path = require('path');
const fs = require('fs');
const os = require('os');
const modules = process.env.GR_NODE_MODULES || path.join(__dirname, '..', '..', 'node_modules');
const { chromium } = require(path.join(modules, 'playwright-core'));

const hex = c => '#' + c.map(v => v.toString(16).padStart(2, '0')).join('');

// Per drawn node of the shown graph (up to 400): the fill pixel and the colour
// the page says (a value without effect is hatched: its pixel may be a stripe).
async function fills(page) {
  return page.evaluate(() => {
    const cv = document.getElementById('graph'), ctx = cv.getContext('2d'), out = [];
    const h = c => '#' + c.map(v => v.toString(16).padStart(2, '0')).join('');
    window.gr.drawn().slice(0, 400).forEach(v => {
      const p = window.gr.fillPixel(v);
      if (p.x < 0 || p.y < 0 || p.x >= cv.width || p.y >= cv.height) return;
      const d = ctx.getImageData(p.x, p.y, 1, 1).data;
      out.push({ node: v, got: h([d[0], d[1], d[2]]), want: window.gr.colourOf(v), hatched: window.gr.hatched(v) });
    });
    return out;
  });
}

async function views(page, probe, shot) {
  const v = {};
  const frame = () => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.click('#fit'); await frame();
  v.scale = await page.evaluate(() => window.gr.scale());
  v.labels = await page.evaluate(() => {
    const cv = document.getElementById('graph'), ctx = cv.getContext('2d'), dpr = window.devicePixelRatio || 1;
    const N = window.grTestNodes();
    return window.gr.labels().slice(0, 200).map(l => {
      // the label's strip: from its start, 40 px wide, 8 px high around its middle line
      const img = ctx.getImageData(Math.round(l.x * dpr), Math.round((l.y + 4) * dpr), Math.round(40 * dpr), Math.round(14 * dpr)).data;
      const fill = window.gr.colourOf(l.node), f = [1, 3, 5].map(i => parseInt(fill.substr(i, 2), 16));
      let ink = 0;
      for (let i = 0; i < img.length; i += 4) if (Math.abs(img[i] - f[0]) + Math.abs(img[i + 1] - f[1]) + Math.abs(img[i + 2] - f[2]) > 150) ink++;
      return { node: N[l.node].name, type: N[l.node].type, shown: l.type, px: l.px, ink };
    });
  });
  v.drawnAtFit = await page.evaluate(() => window.gr.drawn().length);
  v.fillsAtFit = await fills(page);
  v.graphs = await page.evaluate(() => ({
    list: Array.from(document.querySelectorAll('#graph-list option')).map(o => o.textContent),
    shown: window.gr.graph(),
    crumbs: document.getElementById('crumbs').textContent }));
  v.perGraph = [];
  const ng = v.graphs.list.length;
  for (let k = 0; k < ng && k < 8; k++) {
    if (ng > 1) await page.selectOption('#graph-list', String(k));   /* the list shows with two graphs or more */
    await frame();
    v.perGraph.push(await page.evaluate(() => {
      const N = window.grTestNodes();
      return { shown: window.gr.graph(), crumbs: document.getElementById('crumbs').textContent,
               drawn: window.gr.drawn().map(i => N[i].name) };
    }));
    v.perGraph[k].fills = await fills(page);
    if (k === 1) await page.screenshot({ path: shot.replace(/\.png$/, '-sub.png') });
  }
  if (ng > 1) await page.selectOption('#graph-list', '0');
  await frame();
  // the probe's panel
  const idx = await page.evaluate(name =>
    window.grTestNodes().findIndex(n => n.name === name), probe);
  await page.evaluate(i => window.gr.select(i, true), idx); await frame();
  v.panel = await page.evaluate(() => {
    const rows = {};
    document.querySelectorAll('#details > table:not(.io) tr').forEach(tr => { rows[tr.children[0].textContent] = tr.children[1].textContent; });
    const io = Array.from(document.querySelectorAll('#io tr[data-dir]')).map(tr => Array.from(tr.children).map(td => td.textContent));
    const attrs = Array.from(document.querySelectorAll('#attrs tr')).map(tr => [tr.children[0].textContent, tr.children[1].textContent]);
    const subs = Array.from(document.querySelectorAll('#subgraphs a')).map(a => +a.getAttribute('data-graph'));
    return { graph: window.gr.graph(), rows, io, attrs, subs, crumbs: document.getElementById('crumbs').textContent,
             explain: (document.getElementById('explain') || {}).textContent || '' };
  });
  // a folded constant, selected: the frame goes around the boxes it feeds, not where it would sit
  v.foldedFrame = await page.evaluate(async () => {
    const N = window.grTestNodes(), data = JSON.parse(document.getElementById('gr-data').textContent);
    // a folded constant of the shown graph that feeds no box at its own place in the layout
    // (layout.c gives folded nodes the first cell, where another node's box usually is)
    const drawn = window.gr.drawn(), same = (a, b) => a.x === b.x && a.y === b.y;
    const feedsOf = i => drawn.filter(v => (data.io.node[v][3] || []).includes(i));
    const c = N.findIndex((nd, i) => data.fold[i] && drawn.length && nd.graph === N[drawn[0]].graph
                                     && !feedsOf(i).some(v => same(window.gr.screenPos(v), window.gr.screenPos(i))));
    if (c < 0) return null;
    window.gr.select(c, true);
    await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
    const cv = document.getElementById('graph'), ctx = cv.getContext('2d');
    const at = v => { const p = window.gr.framePixel(v); return Array.from(ctx.getImageData(p.x, p.y, 1, 1).data); };   // RGBA: an empty canvas pixel is [0, 0, 0, 0]
    const feeds = feedsOf(c);
    return { name: N[c].name, feeds: feeds.map(v => ({ name: N[v].name, px: at(v) })), own: at(c) };
  });
  await page.evaluate(i => window.gr.select(i, true), idx); await frame();
  await page.evaluate(() => document.getElementById('graph-section').scrollIntoView());
  await page.screenshot({ path: shot.replace(/\.png$/, '-panel.png') });
  // a subgraph link in the panel changes the shown graph
  if (v.panel.subs.length) {
    await page.click('#subgraphs a'); await frame();
    v.afterSubLink = await page.evaluate(() => ({ shown: window.gr.graph(), crumbs: document.getElementById('crumbs').textContent }));
    await page.click('#crumbs a[data-graph]'); await frame();
    v.afterCrumb = await page.evaluate(() => window.gr.graph());
  }
  // colour by dtype, then by engine: each drawn node's fill follows
  v.colourBy = {};
  for (const slot of ['dtype', 'engine']) {
    const val = await page.evaluate(s => { const o = Array.from(document.querySelectorAll('#colour-by option')).find(o => o.textContent === s); return o ? o.value : null; }, slot);
    if (val === null) continue;
    await page.selectOption('#colour-by', val);
    await page.click('#fit'); await frame();
    v.colourBy[slot] = { field: await page.evaluate(() => window.gr.field()), fills: await fills(page),
                         legend: await page.evaluate(() => Array.from(document.querySelectorAll('#legend span')).map(s => s.textContent)) };
  }
  return v;
}

async function gears(page, probe, shot) {
  const frame = () => page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
  const idx = await page.evaluate(name =>
    window.grTestNodes().findIndex(n => n.name === name), probe);
  const g = { list: await page.evaluate(() => Array.from(document.querySelectorAll('#gear option')).map(o => o.textContent)),
              shown: [] };
  g.pickVisible = await page.isVisible('#gear');
  for (let k = 0; k < g.list.length; k++) {
    await page.selectOption('#gear', String(k));
    await page.evaluate(i => window.gr.select(i, true), idx);
    await frame();
    const one = await page.evaluate(i => {
      const cv = document.getElementById('graph'), ctx = cv.getContext('2d'), p = window.gr.fillPixel(i);
      const d = ctx.getImageData(p.x, p.y, 1, 1).data, rows = {};
      document.querySelectorAll('#details > table:not(.io) tr').forEach(tr => { rows[tr.children[0].textContent] = tr.children[1].textContent; });
      return { gear: window.gr.gear(), colour: window.gr.colourOf(i),
               pixel: '#' + [d[0], d[1], d[2]].map(v => v.toString(16).padStart(2, '0')).join(''),
               label: window.gr.fieldLabel(), row: rows[window.gr.fieldLabel()],
               legend: Array.from(document.querySelectorAll('#legend span')).map(s => s.textContent),
               dimmed: Array.from(document.querySelectorAll('#diag-list li.gear-other')).map(li => li.textContent) };
    }, idx);
    await page.screenshot({ path: shot.replace(/\.png$/, '-gear' + (k + 1) + '.png') });
    g.shown.push(one);
  }
  return g;
}

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
    // the report's nodes read back from the page's data as html.c writes them
    // (names, and the object each shares with nodes of its op type and outcome)
    await page.addInitScript(() => {
      window.grTestNodes = () => {
        const r = JSON.parse(document.getElementById('gr-data').textContent).report;
        return r.node_names.map((name, i) => Object.assign({ name }, r.node_tails[r.node_tail[i]]));
      };
    });
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
      const N = window.grTestNodes(), bands = [];
      const hex = c => '#' + c.map(v => v.toString(16).padStart(2, '0')).join('');
      window.gr.drawn().forEach(v => {     /* the nodes of the shown graph that have a box */
        const nd = N[v], p = window.gr.bandPixel(v);
        if (p.x < 0 || p.y < 0 || p.x >= cv.width || p.y >= cv.height) return;
        const d = ctx.getImageData(p.x, p.y, 1, 1).data;
        bands.push({ name: nd.name, want: window.gr.markOf(v), got: hex([d[0], d[1], d[2]]) });
      });
      const legend = Array.from(document.querySelectorAll('#mark-legend span')).map(s => ({
        value: s.getAttribute('data-value'),
        colour: hex(s.querySelector('i').style.backgroundColor.match(/\d+/g).map(Number)) }));
      return { field: window.gr.markField(), label: document.getElementById('mark-label').textContent, legend, bands,
               drawn: window.gr.drawn().map(v => N[v].name) };
    });
    if (flag === '--views') out.views = await views(page, probe, shot);
    if (flag === '--gear') out.gears = await gears(page, probe, shot);
    if (flag === '--interact') {
      const it = out.interact = {};
      // click the node on the canvas where the page says it is
      const idx = await page.evaluate(name =>
        window.grTestNodes().findIndex(n => n.name === name), probe);
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
