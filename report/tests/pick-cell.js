// report/tests/pick-cell.js - evaluated by report/tests/page.sh: marks the
// first attack cell whose detail has maps lines (data-probe), scrolls it to
// the middle of the screen and returns its centre "X Y", for a mouse click.
(function () {
	var cells = document.querySelectorAll('#attacks-matrix td.c');
	for (var i = 0; i < cells.length; i++) {
		var pre = cells[i].querySelector('.why pre');
		if (pre && /^ *s?maps (before|after): /m.test(pre.textContent)) {
			cells[i].setAttribute('data-probe', '1');
			cells[i].scrollIntoView({ block: 'center', inline: 'center' });
			var r = cells[i].getBoundingClientRect();
			return Math.round(r.left + r.width / 2) + ' ' + Math.round(r.top + r.height / 2);
		}
	}
	return 'none';
})()
