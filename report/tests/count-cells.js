// report/tests/count-cells.js - evaluated in the rendered page by
// report/tests/page.sh: per matrix (table.matrix: attacks-matrix, and
// NAME-matrix of each real JIT) and column group (data-run), the cells by the outcome
// their words say, the cells whose class disagrees with their words, the
// per-case marks, and the maps/smaps lines in the cells' details; then
// whether the attack matrix fits a 1920x1080 screen.  Returns
// "TABLE RUN landed blocked mixed error ran aborted unavailable disagree
// mark-landed mark-blocked mark-error maps-lines unsealed;...|fits RIGHT BOTTOM TOP",
// a column group without results as "TABLE RUN absent"
// (one string: bash reads it).
(function () {
	var said = function (t) {
		return /^LANDED/.test(t) ? 'LANDED' : /^mixed/.test(t) ? 'mixed' : /^ERROR/.test(t) ? 'ERROR' :
			/^RAN/.test(t) ? 'RAN' : /^ABORTED/.test(t) ? 'ABORTED' : /^n\/a/.test(t) ? 'UNAVAILABLE' :
			/^unsealed/.test(t) ? 'UNSEALED' : 'BLOCKED';
	};
	var out = [];
	document.querySelectorAll('table.matrix').forEach(function (m) {
		var runs = [], seen = {};
		m.querySelectorAll('td.c[data-run]').forEach(function (td) {
			if (!seen[td.dataset.run]) { seen[td.dataset.run] = 1; runs.push(td.dataset.run); }
		});
		runs.forEach(function (r) {
			var n = { LANDED: 0, BLOCKED: 0, mixed: 0, ERROR: 0, RAN: 0, ABORTED: 0, UNAVAILABLE: 0, UNSEALED: 0 };
			var disagree = 0, maps = 0;
			m.querySelectorAll('td.c[data-run="' + r + '"]').forEach(function (td) {
				var s = said(td.querySelector('.o').textContent.trim());
				n[s]++;
				if (!td.classList.contains(s.toLowerCase())) disagree++;
				var pre = td.querySelector('.why pre');
				if (pre) maps += (pre.textContent.match(/^ *s?maps (before|after): /mg) || []).length;
			});
			var q = function (s) { return m.querySelectorAll('td.c[data-run="' + r + '"] .run.' + s).length; };
			out.push([m.id, r, n.LANDED, n.BLOCKED, n.mixed, n.ERROR, n.RAN, n.ABORTED, n.UNAVAILABLE, disagree,
				q('landed'), q('blocked'), q('error'), maps, n.UNSEALED].join(' '));
		});
		// a column group without results (report.sh's absent runs): "absent"
		m.querySelectorAll('th.kernel.absent[data-absent]').forEach(function (th) {
			out.push([m.id, th.dataset.absent, 'absent'].join(' '));
		});
	});
	var a = document.getElementById('attacks-matrix');
	if (!a) return out.join(';') + '|fits none';
	document.getElementById('attacks').scrollIntoView();
	var b = a.getBoundingClientRect();
	return out.join(';') + '|fits ' + Math.ceil(b.right) + ' ' + Math.ceil(b.bottom) + ' ' + Math.floor(b.top);
})()
