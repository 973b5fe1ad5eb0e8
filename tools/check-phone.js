#!/usr/bin/env node
// check-phone SITE [WIDTH]: every page of a static site as a phone meets
// it, in headless Chromium at WIDTH px (360 unless given).
//
//   width   with every <details> opened, no page is wider than the
//           viewport: long code wraps, and tables, listings and charts
//           scroll inside their own box. A page that is wider is named
//           with the element that sticks out furthest.
//   charts  on each page with charts, the first chart's points are
//           reached by the keyboard (Tab until a point has focus, then an
//           arrow key to the next), and a tap on a point: each shows the
//           point's own words (its SVG title) in the chart's tip, and the
//           tap does not leave the page.
//
// Prints each failure and a summary; exits 1 when anything fails.
// Needs puppeteer-core on NODE_PATH, and CHROMIUM.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const puppeteer = require('puppeteer-core');

const site = path.resolve(process.argv[2] || 'site');
const width = +(process.argv[3] || 360);
const pages = fs.readdirSync(site).filter((f) => f.endsWith('.html')).sort();

// The page's width, and the element furthest past the viewport's edge
// that no box of its own scrolls or clips.
function measure() {
	document.querySelectorAll('details').forEach((d) => { d.open = true; });
	const vw = document.documentElement.clientWidth;
	const w = document.documentElement.scrollWidth;
	let worst = null, right = vw;
	if (w > vw) {
		for (const e of document.body.querySelectorAll('*')) {
			const b = e.getBoundingClientRect().right + window.scrollX;
			if (b <= right + 0.5)
				continue;
			let p = e.parentElement;
			while (p && p !== document.body && getComputedStyle(p).overflowX === 'visible')
				p = p.parentElement;
			if (p && p !== document.body)
				continue;
			right = b;
			const cls = typeof e.className === 'string' && e.className ? '.' + e.className.split(' ')[0] : '';
			worst = e.tagName.toLowerCase() + cls + ' "' + (e.textContent || '').trim().slice(0, 50) + '"';
		}
	}
	return { w, vw, h: document.documentElement.scrollHeight, worst };
}

// What the first chart's tip says, and the title of the focused point.
function tipOf() {
	const a = document.activeElement;
	const fig = document.querySelector('figure.chart');
	const tip = fig && fig.querySelector('.chart-tip');
	const t = a && a.closest && a.closest('.chart-points') && a.querySelector('title');
	return {
		point: !!t, title: t ? t.textContent : '',
		tip: tip && !tip.hidden ? tip.textContent : '',
		visible: !!(tip && !tip.hidden && tip.getBoundingClientRect().width > 0),
	};
}

async function charts(page, f) {
	const problems = [];
	const n = await page.$$eval('figure.chart .chart-points [tabindex]', (l) => l.length);
	if (!n)
		return problems;
	await page.evaluate(() => {
		document.querySelectorAll('details').forEach((d) => { d.open = false; });
		const fig = document.querySelector('figure.chart');
		// Focus starts just before the first chart.
		const before = document.createElement('button');
		before.id = 'check-phone-start';
		fig.parentNode.insertBefore(before, fig);
		before.focus();
	});
	let t = null;
	for (let i = 0; i < 20; i++) {
		await page.keyboard.press('Tab');
		t = await page.evaluate(tipOf);
		if (t.point)
			break;
	}
	if (!t.point)
		return [`${f}: Tab does not reach a point of the first chart`];
	if (!t.visible || t.tip !== t.title)
		problems.push(`${f}: Tab to a point shows "${t.tip}", not its words "${t.title}"`);
	if (n > 1) {
		const first = t.title;
		await page.keyboard.press('ArrowRight');
		t = await page.evaluate(tipOf);
		if (!t.point || t.title === first || t.tip !== t.title)
			problems.push(`${f}: the right arrow does not move to the next point and show its words`);
	}
	await page.keyboard.press('Escape');
	// A tap on the last point of the first chart, once the drawings
	// loaded lazily around it have taken their place.
	const last = () => {
		const pts = document.querySelectorAll('figure.chart')[0].querySelectorAll('.chart-points [tabindex]');
		return pts[pts.length - 1];
	};
	await page.evaluate((f) => eval(f)().scrollIntoView({ block: 'center' }), '(' + last + ')');
	await page.waitForFunction(() => [...document.images].every((i) => i.complete ||
		Math.abs(i.getBoundingClientRect().top) > 2 * innerHeight), { timeout: 5000 })
		.catch(() => {});
	const box = await page.evaluate((f) => {
		const p = eval(f)();
		p.scrollIntoView({ block: 'center' });
		const r = p.getBoundingClientRect();
		return { x: r.x + r.width / 2, y: r.y + Math.min(r.height / 2, 4) };
	}, '(' + last + ')');
	const url = page.url();
	await page.touchscreen.tap(box.x, box.y);
	await new Promise((r) => setTimeout(r, 50));
	if (page.url() !== url)
		problems.push(`${f}: a tap on a chart leaves the page for ${page.url()}`);
	t = await page.evaluate(tipOf);
	if (!t.point || !t.visible || t.tip !== t.title)
		problems.push(`${f}: a tap on a point shows "${t.tip}"` + (t.point ? `, not "${t.title}"` : ' and focuses no point'));
	return problems;
}

async function main() {
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'check-phone-'));
	const browser = await puppeteer.launch({
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
		headless: true,
		userDataDir: profile,
		args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
			'--disable-background-networking', '--disable-component-update',
			'--disable-sync', '--hide-scrollbars'],
	});
	let wide = 0, widest = 0, chartPages = 0, chartFailed = 0;
	try {
		const page = await browser.newPage();
		await page.setRequestInterception(true);
		page.on('request', (r) => (r.url().startsWith('file:') ? r.continue() : r.abort()));
		await page.setViewport({ width, height: 800, isMobile: true, hasTouch: true });
		for (const f of pages) {
			await page.goto('file://' + path.join(site, f), { waitUntil: 'load' });
			const r = await page.evaluate(measure);
			widest = Math.max(widest, r.w);
			if (r.w > r.vw) {
				wide++;
				console.log(`  FAIL ${f}: ${r.w} px wide at ${r.vw} px` + (r.worst ? `: ${r.worst}` : ''));
			} else if (process.env.CHECK_PHONE_ALL) {
				console.log(`  ${f}: ${r.w} x ${r.h} px`);
			}
			if (f === 'book.html')
				continue;
			await page.goto('file://' + path.join(site, f), { waitUntil: 'load' });
			const problems = await charts(page, f);
			chartPages += await page.$('figure.chart .chart-points') ? 1 : 0;
			for (const p of problems)
				console.log('  FAIL ' + p);
			chartFailed += problems.length ? 1 : 0;
		}
	} finally {
		await browser.close();
		fs.rmSync(profile, { recursive: true, force: true });
	}
	console.log(`phone: ${pages.length} pages at ${width} px, ${wide} wider (the widest ${widest} px); ` +
		`charts on ${chartPages} page${chartPages === 1 ? "" : "s"} answer Tab, arrows and a tap` +
		(chartFailed ? `, except on ${chartFailed}` : ''));
	return wide || chartFailed ? 1 : 0;
}

main().then((rc) => process.exit(rc), (e) => {
	console.error('check-phone: ' + (e && e.stack || e));
	process.exit(2);
});
