// report/cell.js - click (or Enter on) a matrix cell: its reason and each
// case's detail appear in the panel under its matrix.  Inlined by report.sh.
(function () {
	var picked = null;
	function show(td) {
		var why = td.querySelector('.why');
		var section = td.closest('section');
		var panel = section ? section.querySelector('.detail') : null;
		if (!why || !panel) return;
		if (picked) picked.classList.remove('picked');
		picked = td;
		td.classList.add('picked');
		panel.innerHTML = why.innerHTML;
	}
	document.addEventListener('click', function (e) {
		var td = e.target.closest ? e.target.closest('td.c') : null;
		if (td) show(td);
	});
	document.addEventListener('keydown', function (e) {
		if ((e.key === 'Enter' || e.key === ' ') && document.activeElement &&
		    document.activeElement.matches('td.c')) {
			e.preventDefault();
			show(document.activeElement);
		}
	});
})();
