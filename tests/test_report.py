#!/usr/bin/env python3
"""The regression's page in a real browser (issue 40), run by `make test` after the smoke regression:
  - smoke: headless Chromium (Debian's, networking off: its own network namespace when `unshare -n` works, and
    every host mapped to nothing, a dead proxy) loads build/regress/smoke/index.html from file://; through its
    DOM, the counts, wall time, base seed, buckets, expected failures and every run's status equal results.json's;
    every link resolves to an existing file; nothing is fetched from anywhere (no http(s) URL, a
    Content-Security-Policy that forbids fetches); the filter (set in the address, applied by the page's script)
    shows exactly the runs it should;
  - controls: the page's own controls driven as a user drives them (a copy of the smoke page with a script
    appended that types a test's name into the test filter, picks a status and clicks a column head twice, through
    DOM events): the counts shown after each step and the table's order equal what results.json gives;
  - nights: three small regressions in a row under one name with their own history file (a temporary folder),
    the second with a fault injected into one entry: the third's page shows that bucket first and last on
    night 2 and fixed, the first night's bucket list empty, and its plots draw three nights; the second's page
    shows it new, with links to its log, FST window and .gtkw that exist.
Needs `make build` and the smoke regression (make test runs it first); about 20 s.
  - the history's rules (no browser): other names and unreadable lines left out, older pages, appends once.
    python3 -m tests.test_report [history|smoke|controls|nights]"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from flow import regress
from tests.checklib import Checks

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TMP = os.path.join(ROOT, 'build', 'test_report')   # the nights' lists (inside the checkout: list paths are relative)
NIGHTS_NAME = 'test_report_nights'
T = Checks('test_report')
check = T.check
VOID = {'area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr'}


class Dom(HTMLParser):
    """The dumped DOM as a flat list of elements: {tag, attrs, text} (text: everything inside it)."""

    def __init__(self, text):
        super().__init__()
        self.elements, self.stack = [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        el = {'tag': tag, 'attrs': {k: (v if v is not None else '') for k, v in attrs}, 'parts': []}
        self.elements.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_endtag(self, tag):
        while self.stack:
            el = self.stack.pop()
            if el['tag'] == tag:
                break

    def handle_data(self, data):
        for el in self.stack:
            el['parts'].append(data)

    def all(self, tag=None, **attrs):
        return [el for el in self.elements if (tag is None or el['tag'] == tag)
                and all(el['attrs'].get(k.replace('_', '-')) == v for k, v in attrs.items())]

    def by_id(self, i):
        found = [el for el in self.elements if el['attrs'].get('id') == i]
        return found[0] if found else None

    def text(self, i):
        el = self.by_id(i)
        return ''.join(el['parts']).strip() if el else None


def chromium():
    return shutil.which('chromium') or shutil.which('chromium-browser')


def isolated():
    """['unshare', '-n'] when this machine lets us run Chromium in a network namespace of its own (no interface
    but loopback, which is down), else [] (the flags below still send every connection nowhere)."""
    try:
        ok = subprocess.run(['unshare', '-n', 'true'], capture_output=True).returncode == 0
    except OSError:
        ok = False
    return ['unshare', '-n'] if ok else []


def dump_dom(page, fragment=''):
    """The page's DOM after its script ran, as Chromium serialises it (headless, offline, a profile of its own)."""
    with tempfile.TemporaryDirectory() as profile:
        cmd = [*isolated(), chromium(), '--headless', '--disable-gpu', '--no-first-run', '--disable-extensions',
               f'--user-data-dir={profile}', '--proxy-server=127.0.0.1:9', "--host-resolver-rules=MAP * ~NOTFOUND",
               '--dump-dom', 'file://' + os.path.abspath(page) + fragment]
        if os.geteuid() == 0:   # Chromium's sandbox refuses root
            cmd.insert(cmd.index('--headless'), '--no-sandbox')
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def load(page, fragment=''):
    rc, out, err = dump_dom(page, fragment)
    dom = Dom(out)
    ok = rc == 0 and dom.all('body', data_ready='yes')
    check(ok, f"Chromium loads {os.path.relpath(page, ROOT)}{fragment} and its script runs", err)
    return dom if ok else None


def links_resolve(dom, page, what):
    """Every href of the page names an existing file (relative to the page), no fetch leaves the machine."""
    here = os.path.dirname(page)
    bad, remote = [], []
    for el in dom.elements:
        for attr in ('href', 'src'):
            v = el['attrs'].get(attr)
            if v is None or v.startswith('#'):
                continue
            u = urlsplit(v)
            if u.scheme in ('http', 'https') or v.startswith('//'):
                remote.append(v)
                continue
            path = unquote(u.path) if u.scheme == 'file' else os.path.join(here, unquote(u.path))
            if not os.path.isfile(path):
                bad.append(v)
    n = sum(1 for el in dom.elements if el['attrs'].get('href', '#')[:1] != '#')
    check(n > 0 and not bad, f"{what}: all {n} links resolve to existing files", '\n'.join(bad[:10]))
    check(not remote, f"{what}: nothing from the network (no http(s) URL)", '\n'.join(remote[:10]))
    csp = [el for el in dom.all('meta') if el['attrs'].get('http-equiv', '').lower() == 'content-security-policy']
    check(csp and "default-src 'none'" in csp[0]['attrs'].get('content', ''),
          f"{what}: its Content-Security-Policy forbids every fetch")


def visible_runs(dom):
    return [el for el in dom.elements if el['tag'] == 'tr' and 'data-status' in el['attrs']
            and 'hidden' not in el['attrs']]


def smoke_page():
    """The smoke regression's page and its results.json, or (None, None) when make test has not run it."""
    outdir = os.path.join(ROOT, 'build', 'regress', 'smoke')
    page = os.path.join(outdir, 'index.html')
    if not check(os.path.exists(page), 'the smoke regression wrote its page (make test runs it first)', page):
        return None, None
    with open(os.path.join(outdir, 'results.json')) as f:
        return page, json.load(f)


def smoke():
    page, res = smoke_page()
    if page is None:
        return
    outdir = os.path.dirname(page)
    dom = load(page)
    if dom is None:
        return
    runs = res['runs']
    want = {'runs': len(runs), **{s.lower(): sum(r['status'] == s for r in runs)
                                  for s in ('PASS', 'FAIL', 'SKIP', 'XFAIL', 'XPASS')}}
    shown = {k: dom.text(f'n-{k}') for k in want}
    check(shown == {k: str(v) for k, v in want.items()}, f"the counts shown equal results.json's {want}", str(shown))
    check(dom.by_id('wall')['attrs'].get('data-s') == f"{res['wall_s']:.3f}" and
          dom.text('base-seed') == str(res['base_seed']), 'wall time and base seed equal results.json\'s')
    rows = {el['parts'][0].strip(): el['attrs']['data-status'] for el in visible_runs(dom)}
    check(rows == {r['id']: r['status'] for r in runs}, f"the table has every run ({len(runs)}) with its status")
    bk = [int(el['attrs']['data-count']) for el in dom.all('li') if 'bucket' in el['attrs'].get('class', '').split()]
    check(bk == [b['count'] for b in res['buckets']], f"the buckets shown equal results.json's ({len(bk)})")
    xf = {}
    for r in runs:
        for d in r.get('deviations', []) if r['status'] == 'XFAIL' else []:
            xf[d] = xf.get(d, 0) + 1
    got = {el['attrs']['data-dev']: int(el['attrs']['data-n']) for el in dom.all('li') if 'data-dev' in el['attrs']}
    check(got == xf, f"expected failures by deviation equal results.json's {xf}", str(got))
    cov = [el['attrs']['id'][4:] for el in dom.all('div') if el['attrs'].get('id', '').startswith('cov-')]
    cov_dir = os.path.join(outdir, 'cov')
    have = sorted({n.split('_')[0] for n in os.listdir(cov_dir)}) if os.path.isdir(cov_dir) else []
    check(sorted(cov) == have, f"functional coverage shown for each accelerator with bins {have}", str(cov))
    links_resolve(dom, page, 'smoke page')
    # The filter: set in the address, applied by the page's script; one accelerator's passed runs, then a test.
    acc = sorted({r['acc'] for r in runs})[0]
    n = sum(r['acc'] == acc and r['status'] == 'PASS' for r in runs)
    f = load(page, f'#acc={acc}&status=PASS')
    if f is not None:
        vis = visible_runs(f)
        check(len(vis) == n and f.text('shown') == str(n) and 0 < n < len(runs) and
              all(el['attrs']['data-acc'] == acc and el['attrs']['data-status'] == 'PASS' for el in vis),
              f"the filter accelerator={acc}, status=PASS shows exactly its {n} of {len(runs)} runs",
              f"shown {f.text('shown')}, visible rows {len(vis)}")
    n = sum('bdma' in regress.test_name(r) for r in runs)   # what the page names each run's test
    f = load(page, '#test=bdma')
    if f is not None:
        check(len(visible_runs(f)) == n and f.text('shown') == str(n),
              f"the filter test=bdma shows exactly its {n} runs", f.text('shown'))


# Appended to a copy of the smoke page, after the page's own script: it drives the controls through the same DOM
# events a user's typing, choosing and clicking fire, and leaves what the page showed after each step in
# body[data-controls] for the test to read from the dumped DOM.
DRIVE_CONTROLS = """<script>(function () {
    var out = {}, shown = function () { return document.getElementById('shown').textContent; };
    var cycles = function () {
        return Array.prototype.map.call(document.getElementById('runs').tBodies[0].rows,
                                        function (r) { return +r.cells[6].dataset.v; });
    };
    var t = document.getElementById('f-test');
    t.value = %TEST%;
    t.dispatchEvent(new Event('input'));
    out.typed = shown();
    var s = document.getElementById('f-status');
    s.value = 'PASS';
    s.dispatchEvent(new Event('change'));
    out.chosen = shown();
    var th = document.querySelector('#runs th[data-col="6"]');
    th.click();
    out.up = cycles();
    th.click();
    out.down = cycles();
    out.shownAfterSort = shown();
    document.body.dataset.controls = JSON.stringify(out);
}());</script>"""


def controls():
    page, res = smoke_page()
    if page is None:
        return
    runs = res['runs']
    with open(page) as f:
        html = f.read()
    if not check(html.count('</body>') == 1, 'the page has one </body> to append the driving script before'):
        return
    # A test that some runs have and others have not: the smoke list's most frequent test under all runs.
    names = sorted({regress.test_name(r) for r in runs}, key=lambda t: -sum(regress.test_name(r) == t for r in runs))
    name = next((t for t in names if 0 < sum(t in regress.test_name(r) for r in runs) < len(runs)), '')
    copy = os.path.join(TMP, 'controls.html')
    os.makedirs(TMP, exist_ok=True)
    with open(copy, 'w') as f:
        f.write(html.replace('</body>', DRIVE_CONTROLS.replace('%TEST%', json.dumps(name)) + '</body>'))
    dom = load(copy)
    body = dom.all('body') if dom else []
    got = json.loads(body[0]['attrs'].get('data-controls', '{}')) if body else {}
    if not check(got, 'the driving script ran after the page\'s own and left what the page showed'):
        return
    match = [r for r in runs if name and name in regress.test_name(r)]
    n_pass = sum(r['status'] == 'PASS' for r in match)
    check(got['typed'] == str(len(match)) and 0 < len(match) < len(runs),
          f"typing '{name}' into the test filter shows its {len(match)} runs", f"shown {got['typed']}")
    check(got['chosen'] == str(n_pass) and got['shownAfterSort'] == str(n_pass),
          f"choosing status PASS then shows {n_pass}, and sorting keeps the filter",
          f"shown {got['chosen']}, after sorting {got['shownAfterSort']}")
    cyc = sorted(r['cycles'] for r in runs)
    check(got['up'] == cyc and got['down'] == cyc[::-1] and len(set(cyc)) > 1,
          f"a click on 'cycles' sorts all {len(runs)} runs by cycles, a second click reverses it")
    os.remove(copy)


NIGHT_LIST = """# tests/test_report.py: night {n} of three{why}
nvdla test=reg_reset   1
nvdla test=bdma_sanity 1 +stall=0 +cov=build/cov/nvdla_nights/
nvdla test=bdma_random 1 +stall=0 +cov=build/cov/nvdla_nights/{fault}
"""


def nights():
    history = tempfile.mkdtemp(prefix='test_report_history_')
    try:
        pages = []
        for n in (1, 2, 3):
            fault = ' +fault=wdata_flip' if n == 2 else ''
            lst = os.path.join(TMP, f'night{n}.list')
            os.makedirs(TMP, exist_ok=True)
            with open(lst, 'w') as f:
                f.write(NIGHT_LIST.format(n=n, fault=fault, why=': a fault injected' if fault else ''))
            p = subprocess.run([sys.executable, '-m', 'flow.regress', '--list', os.path.relpath(lst, ROOT),
                                '--name', NIGHTS_NAME, '--jobs', '2', '--history',
                                os.path.join(history, 'history.jsonl')], cwd=ROOT, capture_output=True, text=True)
            check(p.returncode == (1 if fault else 0), f"night {n}: the regression {'fails' if fault else 'passes'}",
                  p.stdout + p.stderr)
            page = os.path.join(ROOT, 'build', 'regress', NIGHTS_NAME, 'index.html')
            kept = os.path.join(history, f'night{n}')   # the folder is emptied by the next night: keep this one
            shutil.copytree(os.path.dirname(page), kept)
            pages.append(os.path.join(kept, 'index.html'))
        with open(os.path.join(history, 'history.jsonl')) as f:
            recs = [json.loads(line) for line in f]
        check(len(recs) == 3 and [len(r['buckets']) for r in recs] == [0, 1, 0],
              'the history file has three records, a bucket on night 2 only', json.dumps(recs)[:800])
        d2 = load(pages[1])
        if d2 is not None:
            hb = d2.all('tr', data_state='new')
            check(len(hb) == 1 and hb[0]['attrs']['data-first'] == '2', "night 2's page: the bucket is new on night 2")
            links_resolve(d2, pages[1], "night 2's page")
            hrefs = [el['attrs'].get('href', '') for el in d2.elements if el['tag'] == 'a']
            check(any(h.endswith('.fst') for h in hrefs) and any(h.endswith('.gtkw') for h in hrefs) and
                  any(h.startswith('logs/') for h in hrefs), "night 2's bucket links its log, FST window and .gtkw")
        d3 = load(pages[2])
        if d3 is None:
            return
        hb = d3.all('tr', data_state='fixed')
        check(len(hb) == 1 and hb[0]['attrs']['data-first'] == '2' and hb[0]['attrs']['data-last'] == '2',
              "night 3's page: the bucket appeared on night 2 and was last seen on night 2",
              str([el['attrs'] for el in d3.all('tr') if 'data-state' in el['attrs']]))
        fixed = [el for el in d3.elements if el['tag'] == 'li' and 'MISMATCH' in ''.join(el['parts'])]
        check(d3.text('new-buckets') == '' and len(fixed) == 1, "night 3's page: fixed since night 2, nothing new")
        check(d3.by_id('history')['attrs'].get('data-nights') == '3', "night 3's page shows three nights")
        for pid in ('plot-counts', 'plot-wall', 'plot-cov'):
            svg = d3.by_id(pid)
            check(svg is not None and svg['attrs'].get('data-nights') == '3', f"{pid} draws three nights")
        pts = [el for el in d3.all('circle') if el['attrs'].get('class', '').startswith('pt ')]
        fails = [el['attrs']['data-v'] for el in pts if 'pt-FAIL' in el['attrs']['class'].split()]
        walls = [el for el in d3.all('circle') if 'pt-wall' in el['attrs'].get('class', '').split()]
        check(fails == ['0', '1', '0'] and len(walls) == 3, 'the plots: one failed run on night 2 only, three wall '
              'times', str(fails))
    finally:
        shutil.rmtree(history, ignore_errors=True)
        shutil.rmtree(TMP, ignore_errors=True)


def history_rules():
    """The history's rules without a browser: other names and unreadable lines left out (the latter named
    file:line), a page of an older regression shows the nights up to it, a regression's record is appended once
    however often its page is written, a bucket's state on the last night."""
    from flow import report
    with tempfile.TemporaryDirectory() as d:
        h = os.path.join(d, 'history.jsonl')
        rec = lambda n, key, sigs: {'name': n, 'key': key, 'counts': {}, 'buckets': [{'signature': x} for x in sigs]}  # noqa: E731
        with open(h, 'w') as f:
            lines = [json.dumps(rec('a', 'k1', ['s1', 's2'])), json.dumps(rec('b', 'k9', [])), '{"name": "a", tru',
                     json.dumps(rec('a', 'k2', ['s2', 's3'])), json.dumps(rec('a', 'k3', []))]
            f.write('\n'.join(lines) + '\n')
        recs, warn = report.read_history(h, 'a')
        check([r['key'] for r in recs] == ['k1', 'k2', 'k3'] and warn == [f"{h}:3: not a history record, skipped"],
              "history: another name's records and an unreadable line (named file:line) are left out", str(warn))
        shown, prov = report.nights(recs, rec('a', 'k2', []), 14)
        check([n['key'] for n in shown] == ['k1', 'k2'] and [n['night'] for n in shown] == [1, 2] and not prov,
              "history: the page of an older regression shows the nights up to it")
        shown, prov = report.nights(recs, rec('a', 'k4', []), 2)
        check([n['night'] for n in shown] == [3, 4] and prov, 'history: the last N nights, numbered in the whole '
              'history; a regression not in the file is shown as its last night, marked provisional')
        states = {b['signature']: (b['state'], b['first'], b['last'])
                  for b in report.bucket_history(report.nights(recs[:2], recs[1], 14)[0])}
        check(states == {'s1': ('fixed', 1, 1), 's2': ('open', 1, 2), 's3': ('new', 2, 2)},
              'history: buckets new, still open and fixed since the night before', str(states))
        out = os.path.join(d, 'regress', 'x')
        os.makedirs(out)
        with open(os.path.join(out, 'results.json'), 'w') as f:
            json.dump({'name': 'x', 'base_seed': 1, 'wall_s': 1.0, 'buckets': [], 'runs': []}, f)
        for _ in range(2):
            report.publish(out, h, append=True)
        recs, _ = report.read_history(h, 'x')
        check(len(recs) == 1 and os.path.exists(os.path.join(out, 'index.html')),
              "history: a regression's record is appended once however often its page is written")


def main(argv):
    if not check(chromium() is not None, 'headless Chromium is installed (flow/setup/install_deps.sh: chromium)'):
        return T.summary()
    print(f"browser: {chromium()}, network: {'own namespace (unshare -n)' if isolated() else 'dead proxy, no DNS'}")
    for name, fn in (('history', history_rules), ('smoke', smoke), ('controls', controls), ('nights', nights)):
        if not argv or name in argv:
            fn()
    return T.summary()


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
