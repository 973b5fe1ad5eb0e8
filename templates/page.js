/*
 * page.js - what a page does with JavaScript, each part for a reader who
 * cannot hover or has not found a fold; without it every page reads the
 * same, and loses only these.
 *
 * A chart's values on touch and keyboard. Every point (or bar) of a
 * chart's layer (.chart-hover, laid over the drawing by labbook) takes
 * focus and carries its value in an SVG <title>, which a mouse shows on
 * hover and a screen reader reads. This shows the focused point's words in
 * a tip beside it, so that a tap or Tab shows a value too. Each chart is
 * one stop of Tab: the arrow keys move between its points, Home and End go
 * to its first and last, Escape leaves. Without JavaScript every point
 * still takes focus and answers a hover, and the table under each chart
 * holds the same values.
 *
 * A link into a fold: the <details> that hold its target open, on load
 * and on each change of the #fragment (the Machines page folds its lists).
 */
(function () {
	'use strict';

	function chart(layer) {
		var pts = Array.prototype.slice.call(
			layer.querySelectorAll('.chart-points [tabindex]'));
		var frame = layer.parentNode;
		if (!pts.length || !frame)
			return;
		var tip = document.createElement('span');
		tip.className = 'chart-tip';
		/* The focused point's title is its accessible name already. */
		tip.setAttribute('aria-hidden', 'true');
		tip.hidden = true;
		frame.appendChild(tip);
		var current = 0;
		pts.forEach(function (p, i) { p.setAttribute('tabindex', i ? '-1' : '0'); });

		function show(i) {
			var p = pts[i], t = p.querySelector('title');
			pts[current].setAttribute('tabindex', '-1');
			p.setAttribute('tabindex', '0');
			current = i;
			tip.textContent = t ? t.textContent : '';
			tip.hidden = false;
			var f = frame.getBoundingClientRect(), r = p.getBoundingClientRect();
			var w = tip.offsetWidth, h = tip.offsetHeight;
			var x = r.left + r.width / 2 - f.left - w / 2;
			var y = r.top - f.top - h - 6;
			if (y < 0)
				y = r.bottom - f.top + 6;
			tip.style.left = Math.max(0, Math.min(x, f.width - w)) + 'px';
			tip.style.top = Math.max(0, Math.min(y, f.height - h)) + 'px';
		}

		layer.addEventListener('focusin', function (e) {
			var i = pts.indexOf(e.target);
			if (i >= 0)
				show(i);
		});
		layer.addEventListener('focusout', function () { tip.hidden = true; });
		/* A tap focuses the point under it, in every browser. */
		layer.addEventListener('click', function (e) {
			if (pts.indexOf(e.target) >= 0)
				e.target.focus();
		});
		layer.addEventListener('keydown', function (e) {
			var i = pts.indexOf(e.target), to = -1;
			if (i < 0)
				return;
			switch (e.key) {
			case 'ArrowRight': case 'ArrowDown': to = Math.min(i + 1, pts.length - 1); break;
			case 'ArrowLeft': case 'ArrowUp': to = Math.max(i - 1, 0); break;
			case 'Home': to = 0; break;
			case 'End': to = pts.length - 1; break;
			case 'Escape': e.target.blur(); e.preventDefault(); return;
			default: return;
			}
			e.preventDefault();
			pts[to].focus();
		});
	}

	Array.prototype.forEach.call(document.querySelectorAll('svg.chart-hover'), chart);

	function unfold() {
		var id = decodeURIComponent(location.hash.slice(1));
		var t = id && document.getElementById(id);
		if (!t)
			return;
		var opened = false;
		for (var d = t; d; d = d.parentElement)
			if (d.tagName === 'DETAILS' && !d.open)
				opened = d.open = true;
		if (opened)
			t.scrollIntoView();
	}
	window.addEventListener('hashchange', unfold);
	unfold();
})();
