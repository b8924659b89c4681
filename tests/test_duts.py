#!/usr/bin/env python3
"""Tests of the DUT mechanism (run by `make test`): malformed DUT descriptions and lists get file:line
errors, an unknown DUT stops `make run` before building, a build depends on every file its description
names, and the differential report fails (exit 1, both repro lines) when one DUT's run goes wrong."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from flow import dut_manifest
from flow import deviations
from flow import diff
from flow import regress
from tests.checklib import Checks, dut_parse_error

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

T = Checks('test_duts')
check, skip = T.check, T.skip


parse_error = dut_parse_error


def run(cmd, **kw):
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, **kw)
    return p.returncode, p.stdout + p.stderr


def write_deviations(d, text):
    """A deviations file in folder d holding text: its path and its parsed deviations."""
    p = os.path.join(d, 'x.deviations')
    with open(p, 'w') as f:
        f.write(text)
    return p, deviations.parse(p)


def refusal(p):
    """The DeviationError text of parsing p ('' when it parses)."""
    try:
        deviations.parse(p)
    except deviations.DeviationError as ex:
        return str(ex)
    return ''


def check_deviations():
    """Known deviations (flow/deviations.py): a failure is XFAIL only when every error line is explained."""
    with tempfile.TemporaryDirectory() as d:
        p, devs = write_deviations(d, "name a\nspec s\nrepro r\nmatch M5: .* twice\ntests t1\n\n"
                                      "name b\nspec s\nrepro r\nmatch watchdog\ntests *\n")
        out = "[cycle 9] ERROR job 'j' M5: job 0 stored byte 0x10 twice\n[cycle 9] ERROR job 'j' watchdog: job 0\n"
        check(deviations.classify(devs, 't1', out) == ['a', 'b'], 'deviations: every error line explained: XFAIL a, b')
        check(deviations.classify(devs, 't2', out) is None, 'deviations: a deviation of another test explains nothing')
        check(deviations.classify(devs, 't1', out + "[cycle 9] ERROR job 'j' MISMATCH\n") is None,
              'deviations: one unexplained error line keeps the run a FAIL')
        with open(p, 'a') as f:
            f.write("colour red\n")
        e = refusal(p)
        check(':12: unknown key' in e, f'deviations: unknown key refused with file:line ({e})')
    check_required_line()
    check_continued_deviations()


def check_required_line():
    """`requires`: a deviation explains its error lines only when the output also holds the line it names (the
    mechanism's evidence, e.g. a hang diagnosis); without that line the same error keeps the run a FAIL."""
    with tempfile.TemporaryDirectory() as d:
        p, devs = write_deviations(d, "name wr\nspec s\nrepro r\nmatch watchdog: wait for interrupt\n"
                                      "requires ^  B responses held off by the DUT.*DBB [1-9]\ntests t1\n")
        err = "[cycle 9] ERROR job 'j' watchdog: wait for interrupt (event mask 0x0) did not complete\n"
        held = "  B responses held off by the DUT (bready low): DBB 3 cycles, CVIF 0 cycles\n"
        check(deviations.classify(devs, 't1', err + held) == ['wr'], 'requires: the line is there: XFAIL wr')
        check(deviations.classify(devs, 't1', err + held.replace(' 3 ', ' 0 ')) is None,
              'requires: the same error without the required line: FAIL')
        for text, want in (("name wr\nspec s\nrepro r\nmatch m\nrequires (\ntests t1\n", ':5: bad regex'),
                           ("name wr\nspec s\nrepro r\nmatch m\nrequires x\ncontinue yes\ntests t1\n",
                            ':1: deviation \'wr\': requires with continue')):
            with open(p, 'w') as f:
                f.write(text)
            e = refusal(p)
            check(want in e, f'requires: refused with file:line: {want} ({e})')


def check_continued_deviations():
    """A `continue` deviation explains its lines only in a run that went to its end and compared outputs."""
    with tempfile.TemporaryDirectory() as d:
        p, devs = write_deviations(d, "name rj\nspec s\nrepro r\nmatch read of RUNNING_JOB\ntests t1\ncontinue yes\n\n"
                                      "name hang\nspec s\nrepro r\nmatch watchdog\ntests t1\n")
        err = "[cycle 9] ERROR job 'j' APB: read of RUNNING_JOB (0x10) returned 0x2 (deviation rj: the run continues)\n"
        done = "deviation rj continued past 1 error line(s); the run went to its end and compared 64 output bytes\n"
        check(deviations.classify(devs, 't1', err + done) == ['rj'], 'continued deviation, run completed: XFAIL rj')
        check(deviations.classify(devs, 't1', err) is None,
              'continued deviation without the completion line (outputs not compared): FAIL')
        check(deviations.classify(devs, 't1', err + done.replace(' 64 ', ' 0 ')) is None,
              'continued deviation with no output byte compared: FAIL')
        check(deviations.classify(devs, 't1', err + done + "[cycle 99] ERROR job 'j' MISMATCH job 0 output\n")
              is None, 'continued deviation and an output that differs: FAIL')
        check(deviations.classify(devs, 't1', err + "[cycle 99] ERROR job 'j' watchdog: job 0\n") == ['rj', 'hang'],
              'continued deviation, then a stop at another deviation: XFAIL rj, hang')
        with open(p, 'a') as f:
            f.write("continue maybe\n")
        e = refusal(p)
        check(':13: continue takes' in e, f'deviations: continue takes only yes, file:line ({e})')


def check_continue_in_simulator():
    """The simulator side of `continue` (tb/common/dev_continue.c), on our NE16 with an injected PSLVERR on a
    register read: the run goes on to its end and compares its outputs, fails with the summary line, and the
    regression's classification names it; with +deviations=none it stops at the read as before; a match that
    is no POSIX regex is a setup error naming file:line."""
    sim = os.path.join(ROOT, 'build', 'ne16', 'sim')
    if not os.access(sim, os.X_OK):
        skip('continue in the simulator: build/ne16/sim not built')
        return
    with tempfile.TemporaryDirectory() as d:
        p, devs = write_deviations(d, "name t-read\nspec s\nrepro r\nmatch PSLVERR(=1)? on read|bus error on read\n"
                                      "tests ex2\ncontinue yes\n")
        base = [sim, '+test=ex2', '+seed=1', '+stall=0', '+quiet', '+fault=pslverr:26']
        rc, out = run(base + [f'+deviations={p}'])
        check(rc == 1 and 'deviation t-read continued past 3 error line(s); the run went to its end and compared 72 '
              'output bytes' in out and out.count(' PASS  cycles') == 2 and
              deviations.classify(devs, 'ex2', out) == ['t-read'],
              'continue: the run goes past the read to its end, compares both jobs, fails, XFAIL t-read')
        rc, out = run(base + ['+deviations=none'])
        check(rc == 1 and 'continued past' not in out and 'FAIL ex2 seed 1: 189 cycles' in out and
              "ARGS='+stall=0 +fault=pslverr:26 +deviations=none'" in out,
              'continue: +deviations=none stops at the read as before, and the repro line carries it')
        check(deviations.classify(devs, 'ex2', out) is None,
              'continue: a run that stopped at the continued error (no summary line) is not explained')
        write_deviations(d, "name t-bad\nspec s\nrepro r\nmatch (?!x)PSLVERR\ntests ex2\ncontinue yes\n")
        rc, out = run(base + [f'+deviations={p}'])
        check(rc == 2 and f'{p}:1: the match of a continued deviation must be a POSIX extended regex' in out,
              f'continue: a match the simulator cannot compile is a setup error with file:line ({out.strip()[-90:]})')


def check_diff_defaults():
    """`make diff ACC=<acc>` without TEST runs the accelerator's default set (tests/lists/diff_defaults.tsv); every
    test it names is one the accelerator's simulator knows, and TEST/SEEDS/ARGS given replace the set's."""
    for acc in ('ne16', 'nvdla'):
        spec, seeds, _ = diff.default_set(acc)
        sim = os.path.join(ROOT, dut_manifest.default_dut(acc).build_dir, 'sim')
        if not os.access(sim, os.X_OK):
            skip(f"diff default set of {acc}: {sim} not built")
            continue
        try:
            tests = diff.expand_tests(spec, sim)
        except dut_manifest.ManifestError as ex:
            check(False, f"diff default set of {acc}: {ex}")
            continue
        known = regress.known_tests(sim)
        missing = [t for t in tests if t not in known]
        known = 'unknown: ' + ', '.join(missing) if missing else 'yes'
        check(seeds >= 1 and tests and not missing, f"diff default set of {acc}: {len(tests)} tests, all known to "
                                                    f"its simulator ({known})")
    dry = ['make', '--no-print-directory', '-n', '-o', 'check-deps', '-o', 'build', '-o', 'build-upstream', 'diff']
    _, out = run(dry + ['ACC=ne16'])
    _, out2 = run(dry + ['ACC=ne16', 'TEST=perf_3x3', 'SEEDS=3', 'ARGS=+stall=1'])
    check('-m flow.diff --acc ne16 ' in out and '--tests' not in out and '--seeds' not in out and '--args' not in out
          and "--tests perf_3x3 --seeds 3" in out2 and "--args '+stall=1'" in out2,
          'make diff: no TEST/SEEDS/ARGS leaves them to the default set; given, they are passed on')


def check_pgo():
    """Profile-guided builds (`pgo` in a .dut): the training file must exist; changing it retrains and rebuilds
    without re-verilating; PGO=0 builds without the profile; a failing training run is reported with file:line
    but does not stop the build (flow/pgo_train.py)."""
    e = parse_error('top NV_nvdla\nfiles x.v\npgo nope.pgo\n')
    check("pgo file 'nope.pgo' does not exist" in e, f"a missing training file is refused ({e})")
    d = dut_manifest.get('nvdla', 'ours')
    sim = os.path.join(d.build_dir, 'sim')
    pgo = os.path.join(d.here, d.pgo) if d.pgo else None
    if not pgo:
        skip('nvdla ours names no PGO training runs')
    else:
        # PGO=1 given: a user's PGO=0 (on the command line of `make test`, hence in MAKEFLAGS) must not decide it.
        # A dry run executes the recipe's recursive make of the instrumented build, which needs obj-pgo/: a
        # checkout built with PGO=0 has none, so there the retrain cannot be shown without building it.
        if not os.path.isdir(os.path.join(ROOT, d.build_dir, 'obj-pgo')):
            skip(f'editing {os.path.relpath(pgo, ROOT)} retrains: {d.build_dir} was built with PGO=0 (no obj-pgo/)')
        else:
            rc, out = run(['make', '-n', '-W', pgo, 'PGO=1', sim])
            check(rc == 0 and 'flow.pgo_train' in out and '-fprofile-generate' in out and '-fprofile-use' in out
                  and '--top-module' not in out, f'editing {os.path.relpath(pgo, ROOT)} retrains and rebuilds {sim}, '
                  'without re-verilating')
        rc, out = run(['make', '-n', '-W', pgo, 'PGO=0', sim])
        check(rc == 0 and 'flow.pgo_train' not in out and '-fprofile-use' not in out, 'PGO=0: no training, no profile')
    with tempfile.TemporaryDirectory() as t:
        fake = os.path.join(t, 'Vsim')      # a stand-in simulator: passes unless given +bad
        with open(fake, 'w') as f:
            f.write('#!/bin/sh\ncase "$*" in *+bad*) echo "FAIL x"; exit 1;; esac\necho "PASS x"\n')
        os.chmod(fake, 0o755)
        runs = os.path.join(t, 'x.pgo')
        with open(runs, 'w') as f:
            f.write('# training\n+test=a +seed=1\n+test=b +bad\n')
        rc, out = run([sys.executable, '-m', 'flow.pgo_train', fake, runs])
        check(rc == 0 and f'{runs}:3: PGO training run failed (exit 1)' in out and '(1 failed)' in out
              and 'wrote no profile' in out, f'a failing training run is named (file:line) and the build goes on '
              f'({out.strip()[-160:]})')


def make_rules(env=None):
    """{target: (prerequisites, recipe lines)} of make's database (`make -p` with a goal that does nothing): the
    rules as make reads them, without asking make whether anything is out of date. A dry run (make -n) of a model
    executes its recipes' recursive makes; on nv_full that sub-make re-verilated a hier_block once."""
    rc, out = run(['make', '-p', '--no-print-directory', '--eval', 'test-duts-nothing: ; @:', 'test-duts-nothing'],
                  env=env)
    rules, cur = {}, None
    for line in out.splitlines():
        if line.startswith('\t') and cur is not None:
            rules[cur][1].append(line[1:])
        elif re.match(r'[^#\s=:][^=:]*:(?!=)[^=]*$', line):     # `target: prerequisites`, not `VAR := value`
            target, _, prereqs = line.partition(':')
            cur = target
            rules[cur] = (prereqs.split(), [])      # printed twice when duts.mk was remade: the last one counts
        elif not line:
            cur = None
    return rc, rules


def check_hier_build():
    """The hier_block libraries at their own level (`hieropt` in a .dut; flow/hier_build.py): the key is read; the
    blocks are read from Verilator's <top>_hier.mk, a model without one is refused naming why; a changed hieropt
    rebuilds the hier_block libraries without re-verilating, shown on the rules of a tiny DUT (EXTRA_DUTS), never by
    asking make about a real model (nothing here can start a build). No DUT of the tree says hieropt today (nv_full
    did until it was built flat with clang: docs/nvdla_nv_full.md); the machinery stays for users' DUTs."""
    from flow import hier_build
    with tempfile.TemporaryDirectory() as t:
        path = os.path.join(t, 'x.dut')
        with open(path, 'w') as f:
            f.write('top NV_nvdla\nfiles x.v\nhieropt -Os\n')
        check(dut_manifest.parse(path, 'nvdla').hieropt == ['-Os'], 'hieropt is read')
        with open(path, 'w') as f:
            f.write('top NV_nvdla\nfiles x.v\nhieropt -Os\ncxx clang\n')
        try:
            dut_manifest.parse(path, 'nvdla')
            e = ''
        except dut_manifest.ManifestError as ex:
            e = str(ex)
        check('x.dut:4: cxx clang with hieropt' in e, f'cxx clang with hieropt is refused with file:line ({e})')
        rc, out = run([sys.executable, '-m', 'flow.hier_build', t, 'Vtb_x.mk', '--opt=-Os'])
        check(rc != 0 and 'Vtb_x_hier.mk: not found: the model is not verilated with --hierarchical' in out,
              f'a model without hier_blocks is refused, saying why ({out.strip()[-120:]})')
        with open(os.path.join(t, 'Vtb_x_hier.mk'), 'w') as f:
            f.write('VM_HIER_LIBS := \\\n  VA/libA.a \\\n  VB_c/libB_c.a \\\n\nother := 1\n')
        got = hier_build.blocks(t, 'Vtb_x.mk')
        check(got == [('VA', 'libA.a'), ('VB_c', 'libB_c.a')], f"the blocks are Verilator's VM_HIER_LIBS ({got})")
        # a tiny DUT with hieropt (its build folder is removed at the end; nothing of it is built)
        os.makedirs(os.path.join(t, 'duts', 'nvdla'))
        with open(os.path.join(t, 'top.v'), 'w') as f:
            f.write('module hier_test_top; endmodule\n')
        with open(os.path.join(t, 'duts', 'nvdla', 'hier_test.dut'), 'w') as f:
            f.write(f'root - {t}\nfiles top.v\ntop hier_test_top\nhieropt -Os\n')
        duts = [('build/nvdla-hier_test', '-Os')]
        try:
            rc, rules = make_rules(dict(os.environ, EXTRA_DUTS=os.path.join(t, 'duts')))
        finally:
            shutil.rmtree(os.path.join(ROOT, 'build', 'nvdla-hier_test'), ignore_errors=True)
            run(['make', '--no-print-directory', '-q', 'duts'])     # build/duts.mk without the tiny DUT again
    for bdir, opt in duts:
        obj = f'{bdir}/obj'
        stamp, _ = rules.get(f'{obj}/hier.stamp', ([], []))
        recipe = '\n'.join(rules.get(f'{obj}/hier.stamp', ([], []))[1])
        model = rules.get(f'{obj}/Vtb_nvdla.mk', ([], []))[0]
        check(rc == 0 and f'{obj}/hier.mode' in stamp and f'{obj}/Vtb_nvdla.mk' in stamp
              and f'{obj}/hier.stamp' in rules.get(f'{bdir}/sim', ([], []))[0]
              and f'flow.hier_build {obj} Vtb_nvdla.mk --opt="{opt}"' in recipe,
              f'{bdir}: the hier_block libraries are built at hieropt ({opt}) before the simulator, again when '
              'hieropt (hier.mode) changes or the model is re-verilated')
        check(model and not any(p.endswith(('hier.mode', 'hier.stamp')) for p in model),
              f'{bdir}: a changed hieropt does not re-verilate ({" ".join(model)[-120:]})')


def check_version_conditions():
    """key@>=M.mmm / key@<M.mmm lines count only for those Verilator versions (VL_VERSION)."""
    text = 'top NV_nvdla\nfiles x.v\nvflags@>=5.049 -Wno-NEW\nvflags@<5.049 -Wno-OLD\nvflags -Wno-ALL\n'
    saved = os.environ.get('VL_VERSION')
    try:
        for ver, want in (('5006000', ['-Wno-OLD', '-Wno-ALL']), ('5049000', ['-Wno-NEW', '-Wno-ALL']),
                          ('', ['-Wno-ALL'])):
            os.environ['VL_VERSION'] = ver
            with tempfile.TemporaryDirectory() as d:
                path = os.path.join(d, 'v.dut')
                with open(path, 'w') as f:
                    f.write(text)
                got = dut_manifest.parse(path, 'nvdla').vflags
            check(got == want, f"VL_VERSION={ver or '(unset)'}: the version-conditional vflags are {got}")
    finally:
        os.environ.pop('VL_VERSION', None) if saved is None else os.environ.__setitem__('VL_VERSION', saved)
    e = parse_error('top NV_nvdla\nfiles x.v\nvflags@>5.049 -Wno-X\n')
    check(e.startswith('bad.dut:3: version condition'),
          f"a malformed version condition is refused with file:line ({e})")
    e = parse_error('top NV_nvdla\nfiles x.v\ntop@>=5.049 other\n')
    check(e.startswith('bad.dut:3: only vflags'), f"a version condition on a key that takes none is refused ({e})")


def check_verilate_stamp():
    """A model is re-verilated when its Verilator command or an input changes, not when the Makefile does
    (verilate.cmd holds the command; editing the Makefile re-verilated nv_full for tens of CPU-minutes)."""
    sim = os.path.join(dut_manifest.default_dut('nvdla').build_dir, 'sim')
    if not os.path.isfile(os.path.join(ROOT, os.path.dirname(sim), 'obj', 'verilate.cmd')):
        skip(f'{sim} is not built: the re-verilation rule cannot be shown')
        return
    rc, out = run(['make', '-n', '-W', 'Makefile', sim])
    check(rc == 0 and '--top-module' not in out, f'an edited Makefile does not re-verilate {sim}')
    rc, out = run(['make', '-n', '-W', 'tb/nvdla/tb_nvdla.sv', sim])
    check(rc == 0 and '--top-module tb_nvdla' in out, f'an edited testbench top re-verilates {sim}')


def check_extroot():
    """A second tree (extroot): its globs are matched there, an unknown label or an absent tree is named."""
    e = parse_error('top NV_nvdla\nfiles x.v\nextroot rams X_RAMS\n')
    check("extroot takes '<label> <ENVVAR or -> <path>'" in e and ':3:' in e, f'extroot: missing path refused ({e})')
    e = parse_error('top NV_nvdla\nfiles x.v\nextroot a - x\nextroot a - y\n')
    check("extroot 'a' given twice" in e and ':4:' in e, f'extroot: a label given twice refused ({e})')
    with tempfile.TemporaryDirectory() as d:
        for sub in ('rtl', 'rams'):
            os.makedirs(os.path.join(d, sub))
        for f in ('rtl/top.v', 'rams/ram_a.v', 'rams/ram_b.v'):
            open(os.path.join(d, f), 'w').close()
        path = os.path.join(d, 'x.dut')
        with open(path, 'w') as f:
            f.write(f"top top\nroot - {d}/rtl\nextroot rams X_TEST_RAMS {d}/rams\nfiles top.v\n"
                    "libfiles @rams/ram_*.v\n")
        dut = dut_manifest.parse(path, 'nvdla')
        libs, srcs, _ = dut.sources()
        check([os.path.basename(x) for x in libs] == ['ram_a.v', 'ram_b.v'] and srcs == [f'{d}/rtl/top.v'],
              f'extroot: @rams/ram_*.v matched under the second tree ({libs}, {srcs})')
        os.environ['X_TEST_RAMS'] = os.path.join(d, 'absent')
        try:
            why = dut.unavailable()
        finally:
            del os.environ['X_TEST_RAMS']
        check(why and "its tree 'rams' is absent" in why and 'set X_TEST_RAMS=' in why,
              f'extroot: an absent second tree makes the DUT unavailable, naming its variable ({why})')
        with open(path, 'a') as f:
            f.write("libfiles @nope/x.v\n")
        try:
            dut_manifest.parse(path, 'nvdla').sources()
            e = ''
        except dut_manifest.ManifestError as ex:
            e = str(ex)
        check("no 'extroot nope'" in e, f'extroot: an unknown label refused ({e})')
        with open(os.path.join(d, 'w.vlt'), 'w') as f:
            f.write('`verilator_config\nlint_off -file "@ROOT@/*"\nlint_off -file "@rams@/*"\n')
        with open(path, 'w') as f:
            f.write(f"top top\nroot - {d}/rtl\nextroot rams - {d}/rams\nfiles top.v\nwaivers w.vlt\n")
        text = dut_manifest.vlt(dut_manifest.parse(path, 'nvdla'))
        check(f'"{d}/rtl/*"' in text and f'"{d}/rams/*"' in text,
              f'extroot: @rams@ in a waivers file names the second tree, @ROOT@ the first ({text.splitlines()[1:]})')


def check_ondemand():
    """An on-demand DUT (nv_full: `ondemand`) is built by its own target only: not by build-upstream (so not by
    make test), and while it is not built, make run and a list naming it skip with the command that builds it."""
    e = parse_error('top NV_nvdla\nfiles x.v\nondemand yes\n')
    check(e.startswith('bad.dut:3: ondemand takes no value'), f"ondemand with a value refused with file:line ({e})")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, 'x.dut')
        with open(path, 'w') as f:
            f.write('top NV_nvdla\nfiles x.v\ncxxopt -O1\n')
        check(dut_manifest.parse(path, 'nvdla').cxxopt == ['-O1'], 'cxxopt: the C++ level of one DUT is read')
    d = dut_manifest.get('nvdla', 'nv_full')
    check(d.ondemand and d.build_target == 'build-nv_full', 'nv_full is on demand, built by make build-nv_full')
    if d.unavailable():
        skip(f'nv_full on demand: {d.unavailable()}')
        return
    # what build-upstream builds, as make sees it (make -n would run the recursive C++ builds' makes)
    rc, out = run(['make', '--no-print-directory', '--eval', 'show-upstream-sims: ; @echo $(UPSTREAM_SIMS)',
                   'show-upstream-sims'])
    check(rc == 0 and 'nvdla-nv_small/sim' in out and 'nvdla-nv_full' not in out,
          f'make build-upstream (so make test) never builds nv_full ({out.strip()[-100:]})')
    # its rule, read from make's database: a dry run (make -n) would run the sub-makes of nv_full's build
    rc, rules = make_rules()
    got = '\n'.join(rules.get('build-nv_full', ([], []))[1])
    check(rc == 0 and re.search(r'\$\(MAKE\) .*-j\$\(JOBS\).* build/nvdla-nv_full/sim$', got, re.M),
          f'make build-nv_full builds build/nvdla-nv_full/sim, on every core unless -j is given ({got})')
    twin = os.path.join(d.build_dir, 'sim-waves')
    if os.path.exists(os.path.join(ROOT, twin)):
        skip(f'the waves re-run of a failing nv_full run: {twin} is built')
    else:
        try:
            dut_manifest.traced_sim(os.path.join(d.build_dir, 'sim'))
            e = 'no error'
        except dut_manifest.ManifestError as ex:
            e = str(ex)
        check(f"'make {twin}'" in e and not os.path.exists(os.path.join(ROOT, twin)),
              f"a failing nv_full run's waves re-run does not start the traced twin's build of hours ({e[:120]})")
    # golden-only needs no RTL: the default simulator runs it, told nv_full's map (+fw_map=nv_full)
    rc, out = run(['make', '-n', '--no-print-directory', 'run', 'ACC=nvdla', 'DUT=nv_full', 'TEST=fw',
                   'GOLDEN_ONLY=1', 'PGO=0'])
    check(rc == 0 and re.search(r'^build/nvdla/sim \+test=fw .*\+golden_only \+fw_map=nv_full', out, re.M)
          and 'nvdla-nv_full' not in out,
          f'make run DUT=nv_full GOLDEN_ONLY=1: the default simulator, built or not, +fw_map=nv_full '
          f'({out.strip()[-160:]})')
    if not d.unbuilt():
        skip('nv_full not-built skips: build/nvdla-nv_full/sim is built')
        return
    rc, out = run(['make', '--no-print-directory', 'run', 'ACC=nvdla', 'DUT=nv_full', 'TEST=reg_reset'])
    check(rc != 0 and "'make build-nv_full'" in out and 'VERILATE' not in out,
          f'make run DUT=nv_full, not built: stops before building, naming make build-nv_full ({out.strip()[-100:]})')
    with tempfile.TemporaryDirectory() as tmp:
        lst = os.path.join(tmp, 'x.list')
        with open(lst, 'w') as f:
            f.write('nvdla test=reg_reset 1 dut=nv_full\n')
        rc, out = run([sys.executable, '-m', 'flow.regress', '--list', lst, '--name', 'test_duts_ondemand'])
    check(rc == 0 and "'make build-nv_full'" in out, f'a list naming nv_full, not built: skipped with the command '
          f'that builds it ({out.strip()[-120:]})')


def main():
    e = parse_error('top NV_nvdla\nfiles x.v\nflavour vanilla\n')
    check(e.startswith('bad.dut:3: unknown key') and 'flavour' in e, f"unknown key named with file:line ({e})")
    e = parse_error('files x.v\n')
    check("no 'top'" in e, f"missing top refused ({e})")
    e = parse_error('top NV_nvdla\nfiles x.v\ndefines "UNCLOSED\n')
    check(e.startswith('bad.dut:3:'), f"unbalanced quote refused with file:line ({e})")
    check_hier_build()
    check_version_conditions()
    check_ondemand()
    check_extroot()
    check_verilate_stamp()
    with tempfile.NamedTemporaryFile('w', suffix='.list', delete=False) as f:
        f.write('nvdla test=sdp_random 1 dut=nope\n')
    rc, out = run([sys.executable, '-m', 'flow.regress', '--list', f.name, '--name', 'test_duts'])
    os.unlink(f.name)
    check(rc == 2 and ":1: unknown DUT 'nope' for nvdla (known: nv_full, nv_small, ours)" in out,
          f"a list naming an unknown DUT: file:line error, exit 2 ({out.strip()[-120:]})")
    rc, out = run(['make', '--no-print-directory', 'run', 'ACC=nvdla', 'DUT=nope', 'TEST=sdp_random'])
    check(rc != 0 and "unknown DUT 'nope' for nvdla" in out and 'VERILATE' not in out,
          'make run DUT=nope stops before building, naming the DUTs')
    # A build depends on every file of its description (-W: as if modified, nothing touched).
    for acc, dut, own in [('nvdla', 'ours', 'tb/nvdla/duts/ours.dut'),
                          ('nvdla', 'nv_small', 'tb/nvdla/duts/nv_small.vlt')]:
        d = dut_manifest.get(acc, dut)
        if d.unavailable():
            skip(f'{dut}: {d.unavailable()}')
            continue
        sim = os.path.join(d.build_dir, 'sim')
        run(['make', '-s', sim])
        rc0, out0 = run(['make', '-n', sim])
        rc, out = run(['make', '-n', '-W', os.path.join(ROOT, own), sim])   # the rules name it absolute
        check(rc0 == 0 and 'verilator' not in out0 and rc == 0 and 'verilator' in out
              and f'--top-module tb_{acc}' in out,
              f'editing {own} re-verilates {sim}, and nothing does when nothing changed')
    # The differential report fails when one side's run fails, with the repro line of each side.
    nvs = dut_manifest.get('nvdla', 'nv_small')
    if nvs.unavailable() or not os.access(os.path.join(ROOT, nvs.build_dir, 'sim'), os.X_OK):
        skip(f"make diff negative: {nvs.unavailable() or nvs.build_dir + '/sim not built'}")
    else:
        rc, out = run([sys.executable, '-m', 'flow.diff', '--acc', 'nvdla', '--tests', 'sdp_random', '--seeds', '1',
                       '--args-b', '+fault=wdata_flip:0'])
        # both sides run with +features=<the features both DUTs share> (flow/diff.py), then the side's own args
        check(rc == 1 and 'MISMATCH' in out and "DUT=nv_small TEST=sdp_random SEED=1 ARGS='+features=" in out
              and "+fault=wdata_flip:0'" in out,
              'diff: a corrupted output on one DUT fails the report, with both repro lines')
    check_diff_defaults()
    check_deviations()
    check_continue_in_simulator()
    check_pgo()
    return T.summary()


if __name__ == '__main__':
    sys.exit(main())
