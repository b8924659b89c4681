#!/usr/bin/env python3
"""DUT descriptions: tb/<acc>/duts/<dut>.dut, one per design under test of an accelerator.

An accelerator (stimulus, bus models, golden model, tests) is verified on one DUT at a time; the DUT is the
RTL that implements it, described as data. Format: one `key value...` per line, '#' starts a comment.

    describe  <text>                 one line for reports and `make help`
    default                          this is the accelerator's default DUT (built by `make build`)
    ondemand                         built only by its own target, `make build-<dut>` (a build of an hour or
                                     more): make build, build-upstream and test leave it alone, and what
                                     needs it skips, printing that command, until it is built
    root      <ENVVAR> <path>        where the RTL lives; the environment variable overrides the path, which
                                     is relative to the repository root. Absent root: the DUT is unavailable.
    extroot   <label> <ENVVAR> <path>  a further tree the build reads (e.g. another vendor tree's RAM models);
                                     a glob of libfiles, files or incdirs written `@<label>/<glob>` is matched
                                     under it; ENVVAR (or -) overrides the path as for root. Patches apply to
                                     root only.
    filelist  <file.f>               a Verilator file list, relative to root ('#' comments)
    libfiles  <glob>...              library files passed with -v (Verilator picks the modules it needs)
    files     <glob>...              source files, in order
    incdirs   <glob>...              +incdir+ folders
    adapter   <file.sv>...           our own SV beside the description (kept -Wall clean), e.g. a port adapter
    top       <module>               the module tb_<acc>.sv instantiates (passed as `DUT_TOP)
    defines   <NAME[=value]>...
    vflags    <flag>...              extra Verilator flags for the whole build (say why in a comment)
    waivers   <file.vlt>             Verilator control file beside the description; @ROOT@ is replaced by the
                                     resolved root, @<label>@ by an extroot's. It may waive lint on the
                                     third-party files only.
    patch     <file.patch>...        applied (patch -p1) to a copy of root under the build folder; the
                                     original stays untouched
    features  <name>...              what the DUT implements; tests needing another feature are not run on it
    signals   <file>                 DUT-internal signals for the failing-job .gtkw ('-Group' lines allowed),
                                     relative to the DUT instance (tb_<acc>.dut); `@>=5.049 <name>` and
                                     `@<5.049 <name>` lines count for those Verilator versions only
    source    <text>                 provenance (repository, commit)
    cxxopt    <flag>...              the C++ optimisation of the verilated model instead of the Makefile's
                                     OPT_FAST (-O3): a huge model may build much faster at -O1 (say why)
    pgo       <file>                 training runs for a profile-guided build of the regression simulator
                                     (docs/performance.md): one run's plusargs a line, beside the description;
                                     absent: a plain -O3 build
    hieropt   <flag>...              the C++ optimisation of the hier_block libraries of a --hierarchical
                                     model instead of cxxopt (flow/hier_build.py; say why)
    cxx       clang                  compile and link the verilated model (its simulator and traced twin) with
                                     clang++ instead of g++, with precompiled headers; with `pgo`, clang's IR
                                     profile (docs/performance.md). clang is installed when such a DUT is built
                                     (flow/llvm_tools.py finds it). Not with hieropt (its libraries are g++'s)

Globs are relative to root (or to an extroot: `@<label>/...`); `**` is not used: `nvdla/*` matches the unit
folders of nv_small.

A key may be limited to some Verilator versions: `vflags@>=5.049 -Wno-DEFOVERRIDE`, `patch@<5.049 x.patch`.
The line counts only when the Verilator of the build (VL_VERSION, its version integer, set by the Makefile)
satisfies it; without VL_VERSION (reports, the regression runner) such lines are ignored. `waivers` and
`patch` may be given more than once (applied in order).

EXTRA_DUTS=<folder> adds the descriptions <folder>/<acc>/<dut>.dut (paths in them relative to them, as in
tb/): a description tried out without committing it (tests/test_dut_cxx.py --build builds one under build/).

Uses: `dut_manifest.py make` writes the Make fragment of every DUT (build/duts.mk) and, per available DUT,
build/<dir>/{dut.args, dut_info.c (the C description the simulator links: name, features, signals),
dut_waivers.vlt (the resolved waivers), upstream.sum (the content of every upstream file the build reads: the
verilation depends on it, not on their mtimes; flow/upstream_sum.py)}, each rewritten only when it changes;
`dut_manifest.py list` prints the DUTs; `check ACC [DUT]` exits nonzero with the reason when the DUT is unknown
or its RTL absent. flow/regress.py imports it for availability and features.
"""
import functools
import glob
import os
import shlex
import subprocess
import sys

from flow import upstream_sum

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = {'describe', 'default', 'ondemand', 'cxxopt', 'root', 'extroot', 'filelist', 'libfiles', 'files', 'incdirs',
        'adapter', 'top', 'defines', 'vflags', 'waivers', 'patch', 'features', 'signals', 'source', 'pgo',
        'hieropt', 'cxx'}
CXX_VALUES = ('clang',)     # `cxx`: the compilers a model may be built with instead of the Makefile's g++


class ManifestError(Exception):
    pass


class Dut:
    def __init__(self, acc, name, path):
        self.acc, self.name, self.path = acc, name, path
        self.here = os.path.dirname(path)
        self.describe = ''
        self.default = False
        self.ondemand = False
        self.root_var, self.root_default = None, None
        self.extroots = {}                  # label -> (ENVVAR or '-', default path)
        self.filelist = None
        self.libfiles, self.files, self.incdirs, self.adapter = [], [], [], []
        self.top = None
        self.defines, self.vflags, self.patches, self.features, self.waivers = [], [], [], [], []
        self.signals = self.pgo = None
        self.cxxopt, self.hieropt = [], []
        self.cxx = ''                       # '' (g++) or one of CXX_VALUES
        self.cxx_where = ''                 # file:line of the cxx line
        self.source = ''

    # ---- where the RTL is ----------------------------------------------------------------------------
    @property
    def root(self):
        """The resolved RTL root (absolute), honouring the override variable."""
        val = os.environ.get(self.root_var) if self.root_var and self.root_var != '-' else None
        return os.path.abspath(os.path.join(ROOT, val or self.root_default or '.'))

    def extroot(self, label):
        """The resolved path of extroot <label> (absolute), honouring its override variable."""
        var, default = self.extroots[label]
        val = os.environ.get(var) if var != '-' else None
        return os.path.abspath(os.path.join(ROOT, val or default))

    def unavailable(self):
        """None when the RTL is present, else the reason (for skips and build errors)."""
        probe = self.filelist or (self.files[-1] if self.files else None)
        if probe is None:
            return None
        if not glob.glob(os.path.join(self.root, probe)):
            how = f" (set {self.root_var}=/path/to/it)" if self.root_var and self.root_var != '-' else ''
            return (f"DUT {self.name} of {self.acc}: its RTL is absent: {os.path.join(self.root, probe)} "
                    f"does not exist{how}")
        for label, (var, _) in sorted(self.extroots.items()):
            if not os.path.isdir(self.extroot(label)):
                how = f" (set {var}=/path/to/it)" if var != '-' else ''
                return (f"DUT {self.name} of {self.acc}: its tree '{label}' is absent: {self.extroot(label)} "
                        f"does not exist{how}")
        return None

    @property
    def build_target(self):
        """The make target that builds this DUT's simulator."""
        return 'build' if self.default else f"build-{self.name}" if self.ondemand else 'build-upstream'

    def unbuilt(self):
        """None unless this is an on-demand DUT whose simulator is not built yet; then the reason, with the
        command that builds it (no other target starts that build)."""
        if not self.ondemand or os.access(os.path.join(ROOT, self.build_dir, 'sim'), os.X_OK):
            return None
        return (f"DUT {self.name} of {self.acc} is not built ({self.build_dir}/sim is absent); its build is long, "
                f"so nothing starts it but 'make {self.build_target}'")

    @property
    def build_dir(self):
        """build/<acc> for the default DUT (the embedded RTL), build/<acc>-<dut> for the others."""
        return os.path.join('build', self.acc if self.default else f"{self.acc}-{self.name}")

    @property
    def src_root(self):
        """Where the RTL is read from: root, or its patched copy under the build folder."""
        return os.path.join(ROOT, self.build_dir, 'patched') if self.patches else self.root

    def _glob(self, base, pats, what):
        """The files a list of globs names: under base (root), or under an extroot for `@<label>/<glob>`."""
        out = []
        for pat in pats:
            under = base
            if pat.startswith('@'):
                label, _, pat = pat[1:].partition('/')
                if label not in self.extroots:
                    raise ManifestError(f"{self.path}: {what} '@{label}/{pat}': no 'extroot {label}' in the "
                                        "description")
                under = self.extroot(label)
            hits = sorted(glob.glob(os.path.join(under, pat)))
            if not hits and not self.unavailable():
                raise ManifestError(f"{self.path}: {what} '{pat}' matches nothing under {under}")
            out.extend(hits)
        return out

    def _filelist(self, base):
        out = []
        with open(os.path.join(base, self.filelist)) as f:
            for line in f:
                line = line.split('#', 1)[0].strip()
                if line:
                    out.append(os.path.join(base, line))
        return out

    def sources(self, base=None):
        """(library files, source files, include dirs), absolute, read from base (default: where the build
        reads them); the adapter comes before the sources. Globs are matched under root (a patched copy
        does not exist before the first build) and named under base."""
        base = base or self.src_root
        def rebase(p):     # a patched copy holds root's files only; an extroot's are read where they are
            if base == self.root or os.path.commonpath([p, self.root]) != self.root:
                return p
            return os.path.join(base, os.path.relpath(p, self.root))
        libs = [rebase(p) for p in self._glob(self.root, self.libfiles, 'libfiles')
                if os.path.isfile(p) and p.endswith(('.v', '.sv', '.vlib'))]
        srcs = [os.path.join(self.here, a) for a in self.adapter]
        if self.filelist:
            srcs += [rebase(p) for p in self._filelist(self.root)]
        srcs += [rebase(p) for p in self._glob(self.root, self.files, 'files')]
        incs = [rebase(p) for p in self._glob(self.root, self.incdirs, 'incdirs') if os.path.isdir(p)]
        return [x for x in libs if x not in srcs], srcs, incs

    def upstream_files(self):
        """Every file the build reads from root, before any patch (the build depends on all of them)."""
        libs, srcs, incs = self.sources(self.root)
        deps = libs + [s for s in srcs if not s.startswith(self.here)]
        for d in incs:
            deps += [p for p in glob.glob(os.path.join(d, '*'))
                     if os.path.isfile(p) and p.endswith(('.vh', '.svh', '.h', '.v', '.sv'))]
        return sorted(set(deps))

    def own_files(self):
        """Our files the build reads: the description, adapter, waivers, signals, patches."""
        out = [self.path] + [os.path.join(self.here, a) for a in self.adapter]
        for f in [*self.waivers, self.signals, *self.patches]:
            if f:
                out.append(os.path.join(self.here, f))
        return out

    def signal_list(self):
        """The signals file's names; a line `@>=5.049 name` (or `@<5.049`) counts only for those Verilator
        versions (their FSTs name some signals differently)."""
        if not self.signals:
            return []
        out = []
        path = os.path.join(self.here, self.signals)
        with open(path) as f:
            for lineno, line in enumerate(f, 1):
                line = line.split('#', 1)[0].strip()
                if line.startswith('@'):
                    cond, _, line = line[1:].partition(' ')
                    if not version_holds(cond, f"{path}:{lineno}"):
                        continue
                    line = line.strip()
                if line:
                    out.append(line)
        return out


def verilator_version():
    """The version integer of the Verilator building the DUTs (VL_VERSION), or None outside a build."""
    v = os.environ.get('VL_VERSION', '')
    return int(v) if v.isdigit() else None


def version_holds(cond, where):
    """cond '>=5.049' or '<5.049' against the building Verilator; False when there is none."""
    op, num = (cond[:2], cond[2:]) if cond.startswith('>=') else (cond[:1], cond[1:])
    major, dot, minor = num.partition('.')
    if op not in ('>=', '<') or not (major.isdigit() and dot and minor.isdigit() and len(minor) == 3):
        raise ManifestError(f"{where}: version condition '@{cond}' is not '@>=M.mmm' or '@<M.mmm' (e.g. @>=5.049)")
    have = verilator_version()
    if have is None:
        return False
    want = int(major) * 1000000 + int(minor) * 1000
    return have >= want if op == '>=' else have < want


def parse(path, acc):
    d = Dut(acc, os.path.splitext(os.path.basename(path))[0], path)
    with open(path) as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.split('#', 1)[0].strip()
            if not line:
                continue
            key, _, rest = line.partition(' ')
            where = f"{path}:{lineno}"
            key, at, cond = key.partition('@')
            try:
                vals = [] if key in ('describe', 'source') else shlex.split(rest)
            except ValueError as ex:
                raise ManifestError(f"{where}: {ex}") from None
            if key not in KEYS:
                raise ManifestError(f"{where}: unknown key '{key}' (known: {', '.join(sorted(KEYS))})")
            if at and key not in ('vflags', 'waivers', 'patch', 'defines'):
                raise ManifestError(f"{where}: only vflags, waivers, patch and defines take a version condition")
            if at and not version_holds(cond, where):
                continue
            if key == 'describe':
                d.describe = rest.strip()
            elif key == 'source':
                d.source = rest.strip()
            elif key == 'default':
                d.default = True
            elif key == 'ondemand':
                if vals:
                    raise ManifestError(f"{where}: ondemand takes no value")
                d.ondemand = True
            elif key == 'root':
                if len(vals) != 2:
                    raise ManifestError(f"{where}: root takes '<ENVVAR or -> <path>'")
                d.root_var, d.root_default = vals
            elif key == 'extroot':
                if len(vals) != 3:
                    raise ManifestError(f"{where}: extroot takes '<label> <ENVVAR or -> <path>'")
                if vals[0] in d.extroots:
                    raise ManifestError(f"{where}: extroot '{vals[0]}' given twice")
                d.extroots[vals[0]] = (vals[1], vals[2])
            elif key == 'cxx':
                if len(vals) != 1 or vals[0] not in CXX_VALUES:
                    raise ManifestError(f"{where}: cxx takes one of {', '.join(CXX_VALUES)} (the model is built with "
                                        f"g++ without the key), not '{rest.strip()}'")
                d.cxx, d.cxx_where = vals[0], where
            elif key in ('filelist', 'top', 'signals', 'pgo'):
                if len(vals) != 1:
                    raise ManifestError(f"{where}: {key} takes one value")
                setattr(d, key, vals[0])
            elif key == 'patch':
                d.patches += vals
            elif key == 'waivers':
                d.waivers += vals
            else:
                getattr(d, key).extend(vals)
    if not d.top:
        raise ManifestError(f"{path}: no 'top' (the module tb_{acc}.sv instantiates)")
    if not (d.filelist or d.files):
        raise ManifestError(f"{path}: neither 'filelist' nor 'files': nothing to build")
    if d.cxx and d.hieropt:
        raise ManifestError(f"{d.cxx_where}: cxx {d.cxx} with hieropt: flow/hier_build.py builds the hier_block "
                            "libraries with g++; drop one of them")
    for key, files in (('signals', [d.signals]), ('pgo', [d.pgo]), ('waivers', d.waivers), ('patch', d.patches)):
        for f in files:
            if f and not os.path.isfile(os.path.join(d.here, f)):
                raise ManifestError(f"{path}: {key} file '{f}' does not exist beside the description")
    return d


@functools.lru_cache(maxsize=None)
def all_duts():
    """{acc: {dut: Dut}} of every tb/<acc>/duts/*.dut; exactly one default per accelerator."""
    out = {}
    # (accelerator, description): tb/<acc>/duts/<dut>.dut, then EXTRA_DUTS's <acc>/<dut>.dut
    found = [(p.split(os.sep)[-3], p) for p in sorted(glob.glob(os.path.join(ROOT, 'tb', '*', 'duts', '*.dut')))]
    if os.environ.get('EXTRA_DUTS'):
        found += [(p.split(os.sep)[-2], p)
                  for p in sorted(glob.glob(os.path.join(ROOT, os.environ['EXTRA_DUTS'], '*', '*.dut')))]
    for acc, path in found:
        d = parse(path, acc)
        if d.name in out.get(acc, {}):
            raise ManifestError(f"{path}: DUT {d.name} of {acc} is described already ({out[acc][d.name].path})")
        out.setdefault(acc, {})[d.name] = d
    for acc, duts in out.items():
        defaults = [d.name for d in duts.values() if d.default]
        if len(defaults) != 1:
            raise ManifestError(f"tb/{acc}/duts: exactly one DUT must say 'default', found {defaults or 'none'}")
        both = [d.name for d in duts.values() if d.default and d.ondemand]
        if both:
            raise ManifestError(f"tb/{acc}/duts/{both[0]}.dut: the default DUT is built by make build; it cannot be "
                                "'ondemand'")
    return out


def default_dut(acc):
    return next(d for d in all_duts()[acc].values() if d.default)


def get(acc, dut=None):
    duts = all_duts()
    if acc not in duts:
        raise ManifestError(f"unknown accelerator '{acc}' (known: {', '.join(sorted(duts))})")
    if dut in (None, ''):
        return default_dut(acc)
    if dut not in duts[acc]:
        raise ManifestError(f"unknown DUT '{dut}' for {acc} (known: {', '.join(sorted(duts[acc]))})")
    return duts[acc][dut]


# ---- outputs ---------------------------------------------------------------------------------------
def traced_sim(sim, root=ROOT):
    """The traced twin of a simulator (<sim>-waves: FST tracing compiled in), built on first use by make.
    The regression's simulators are built without tracing; only runs that record waves need the twin."""
    twin = sim + '-waves'
    rel = os.path.relpath(os.path.abspath(os.path.join(root, twin)), root)
    ondemand = [d for duts in all_duts().values() for d in duts.values()
                if d.ondemand and rel == os.path.join(d.build_dir, 'sim-waves')]
    if ondemand and not os.access(os.path.join(root, twin), os.X_OK):
        # An on-demand DUT's twin is a second build of hours (nv_full): a failing run's waves must not start it.
        raise ManifestError(f"the traced simulator {rel} is not built and DUT {ondemand[0].name} is built on demand "
                            f"only (hours): build it with 'make {rel}', then re-run with make waves")
    p = subprocess.run(['make', '-s', '--no-print-directory', f'-j{os.cpu_count() or 2}', os.path.relpath(twin, root)],
                       cwd=root, capture_output=True, text=True)
    if p.returncode != 0:
        raise ManifestError(f"cannot build the traced simulator {os.path.relpath(twin, root)}:\n"
                            + (p.stdout + p.stderr)[-2000:])
    return twin


def write_if_changed(path, text):
    """Make restarts only when an included fragment really changes."""
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    with open(path + '.tmp', 'w') as f:
        f.write(text)
    os.replace(path + '.tmp', path)


def make_fragment(write=True):
    """Per DUT: its folder, availability, Verilator arguments and every file the build depends on. write=False:
    the text only, no file of a build folder written (tests: a rewritten dut.args would re-verilate)."""
    lines = ['# generated by flow/dut_manifest.py from tb/*/duts/*.dut: do not edit', '']
    for acc, duts in sorted(all_duts().items()):
        lines.append(f"DUTS_{acc} := {' '.join(sorted(duts))}")
        lines.append(f"DUT_DEFAULT_{acc} := {default_dut(acc).name}")
        for name, d in sorted(duts.items()):
            v = f"DUT_{acc}_{name}"
            why = d.unavailable()
            lines.append(f"{v}_DIR := {d.build_dir}")
            lines.append(f"{v}_WHY := {why or ''}")
            lines.append(f"{v}_DEFAULT := {1 if d.default else ''}")
            lines.append(f"{v}_ONDEMAND := {1 if d.ondemand else ''}")
            if why:
                lines.append('')
                continue
            libs, srcs, incs = d.sources()
            args = [f"-DDUT_TOP={d.top}"] + [f"-D{x}" for x in d.defines] + d.vflags
            if d.waivers:
                args.append(os.path.join(ROOT, d.build_dir, 'dut_waivers.vlt'))
            args += [f"+incdir+{i}" for i in incs]
            for lib in libs:
                args += ['-v', lib]
            args += srcs
            lines.append(f"{v}_VARGS := {' '.join(args)}")
            # Our files by mtime (git rewrites a file only when its content changes; touching the .dut forces a
            # re-verilation), the vendor's by content: upstream.sum (flow/upstream_sum.py), so a tree copied anew
            # with the same contents re-verilates nothing.
            up_sum = os.path.join(d.build_dir, 'upstream.sum')
            lines.append(f"{v}_DEPS := {' '.join(d.own_files() + [up_sum])}")
            # Generated here, rewritten only when they change, so that a no-op make verilates nothing.
            if write:
                upstream_sum.write_sum(os.path.join(ROOT, up_sum), d.upstream_files())
                write_if_changed(os.path.join(ROOT, d.build_dir, 'dut.args'), ' '.join(args) + '\n')
                write_if_changed(os.path.join(ROOT, d.build_dir, 'dut_info.c'), info_c(d))
            if d.waivers and write:
                write_if_changed(os.path.join(ROOT, d.build_dir, 'dut_waivers.vlt'), vlt(d))
            lines.append(f"{v}_PATCHED := {os.path.join(d.build_dir, 'patched', '.stamp') if d.patches else ''}")
            lines.append(f"{v}_WAIVERS := {os.path.join(d.build_dir, 'dut_waivers.vlt') if d.waivers else ''}")
            lines.append(f"{v}_PGO := {os.path.join(d.here, d.pgo) if d.pgo else ''}")
            lines.append(f"{v}_CXXOPT := {' '.join(d.cxxopt)}")
            lines.append(f"{v}_HIEROPT := {' '.join(d.hieropt)}")
            lines.append(f"{v}_CXX := {d.cxx}")
            lines.append('')
    return '\n'.join(lines) + '\n'


def c_string(s):
    return '"' + s.replace('\\', '\\\\').replace('"', '\\"') + '"'


def info_c(d):
    """The simulator's compiled-in description of its DUT (tb/common/dut_info.h)."""
    feats = ', '.join(c_string(f) for f in d.features)
    sigs = ', '.join(c_string(s) for s in d.signal_list())
    return (f"/* generated by flow/dut_manifest.py from {os.path.relpath(d.path, ROOT)}: do not edit */\n"
            f'#include "dut_info.h"\n'
            f"static const char *const features[] = {{{feats + ', ' if feats else ''}NULL}};\n"
            f"static const char *const signals[] = {{{sigs + ', ' if sigs else ''}NULL}};\n"
            f"const dut_info_t tb_dut = {{\n"
            f"    .acc = {c_string(d.acc)}, .name = {c_string(d.name)}, .describe = {c_string(d.describe)},\n"
            f"    .source = {c_string(d.source)}, .root = {c_string(d.root)}, .is_default = {int(d.default)},\n"
            f"    .features = features, .wave_signals = signals,\n}};\n")


def vlt(d):
    """The waivers files in order, one control file (each keeps its `verilator_config line: 5.006 and 5.49 both
    accept it again); @ROOT@ is where the build reads the RTL from: root, or its patched copy; @<label>@ is the
    tree of `extroot <label>`."""
    texts = []
    for w in d.waivers:
        with open(os.path.join(d.here, w)) as f:
            texts.append(f.read())
    text = '\n'.join(texts).replace('@ROOT@', d.src_root)
    for label in d.extroots:
        text = text.replace(f'@{label}@', d.extroot(label))
    return text


def patch_copy(d, stamp):
    """Copy root under the build folder and apply the patches; the upstream files stay untouched."""
    dest = os.path.dirname(stamp)
    subprocess.run(['rm', '-rf', dest], check=True)
    subprocess.run(['cp', '-r', d.root, dest], check=True)
    for p in d.patches:
        r = subprocess.run(['patch', '-p1', '-s', '-d', dest, '-i', os.path.join(d.here, p)],
                           capture_output=True, text=True)
        if r.returncode:
            raise ManifestError(f"{os.path.join(d.here, p)} does not apply to {d.root}:\n{r.stdout}{r.stderr}")
    open(stamp, 'w').close()


def main(argv):
    try:
        if argv[:1] == ['make'] and len(argv) == 2:
            write_if_changed(argv[1], make_fragment())
        elif argv[:1] == ['info'] and len(argv) == 4:
            write_if_changed(argv[3], info_c(get(argv[1], argv[2])))
        elif argv[:1] == ['vlt'] and len(argv) == 4:
            write_if_changed(argv[3], vlt(get(argv[1], argv[2])))
        elif argv[:1] == ['patch'] and len(argv) == 4:
            patch_copy(get(argv[1], argv[2]), argv[3])
        elif argv[:1] == ['list']:
            for acc, duts in sorted(all_duts().items()):
                for name, d in sorted(duts.items()):
                    why = d.unavailable()
                    print(f"{acc:9} {name:10} {'(default) ' if d.default else ''}{d.describe}"
                          f"{'  [unavailable: ' + why + ']' if why else ''}"
                          f"{'  [built on demand: make ' + d.build_target + ']' if d.ondemand and not why else ''}")
        elif argv[:1] == ['check'] and len(argv) in (2, 3):
            d = get(argv[1], argv[2] if len(argv) == 3 else None)
            why = d.unavailable()
            if why:
                print(why, file=sys.stderr)
                return 3
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (ManifestError, OSError) as ex:
        print(f"ERROR: {ex}", file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
