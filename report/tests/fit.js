// report/tests/fit.js - evaluated in the rendered page by report/tests/page.sh,
// at each window size it checks: how wide the page is against the window
// (a page wider than the window scrolls sideways), and for each matrix's
// box (div.matrix-box) its right edge, and where its heads are once the box
// is scrolled to its far right and bottom: the last row's name against the
// box's left edge, the head rows against its top, the last cell against its
// right edge (everything reachable).  Returns
// "page SCROLL-WIDTH WINDOW-WIDTH|ID right R sx SX sy SY rowhead DX head DY last DL;..."
// (DX, DY: 0 when the heads stayed put; DL <= 0 when the last cell is in the
// box; SX, SY: how far the box scrolled, 0 when it did not need to).
(function () {
	var out = [];
	document.querySelectorAll('div.matrix-box').forEach(function (box) {
		var m = box.querySelector('table.matrix');
		if (!m) return;
		var rows = m.querySelectorAll('tbody tr th[scope=row]');
		var name = rows[rows.length - 1];
		var cells = name ? name.parentNode.querySelectorAll('td') : [];
		var last = cells[cells.length - 1];
		var head = m.querySelector('thead');
		box.scrollLeft = box.scrollWidth;
		box.scrollTop = box.scrollHeight;
		var b = box.getBoundingClientRect();
		var dx = name ? Math.round(name.getBoundingClientRect().left - b.left) : 'none';
		var dy = head ? Math.round(head.getBoundingClientRect().top - b.top) : 'none';
		var dl = last ? Math.ceil(last.getBoundingClientRect().right - b.right) : 'none';
		out.push([m.id, 'right', Math.ceil(b.right), 'sx', Math.round(box.scrollLeft), 'sy', Math.round(box.scrollTop),
			'rowhead', dx, 'head', dy, 'last', dl].join(' '));
		box.scrollLeft = 0;
		box.scrollTop = 0;
	});
	return 'page ' + document.documentElement.scrollWidth + ' ' + window.innerWidth + '|' + out.join(';');
})()
