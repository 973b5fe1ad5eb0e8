#!/usr/bin/env node
// check-axe SITE: axe-core on every page of a static site in headless
// Chromium, light and dark, wide and narrow, with every <details> opened so
// that folded content is checked too; search.html also with a query, whose
// results must not be empty. book.html, every chapter again on one page, is
// checked once (light, wide): its parts are the chapter pages, checked in
// every scheme and width. Fails on serious or critical violations.
// Needs puppeteer-core and axe-core on NODE_PATH, and CHROMIUM.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const puppeteer = require('puppeteer-core');
const axeFile = require.resolve('axe-core/axe.min.js');

const site = path.resolve(process.argv[2] || 'site');
const pages = fs.readdirSync(site).filter((f) => f.endsWith('.html')).sort();
// Two words of the book's first section, which the search must find.
const query = (() => {
	try {
		const index = fs.readFileSync(path.join(site, 'search-index.js'), 'utf8');
		const m = /"t":"((?:[^"\\]|\\.)*)"/.exec(index);
		const words = m ? m[1].split(/[^A-Za-z]+/).filter((w) => w.length > 4) : [];
		if (words.length >= 2)
			return words.slice(0, 2).join(' ').toLowerCase();
	} catch (e) { /* no index: the book's own words */ }
	return 'warp occupancy';
})();
if (pages.includes('search.html'))
	pages.push('search.html?q=' + encodeURIComponent(query));

async function main() {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'check-axe-'));
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		userDataDir: profile,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update',
			'--disable-sync'],
	});
	let bad = 0, minor = 0, searchFailed = 0;
	try {
		const page = await browser.newPage();
		// Offline: refuse every request that is not a local file.
		await page.setRequestInterception(true);
		page.on('request', (r) => (r.url().startsWith('file:') ? r.continue() : r.abort()));
		for (const scheme of ['light', 'dark']) {
			await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
			for (const [width, height] of [[1440, 900], [390, 844]]) {
				await page.setViewport({ width, height });
				for (const f of pages) {
					if (f === 'book.html' && (scheme !== 'light' || width !== 1440))
						continue;
					await page.goto('file://' + path.join(site, f), { waitUntil: 'load' });
					if (f.includes('?q=')) {
						const hits = await page.$$eval('#search-results.hits > li', (l) => l.length);
						if (!hits) {
							searchFailed++;
							console.log(`  FAIL ${f}: the search found nothing for "${query}"`);
						}
					}
					await page.addScriptTag({ path: axeFile });
					const res = await page.evaluate(async (max) => {
						document.querySelectorAll('details').forEach((d) => { d.open = true; });
						const r = await window.axe.run(document, { resultTypes: ['violations'] });
						return r.violations.map((v) => ({
							id: v.id, impact: v.impact, help: v.help,
							nodes: v.nodes.slice(0, max).map((n) => n.target.join(' ') +
								(n.failureSummary ? ' — ' + n.failureSummary.split('\n').slice(1).join(' ').trim() : '')),
							count: v.nodes.length,
						}));
					}, +(process.env.AXE_NODES || 3));
					for (const v of res) {
						const serious = v.impact === 'serious' || v.impact === 'critical';
						if (serious)
							bad++;
						else
							minor++;
						console.log(`  ${serious ? 'FAIL' : 'note'} ${f} (${scheme}, ${width}px): ` +
							`${v.impact} ${v.id}: ${v.help} (${v.count} nodes)`);
						for (const n of v.nodes)
							console.log('      ' + n);
					}
				}
			}
		}
	} finally {
		await browser.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
	console.log(`axe: ${pages.length} pages × light/dark × 1440/390 px, ` +
		`${bad} serious or critical violations, ${minor} minor` +
		(searchFailed ? `, search found nothing ${searchFailed} times` : ', search works'));
	return bad || searchFailed ? 1 : 0;
}

main().then((rc) => process.exit(rc), (e) => {
	console.error('check-axe: ' + (e && e.stack || e));
	process.exit(2);
});
