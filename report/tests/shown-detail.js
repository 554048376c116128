// report/tests/shown-detail.js - evaluated by report/tests/page.sh after a
// click or a key on the cell marked data-probe: "picked" when the cell is
// marked as the one shown, "shown" when the panel under its matrix holds
// exactly the cell's detail, "maps" when that detail has maps lines.
(function () {
	var td = document.querySelector('td.c[data-probe]');
	if (!td) return 'no probed cell';
	td.removeAttribute('data-probe');
	var why = td.querySelector('.why');
	var section = td.closest('section');
	var panel = section ? section.querySelector('.detail') : null;
	var words = [td.classList.contains('picked') ? 'picked' : 'unpicked'];
	words.push(why && panel && panel.innerHTML === why.innerHTML ? 'shown' : 'not shown');
	if (panel && /s?maps (before|after): /.test(panel.textContent)) words.push('maps');
	// the panel in view, for page.sh's screenshot
	if (panel) panel.scrollIntoView({ block: 'end' });
	return words.join(' ');
})()
