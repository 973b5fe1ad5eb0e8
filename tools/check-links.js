#!/usr/bin/env node
// check-links SITE: every link and embedded file of every page of a static
// site, offline. A local target must exist, and its #fragment must name an
// id on the target page. Pages must not load anything from elsewhere.
'use strict';
const fs = require('fs');
const path = require('path');

const site = path.resolve(process.argv[2] || 'site');
const entities = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'" };
const decode = (s) => s.replace(/&(#?\w+);/g, (m, e) => entities[e] ?? m);

function walk(dir) {
	return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
		const p = path.join(dir, d.name);
		return d.isDirectory() ? walk(p) : [p];
	});
}

const files = walk(site);
const pages = files.filter((f) => f.endsWith('.html'));
const ids = new Map();
function idsOf(file) {
	if (!ids.has(file)) {
		const html = fs.readFileSync(file, 'utf8');
		const set = new Set();
		for (const m of html.matchAll(/\sid="([^"]*)"/g))
			set.add(decode(m[1]));
		ids.set(file, set);
	}
	return ids.get(file);
}

const problems = [];
let links = 0, external = 0;
for (const page of pages) {
	const html = fs.readFileSync(page, 'utf8');
	const rel = path.relative(site, page);
	// Attributes inside tags only: escaped text in code cannot match.
	for (const tag of html.matchAll(/<([a-zA-Z][\w-]*)\b[^>]*>/g)) {
		for (const m of tag[0].matchAll(/\s(href|src)="([^"]*)"/g)) {
			const attr = m[1], url = decode(m[2]);
			links++;
			if (/^(mailto|data):/i.test(url))
				continue;
			if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(url)) {
				external++;
				if (tag[1] !== 'a')
					problems.push(`${rel}: <${tag[1]} ${attr}="${url}"> loads from elsewhere`);
				continue;
			}
			const hash = url.indexOf('#');
			const file = decodeURIComponent(hash < 0 ? url : url.slice(0, hash)).replace(/\?.*/, '');
			const raw = hash < 0 ? null : url.slice(hash + 1);
			const frag = raw === null ? null : decodeURIComponent(raw);
			const target = file ? path.resolve(path.dirname(page), file) : page;
			if (!target.startsWith(site + path.sep) && target !== site) {
				problems.push(`${rel}: ${url} points outside the site`);
				continue;
			}
			let st = null;
			try { st = fs.statSync(target); } catch (e) { /* missing */ }
			if (!st || !st.isFile()) {
				problems.push(`${rel}: ${url}: no such file`);
				continue;
			}
			// As a browser finds a fragment: as written, then percent-decoded.
			if (frag && target.endsWith('.html') && !idsOf(target).has(raw) &&
			    !idsOf(target).has(frag))
				problems.push(`${rel}: ${url}: no id "${frag}" in ${path.relative(site, target)}`);
		}
	}
}
for (const p of problems)
	console.log('  ' + p);
console.log(`links: ${pages.length} pages, ${links} links (${external} external, not followed), ` +
	`${problems.length} broken`);
process.exit(problems.length ? 1 : 0);
