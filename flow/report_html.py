"""The HTML of a regression's page (flow/report.py gathers the data): sections as functions, plots as inline SVG
drawn here, the style and script (flow/report_page.css, .js) inlined, so that the page is one offline file.
Elements the browser test reads (tests/test_report.py) carry ids and data- attributes; keep them stable."""
import html
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
# No fetch of any kind: inline style and script only, images as data: URIs. Links (navigation) stay allowed.
CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:"
SERIES = (('PASS', '#2a8a2a'), ('FAIL', '#c0392b'), ('SKIP', '#888888'), ('XFAIL', '#d68910'))
PALETTE = ('#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#8c564b')


def e(x):
    return html.escape(str(x), quote=True)


def asset(name):
    with open(os.path.join(HERE, name)) as f:
        return f.read()


def link(href, text):
    return f'<a href="{e(href)}">{e(text)}</a>' if href else ''


def names(r):
    """(accelerator@DUT, test) of a run, as the runner's report names them. flow.regress is imported here, not
    at the top: it imports flow.report, which imports this module."""
    from flow import regress
    return regress.acc_dut(r), regress.test_name(r)


def test_of(r):
    return names(r)[1]


def summary(d):
    c, res, env = d['counts'], d['res'], d['env']
    cells = ''.join(f'<td id="n-{k.lower()}" data-n="{c[k]}">{c[k]}</td>' for k in ('runs', *('PASS', 'FAIL',
                                                                                               'SKIP', 'XFAIL',
                                                                                               'XPASS')))
    skips = {}
    for r in res['runs']:
        if r['status'] == 'SKIP':
            skips.setdefault(r['reason'], []).append(r['id'])
    skip_rows = ''.join(f'<li><b>{len(ids)}</b> {e(why)} <span class="dim">({e(ids[0])}'
                        f'{", ..." if len(ids) > 1 else ""})</span></li>' for why, ids in sorted(skips.items()))
    xf = {}
    for r in res['runs']:
        if r['status'] == 'XFAIL':
            for dev in r.get('deviations', []):
                xf[dev] = xf.get(dev, 0) + 1
    xf_rows = ''.join(f'<li class="xfail-dev" data-dev="{e(k)}" data-n="{v}"><b>{v}</b> {e(k)}</li>'
                      for k, v in sorted(xf.items()))
    xpass = ''.join(f'<li>{e(r["id"])}: {e(r["reason"])}</li>' for r in res['runs'] if r['status'] == 'XPASS')
    dut_rows = ''.join(f'<tr><td>{e(x["acc"])}</td><td>{e(x["dut"])}</td><td>{x["ran"]} of {x["runs"]}</td>'
                       f'<td>{e(x["describe"])}</td><td>{e(x["source"])}</td></tr>' for x in d['duts'])
    shared = env['shared']
    note = f' <span class="dim">({e(env["note"])})</span>' if env.get('note') else ''
    verdict = 'FAILED' if c['FAIL'] + c['XPASS'] else 'PASSED'
    return f'''<section id="summary"><h2>Summary: <span id="verdict" class="{verdict.lower()}">{verdict}</span></h2>
<table class="counts"><tr><th>runs</th><th>passed</th><th>failed</th><th>skipped</th><th>expected failures (XFAIL)</th>
<th>XPASS</th></tr><tr>{cells}</tr></table>
<p>wall time <b id="wall" data-s="{res["wall_s"]:.3f}">{res["wall_s"]:.1f} s</b>; base seed
<b id="base-seed">{e(res["base_seed"])}</b>{" (drawn at random)" if res.get("seed_drawn") else ""}; list
<code>{e(res.get("list", "?"))}</code></p>
<p>Verilator <b id="verilator">{e(env["verilator"])}</b>; revision <b id="revision">{e(env["revision"])}</b>;
<code>../shared</code> <b id="shared">{"present" if shared["present"] else "absent"}</b>
{("(" + e(", ".join(shared["upstream"])) + ")") if shared["upstream"] else ""}; run {e(env["date"])}{note}</p>
<h3>DUTs</h3><table><tr><th>accelerator</th><th>DUT</th><th>runs</th><th>what</th><th>source</th></tr>{dut_rows}</table>
{f'<h3>Skipped, by reason</h3><ul id="skips">{skip_rows}</ul>' if skip_rows else ''}
{f'<h3>Expected failures, by deviation</h3><ul id="xfails">{xf_rows}</ul>' if xf_rows else ''}
{f'<h3>XPASS (the deviation list is out of date)</h3><ul id="xpass">{xpass}</ul>' if xpass else ''}
</section>'''


def buckets(d):
    res, href = d['res'], d['href']
    if not res['buckets']:
        return '<section id="buckets"><h2>Failure buckets</h2><p id="no-buckets">none</p></section>'
    items = []
    for i, b in enumerate(res['buckets'], 1):
        links = ' '.join(x for x in (link(href(b.get('log')), 'log'), link(href(b.get('wave')), 'FST window'),
                                     link(href(b.get('gtkw')), '.gtkw')) if x)
        window = (f' <span class="dim">(run {e(b["wave_run"])}, cycles {b["wave_window"][0]}..'
                  f'{b["wave_window"][1]})</span>' if b.get('wave_window') else '')
        items.append(f'''<li class="bucket" id="bucket-{i}" data-count="{b["count"]}">
<div><b class="count">{b["count"]} x</b> <code class="sig">{e(b["signature"])}</code></div>
<div>first: {e(b["first"])}</div>
<div class="repro"><code>{e(b["repro"])}</code>
<button type="button" class="copy" data-copy="{e(b["repro"])}">copy</button></div>
<div>{links}{window}</div></li>''')
    return (f'<section id="buckets"><h2>Failure buckets ({len(res["buckets"])}, most frequent first)</h2>'
            f'<ol>{"".join(items)}</ol></section>')


def runs_table(d):
    runs, href = d['res']['runs'], d['href']
    accs = sorted({r['acc'] for r in runs})
    dut_names = sorted({r.get('dut') or 'default' for r in runs})
    rows = []
    for r in runs:
        cps = r['cycles'] / r['wall_s'] if r['wall_s'] else 0
        dut = r.get('dut') or 'default'
        rows.append(f'<tr data-acc="{e(r["acc"])}" data-dut="{e(dut)}" data-test="{e(test_of(r))}" '
                    f'data-status="{r["status"]}"><td>{e(r["id"])}</td><td>{e(r["acc"])}</td><td>{e(dut)}</td>'
                    f'<td>{e(test_of(r))}</td><td data-v="{r["seed"]}">{r["seed"]}</td>'
                    f'<td class="st {r["status"].lower()}">{r["status"]}</td>'
                    f'<td data-v="{r["cycles"]}">{r["cycles"]}</td>'
                    f'<td data-v="{r["wall_s"]:.3f}">{r["wall_s"]:.2f}</td><td data-v="{cps:.0f}">{cps:.0f}</td>'
                    f'<td>{link(href(r.get("log")), "log")}</td><td class="reason">{e(r["reason"][:300])}</td></tr>')
    opts = lambda vals: '<option value="">all</option>' + ''.join(f'<option>{e(v)}</option>' for v in vals)  # noqa: E731
    heads = [('run', ''), ('accelerator', ''), ('DUT', ''), ('test', ''), ('seed', 'num'), ('status', ''),
             ('cycles', 'num'), ('wall s', 'num'), ('cycles/s', 'num'), ('log', ''), ('reason', '')]
    th = ''.join(f'<th data-col="{i}" data-type="{t}" title="click to sort">{h}</th>' for i, (h, t) in enumerate(heads))
    return f'''<section id="all-runs"><h2>Every run</h2>
<form id="filters" onsubmit="return false">accelerator <select id="f-acc">{opts(accs)}</select>
DUT <select id="f-dut">{opts(dut_names)}</select> test <input id="f-test" size="18" placeholder="part of the name">
status <select id="f-status">{opts(s for s in ('PASS', 'FAIL', 'SKIP', 'XFAIL', 'XPASS'))}</select>
<span>showing <b id="shown">{len(runs)}</b> of <b id="total">{len(runs)}</b></span></form>
<table id="runs"><thead><tr>{th}</tr></thead><tbody>{"".join(rows)}</tbody></table></section>'''


def cycles_table(d):
    groups = {}
    for r in d['res']['runs']:
        if r['status'] == 'SKIP':
            continue
        g = groups.setdefault(names(r), [0, 0, 0.0])
        g[0] += 1
        g[1] += r['cycles']
        g[2] += r['wall_s']
    rows = ''.join(f'<tr><td>{e(a)}</td><td>{e(t)}</td><td>{n}</td><td>{c}</td><td>{w:.2f}</td>'
                   f'<td>{(c / w if w else 0):.0f}</td></tr>' for (a, t), (n, c, w) in sorted(groups.items()))
    return (f'<section id="cycles"><h2>Cycles per test</h2><table id="cycles-table">'
            f'<tr><th>accelerator</th><th>test</th>'
            f'<th>runs</th><th>cycles</th><th>wall s</th><th>cycles/s</th></tr>{rows}</table></section>')


def coverage(d):
    parts = []
    for acc, a in d['coverage'].items():
        if 'error' in a:
            parts.append(f'<h3>{e(acc)}</h3><p class="fail">coverage not read: {e(a["error"])}</p>')
            continue
        rows = ''.join(
            f'<tr><td>{e(c["name"])}</td>'
            + (f'<td colspan="4">NOT RUN: {e(c["not_run"])}</td>' if c['not_run'] is not None
               else f'<td>{c["hit"]}</td><td>{c["waived"]}</td><td>{c["total"]}</td>'
               f'<td>{100.0 * (c["hit"] + c["waived"]) / c["total"]:.1f}%</td>')
            + f'<td class="holes">{e(" ".join(c["holes"][:40]))}{" ..." if len(c["holes"]) > 40 else ""}</td></tr>'
            for c in a['crosses'])
        waivers = ''.join(f'<tr><td>{e(w["cross"])}</td><td>{e(w["bin"])}</td><td>{e(w["reason"])}</td></tr>'
                          for w in a['waivers'])
        nholes = sum(len(h) for h in a['holes'].values())
        bad = ''.join(f'<li class="fail">{e(b)}</li>' for b in a['bad'])
        parts.append(f'''<div class="cov" id="cov-{e(acc)}" data-pct="{a["pct"]}"><h3>{e(acc)}: {a["pct"]:.1f}%
({a["hit"]} hit + {a["waived"]} waived of {a["total"]} bins, {nholes} hole(s), from {a["files"]} run(s))</h3>
{f"<ul>{bad}</ul>" if bad else ""}
<table><tr><th>cross</th><th>hit</th><th>waived</th><th>bins</th><th>%</th><th>holes (not waived)</th></tr>
{rows}</table>
<details><summary>{len(a["waivers"])} waiver(s) ({e(a["waiver_file"])})</summary>
<table><tr><th>cross</th><th>bin</th><th>reason</th></tr>{waivers}</table></details></div>''')
    lcov = (f'<p>Code coverage: <a id="lcov" href="{e(d["lcov"])}">lcov report</a> (make coverage)</p>' if d['lcov']
            else '<p>Code coverage: no lcov report (make coverage writes build/coverage/html/)</p>')
    body = ''.join(parts) or '<p>no functional-coverage bins in this regression</p>'
    return f'<section id="coverage"><h2>Functional coverage</h2>{body}{lcov}</section>'


def plot(pid, title, nights, series, unit=''):
    """A line plot, one point per night: series [(name, colour, [value per night])]. Each point is a <circle>
    with data-night and data-v (what the browser test counts)."""
    w, h, left, top, bottom = 480, 170, 48, 12, 28
    vals = [v for _, _, vs in series for v in vs]
    vmax = max(vals + [1e-9]) * 1.1
    n = len(nights)
    x = (lambda i: left + (w - left - 12) * (i / (n - 1) if n > 1 else 0.5))
    y = (lambda v: top + (h - top - bottom) * (1 - v / vmax))
    out = [f'<svg id="{pid}" class="plot" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" '
           f'aria-label="{e(title)}" data-nights="{n}"><title>{e(title)}</title>',
           f'<line x1="{left}" y1="{y(0):.1f}" x2="{w - 8}" y2="{y(0):.1f}" stroke="#999"/>',
           f'<text x="4" y="{top + 8}" class="ax">{vmax / 1.1:.4g}{unit}</text>',
           f'<text x="4" y="{y(0):.1f}" class="ax">0</text>']
    for i, nt in enumerate(nights):
        out.append(f'<text x="{x(i):.1f}" y="{h - 8}" class="ax" text-anchor="middle">#{nt["night"]}</text>')
    for si, (name, colour, vs) in enumerate(series):
        pts = ' '.join(f'{x(i):.1f},{y(v):.1f}' for i, v in enumerate(vs))
        out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>')
        for i, v in enumerate(vs):
            out.append(f'<circle class="pt pt-{e(name)}" cx="{x(i):.1f}" cy="{y(v):.1f}" r="3" fill="{colour}" '
                       f'data-night="{nights[i]["night"]}" data-v="{v}"><title>{e(name)} night #{nights[i]["night"]} '
                       f'({e(nights[i]["date"])}): {v:.4g}{unit}</title></circle>')
        out.append(f'<text x="{left + 8 + 80 * si}" y="{top + 8}" fill="{colour}" class="lg">{e(name)}</text>')
    return ''.join(out) + '</svg>'


def shown_path(path):
    """A path as the page says it: relative to the checkout when inside it, else absolute."""
    rel = os.path.relpath(path, os.path.dirname(HERE))
    return path if rel.startswith('..') else rel


def history(d):
    shown, bh = d['nights'], d['buckets_hist']
    def n(nt, s):   # failed: FAIL and XPASS, as the summary counts them
        return nt['counts'].get(s, 0) + (nt['counts'].get('XPASS', 0) if s == 'FAIL' else 0)
    counts = plot('plot-counts', 'runs per night', shown, [(s, c, [n(nt, s) for nt in shown]) for s, c in SERIES])
    wall = plot('plot-wall', 'wall time per night', shown, [('wall', '#1f77b4', [nt['wall_s'] for nt in shown])], ' s')
    accs = sorted({a for nt in shown for a in nt.get('coverage', {})})
    cov = plot('plot-cov', 'functional coverage per night, %', shown,
               [(a, PALETTE[i % len(PALETTE)], [nt.get('coverage', {}).get(a, {}).get('pct', 0) for nt in shown])
                for i, a in enumerate(accs)], '%') if accs else '<p>no coverage recorded</p>'
    rows = ''.join(f'<tr class="hist-bucket" data-first="{b["first"]}" data-last="{b["last"]}" '
                   f'data-state="{b["state"]}">'
                   f'<td class="st {"fail" if b["state"] in ("new", "open") else "pass"}">{b["state"]}</td>'
                   f'<td>#{b["first"]}</td><td>#{b["last"]}</td><td>{len(b["nights"])}</td>'
                   f'<td><code>{e(b["signature"])}</code></td></tr>' for b in bh)
    new = [b for b in bh if b['state'] == 'new']
    fixed = [b for b in bh if b['state'] == 'fixed']
    lst = lambda i, bs: f'<ul id="{i}">' + ''.join(f'<li><code>{e(b["signature"])}</code></li>' for b in bs) + '</ul>'  # noqa: E731
    nights_rows = ''.join(
        f'<tr class="night" data-night="{nt["night"]}"><td>#{nt["night"]}</td><td>{e(nt["date"])}</td>'
        f'<td>{e(nt["revision"])}</td><td>{e(nt["base_seed"])}</td><td>{nt["counts"]["PASS"]}</td>'
        f'<td>{nt["counts"]["FAIL"] + nt["counts"].get("XPASS", 0)}</td><td>{nt["counts"]["SKIP"]}</td>'
        f'<td>{nt["counts"]["XFAIL"]}</td><td>{nt["wall_s"]:.1f}</td><td>{len(nt["buckets"])}</td></tr>'
        for nt in reversed(shown))
    warn = ''.join(f'<p class="fail">{e(w)}</p>' for w in d['history_warnings'])
    prov = ('<p class="dim">this regression is not in the history file (written elsewhere, or not appended): '
            'shown as its last night</p>' if d['provisional'] else '')
    return f'''<section id="history" data-nights="{len(shown)}"><h2>History: the last {len(shown)} night(s)</h2>
<p class="dim">from {e(shown_path(d["history_file"]))}</p>{warn}{prov}
<div class="plots">{counts}{wall}{cov}</div>
<h3>New failure buckets since the night before ({len(new)})</h3>{lst("new-buckets", new)}
<h3>Fixed since the night before ({len(fixed)})</h3>{lst("fixed-buckets", fixed)}
<h3>Every bucket of these nights</h3><table id="bucket-history"><tr><th>now</th><th>first night</th><th>last night</th>
<th>nights</th><th>signature</th></tr>{rows}</table>
<h3>Nights</h3><table id="nights"><tr><th>night</th><th>date</th><th>revision</th><th>base seed</th><th>passed</th>
<th>failed</th><th>skipped</th><th>XFAIL</th><th>wall s</th><th>buckets</th></tr>{nights_rows}</table></section>'''


def page(d):
    res = d['res']
    title = f'regression {res["name"]}'
    body = ''.join(f(d) for f in (summary, buckets, history, runs_table, cycles_table, coverage))
    doc = f'''<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(title)}</title><style>{asset("report_page.css")}</style></head>
<body><h1>{e(title)}</h1>
<nav><a href="#summary">summary</a> <a href="#buckets">buckets</a> <a href="#history">history</a>
<a href="#all-runs">runs</a> <a href="#cycles">cycles</a> <a href="#coverage">coverage</a>
<a href="results.json">results.json</a> <a href="junit.xml">junit.xml</a></nav>
{body}
<script>{asset("report_page.js")}</script></body></html>
'''
    return re.sub(r'\n{3,}', '\n\n', doc)
