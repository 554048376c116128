// report/tests/answer.js - evaluated in the rendered page by
// report/tests/page.sh (at 1440x900, scrolled to the top): whether the page
// opens with its answer (#answer before the first matrix, the answer table's
// bottom within the window), and the answer's blocked scenarios per kernel.
// Returns "before B bottom Y height H|KERNEL BLOCKED OF;..." (B: 1 when the
// answer comes first; BLOCKED and OF: "-" when the row has none).
(function () {
	window.scrollTo(0, 0);
	var a = document.getElementById('answer');
	var t = document.getElementById('answer-table');
	var m = document.querySelector('table.matrix');
	if (!a || !t) return 'before 0 bottom none height ' + window.innerHeight + '|';
	var before = m && (a.compareDocumentPosition(m) & Node.DOCUMENT_POSITION_FOLLOWING) ? 1 : 0;
	var rows = [];
	t.querySelectorAll('tbody tr[data-run]').forEach(function (tr) {
		var td = tr.querySelector('td[data-blocked]');
		rows.push([tr.dataset.run, td ? td.dataset.blocked : '-', td && td.dataset.of ? td.dataset.of : '-'].join(' '));
	});
	return 'before ' + before + ' bottom ' + Math.ceil(t.getBoundingClientRect().bottom) + ' height ' + window.innerHeight + '|' + rows.join(';');
})()
