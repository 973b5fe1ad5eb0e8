/*
 * search.js - offline search over the chapters, for search.html only.
 *
 * The index, LABBOOK_INDEX, is written by labbook into search-index.js:
 * one entry per section, {u: page#id, n: chapter number, c: chapter title,
 * s: section title, t: its words}. Every word of the query must occur in a
 * section; sections whose titles hold the words rank first. Without
 * JavaScript the page lists every section instead, and the book reads the
 * same.
 */
(function () {
	'use strict';
	var index = window.LABBOOK_INDEX;
	var form = document.getElementById('search-form');
	var input = document.getElementById('q');
	var status = document.getElementById('search-status');
	var list = document.getElementById('search-results');
	if (!index || !form || !input || !status || !list)
		return;
	var fallback = list.cloneNode(true);
	var MAX = 50;

	index.forEach(function (e) {
		e.lt = e.t.toLowerCase();
		e.lh = (e.c + ' ' + e.s).toLowerCase();
	});

	function terms(q) {
		return q.toLowerCase().split(/\s+/).filter(function (w) { return w; });
	}

	function count(hay, w) {
		var n = 0;
		for (var i = hay.indexOf(w); i >= 0 && n < 20; i = hay.indexOf(w, i + w.length))
			n++;
		return n;
	}

	function score(e, ws) {
		var total = 0;
		for (var i = 0; i < ws.length; i++) {
			var inHead = e.lh.indexOf(ws[i]) >= 0, n = count(e.lt, ws[i]);
			if (!inHead && !n)
				return 0;
			total += (inHead ? 20 : 0) + n;
		}
		return total;
	}

	function escapeRe(s) {
		return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
	}

	/* Text with the query's words marked, built as nodes: nothing is parsed as HTML. */
	function marked(parent, text, ws) {
		var re = new RegExp('(' + ws.map(escapeRe).join('|') + ')', 'gi');
		text.split(re).forEach(function (part, i) {
			if (i % 2) {
				var m = document.createElement('mark');
				m.textContent = part;
				parent.appendChild(m);
			} else if (part) {
				parent.appendChild(document.createTextNode(part));
			}
		});
	}

	function snippet(e, ws) {
		var at = -1;
		ws.forEach(function (w) {
			var i = e.lt.indexOf(w);
			if (i >= 0 && (at < 0 || i < at))
				at = i;
		});
		if (at < 0)
			return e.t.slice(0, 200) + (e.t.length > 200 ? ' …' : '');
		var from = Math.max(0, at - 80), to = Math.min(e.t.length, at + 160);
		if (from > 0)
			from = e.t.indexOf(' ', from) + 1;
		var end = e.t.lastIndexOf(' ', to);
		if (to < e.t.length && end > at)
			to = end;
		return (from > 0 ? '… ' : '') + e.t.slice(from, to) +
			(to < e.t.length ? ' …' : '');
	}

	function result(e, ws) {
		var li = document.createElement('li');
		var a = document.createElement('a');
		a.href = e.u;
		var where = document.createElement('span');
		where.className = 'where';
		where.textContent = e.n + ' · ' + e.c;
		a.appendChild(where);
		a.appendChild(document.createTextNode(' '));
		var title = document.createElement('span');
		title.className = 'title';
		marked(title, e.s || e.c, ws);
		a.appendChild(title);
		li.appendChild(a);
		var p = document.createElement('p');
		marked(p, snippet(e, ws), ws);
		li.appendChild(p);
		return li;
	}

	function show(q) {
		var ws = terms(q);
		list.replaceChildren();
		if (!ws.length) {
			list.className = fallback.className;
			Array.prototype.forEach.call(fallback.cloneNode(true).childNodes,
				function (n) { list.appendChild(n); });
			status.textContent = 'Type a word or two to search the ' +
				index.length + ' sections of the book.';
			return;
		}
		var hits = index.map(function (e, i) {
			return {e: e, s: score(e, ws), i: i};
		}).filter(function (h) { return h.s > 0; });
		hits.sort(function (x, y) { return y.s - x.s || x.i - y.i; });
		list.className = 'search-results hits';
		hits.slice(0, MAX).forEach(function (h) { list.appendChild(result(h.e, ws)); });
		status.textContent = hits.length ?
			hits.length + (hits.length > 1 ? ' sections match' : ' section matches') +
			' “' + q.trim() + '”' + (hits.length > MAX ? '; the first ' + MAX + ' are shown.' : '.') :
			'No section holds every word of “' + q.trim() + '”.';
	}

	var q = new URLSearchParams(window.location.search).get('q') || '';
	input.value = q;
	show(q);
	var timer = 0;
	input.addEventListener('input', function () {
		clearTimeout(timer);
		timer = setTimeout(function () { show(input.value); }, 120);
	});
	form.addEventListener('submit', function (ev) {
		ev.preventDefault();
		show(input.value);
		try {
			window.history.replaceState(null, '', '?q=' + encodeURIComponent(input.value));
		} catch (err) {
			/* file: pages may refuse; the results are shown all the same */
		}
	});
})();
