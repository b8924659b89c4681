// The regression page's behaviour (flow/report_html.py inlines it): filter and sort the table of runs, copy a repro
// line. Plain JavaScript, no library, no network. The filter is kept in the address (#acc=..&dut=..&test=..&status=..)
// so that a filtered view can be bookmarked or sent, and so that the browser test can set it from the command line.
(function () {
    'use strict';
    var table = document.getElementById('runs');
    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var fields = ['acc', 'dut', 'test', 'status'];
    var input = {};
    fields.forEach(function (f) { input[f] = document.getElementById('f-' + f); });

    function apply() {
        var shown = 0;
        var test = input.test.value.trim().toLowerCase();
        rows.forEach(function (r) {
            var ok = (!input.acc.value || r.dataset.acc === input.acc.value) &&
                     (!input.dut.value || r.dataset.dut === input.dut.value) &&
                     (!input.status.value || r.dataset.status === input.status.value) &&
                     (!test || r.dataset.test.toLowerCase().indexOf(test) >= 0);
            r.hidden = !ok;
            if (ok) shown++;
        });
        document.getElementById('shown').textContent = shown;
        var q = fields.filter(function (f) { return input[f].value; }).map(function (f) {
            return f + '=' + encodeURIComponent(input[f].value);
        }).join('&');
        try { history.replaceState(null, '', q ? '#' + q : location.pathname + location.search); } catch (e) { /* file:// in some browsers */ }
    }

    function fromAddress() {
        location.hash.replace(/^#/, '').split('&').forEach(function (kv) {
            var p = kv.split('=');
            if (p.length === 2 && input[p[0]]) input[p[0]].value = decodeURIComponent(p[1]);
        });
    }

    fields.forEach(function (f) { input[f].addEventListener(f === 'test' ? 'input' : 'change', apply); });

    // Sorting: click a column head; again to reverse. Numbers sort by their data-v.
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
        th.addEventListener('click', function () {
            var col = +th.dataset.col, num = th.dataset.type === 'num';
            var dir = th.dataset.dir === 'up' ? -1 : 1;
            th.dataset.dir = dir === 1 ? 'up' : 'down';
            rows.sort(function (a, b) {
                var x = a.cells[col], y = b.cells[col];
                if (num) return dir * (parseFloat(x.dataset.v) - parseFloat(y.dataset.v));
                return dir * x.textContent.localeCompare(y.textContent);
            });
            rows.forEach(function (r) { table.tBodies[0].appendChild(r); });
        });
    });

    // Copy a repro line: the clipboard API where the page's origin allows it, else a selected text area.
    Array.prototype.forEach.call(document.querySelectorAll('button.copy'), function (b) {
        b.addEventListener('click', function () {
            var text = b.dataset.copy;
            function done() { b.textContent = 'copied'; setTimeout(function () { b.textContent = 'copy'; }, 1500); }
            function fallback() {
                var t = document.createElement('textarea');
                t.value = text;
                document.body.appendChild(t);
                t.select();
                try { document.execCommand('copy'); done(); } catch (e) { b.textContent = 'select and copy by hand'; }
                document.body.removeChild(t);
            }
            if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, fallback);
            else fallback();
        });
    });

    fromAddress();
    apply();
    document.body.dataset.ready = 'yes';   // the browser test waits for this
}());
