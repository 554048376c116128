// report/tests/pick-cell.js - evaluated by report/tests/page.sh: marks the
// first attack cell whose detail has maps lines (data-probe), a BLOCKED one
// when there is one (its detail shows a seal holding), scrolls it to the
// middle of the screen and returns its centre "X Y", for a mouse click.
(function () {
	var pick = function (selector) {
		var cells = document.querySelectorAll(selector);
		for (var i = 0; i < cells.length; i++) {
			var pre = cells[i].querySelector('.why pre');
			if (pre && /^ *s?maps (before|after): /m.test(pre.textContent)) return cells[i];
		}
		return null;
	};
	var td = pick('#attacks-matrix td.c.blocked') || pick('#attacks-matrix td.c');
	if (!td) return 'none';
	td.setAttribute('data-probe', '1');
	td.scrollIntoView({ block: 'center', inline: 'center' });
	var r = td.getBoundingClientRect();
	return Math.round(r.left + r.width / 2) + ' ' + Math.round(r.top + r.height / 2);
})()
