/**
 * The report's page script, inlined: sorts the packet table when a header is clicked and
 * filters its rows by status and text. It reads only the page (sort keys from `data-v`),
 * loads nothing, and is the only script the page's Content-Security-Policy lets run.
 *
 * @module
 */

/**
 * The SHA-256 of {@link SCRIPT} (base64), the page's Content-Security-Policy hash. A constant,
 * so the report renders with no crypto module on any platform; a test recomputes it from the
 * script, so the two cannot drift apart.
 */
export const SCRIPT_SHA256 = '+9yNZiugxYVPAxWfWKhdUYSfvB6YcJDqJ1hMGufmgok='

/** The JavaScript of the report page. @category constants */
export const SCRIPT = `(function () {
  'use strict';
  var table = document.getElementById('packets');
  if (!table) return;
  var body = table.tBodies[0];
  var rows = Array.prototype.slice.call(body.rows);
  var boxes = Array.prototype.slice.call(document.querySelectorAll('#status-filter input'));
  var search = document.getElementById('text-filter');
  var count = document.getElementById('visible-count');
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);

  function key(row, col, numeric) {
    var v = row.cells[col].getAttribute('data-v');
    if (v === null || v === '') return null;
    return numeric ? Number(v) : v.toLowerCase();
  }

  function sortBy(th) {
    var col = heads.indexOf(th);
    var numeric = th.getAttribute('data-sort') === 'num';
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    heads.forEach(function (h) { h.setAttribute('aria-sort', 'none'); });
    th.setAttribute('aria-sort', dir === 1 ? 'ascending' : 'descending');
    var sorted = rows.slice().sort(function (a, b) {
      var x = key(a, col, numeric), y = key(b, col, numeric);
      // empty cells go last in both directions; ties keep the build's order
      if (x === null || y === null) return (x === null) - (y === null) || a.dataset.index - b.dataset.index;
      var c = x < y ? -1 : x > y ? 1 : 0;
      return c * dir || a.dataset.index - b.dataset.index;
    });
    sorted.forEach(function (r) { body.appendChild(r); });
  }

  function filter() {
    var on = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    var q = search.value.trim().toLowerCase();
    var shown = 0;
    rows.forEach(function (r) {
      var show = on.indexOf(r.dataset.status) >= 0 && (q === '' || r.textContent.toLowerCase().indexOf(q) >= 0);
      r.hidden = !show;
      if (show) shown++;
    });
    count.textContent = shown + ' of ' + rows.length;
  }

  // a link to a filtered-out row clears the filters, so following a link always lands
  function reveal() {
    var target = location.hash && document.getElementById(location.hash.slice(1));
    if (target && target.hidden) {
      boxes.forEach(function (b) { b.checked = true; });
      search.value = '';
      filter();
      target.scrollIntoView();
    }
  }

  heads.forEach(function (th) { th.querySelector('button').addEventListener('click', function () { sortBy(th); }); });
  boxes.forEach(function (b) { b.addEventListener('change', filter); });
  search.addEventListener('input', filter);
  window.addEventListener('hashchange', reveal);
  filter();
})();
`
