#!/usr/bin/env python3
"""The register generator (flow/gen_regs.py; run by make regs-check): regenerating every accelerator in a copy
of the repository gives the committed files byte for byte; a changed description fails --check naming the
stale files and the description; a malformed one names its file and line; nv_full's registers come out at the
addresses NVIDIA's arnvdla.h gives, and its generated C compiles (skipped when ../shared is absent); without
arnvdla.h the NVDLA library still builds (NV_FULL_ABSENT: the nv_full generators' stubs)."""
import contextlib
import io
import os
import shutil
import subprocess
import tempfile

from flow import gen_regs

ROOT = gen_regs.ROOT
results = {'passed': 0, 'failed': 0}


def check(ok, what):
    results['passed' if ok else 'failed'] += 1
    print(('ok     ' if ok else 'FAILED ') + what)


def run(argv):
    """main(argv) -> (exit status, stdout + stderr)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        rc = gen_regs.main(argv)
    return rc, out.getvalue()


def copy_tree(dst):
    """The descriptions and the committed outputs, as a repository of their own under dst."""
    for acc in gen_regs.COMMITTED:
        desc, outs = gen_regs.outputs(acc, ROOT)
        for rel in [desc] + list(outs):
            os.makedirs(os.path.dirname(os.path.join(dst, rel)), exist_ok=True)
            shutil.copyfile(os.path.join(ROOT, rel), os.path.join(dst, rel))


def read(path):
    with open(path, 'rb') as fh:
        return fh.read()


def edit(path, old, new):
    with open(path) as fh:
        text = fh.read()
    assert old in text, (path, old)
    with open(path, 'w') as fh:
        fh.write(text.replace(old, new, 1))


def committed_identical():
    rc, out = run(['--check'] + list(gen_regs.COMMITTED))
    check(rc == 0, 'the committed register files are up to date (--check exit %d)%s'
          % (rc, '' if rc == 0 else ': ' + out))
    with tempfile.TemporaryDirectory() as tmp:
        copy_tree(tmp)
        outs = {}
        for acc in gen_regs.COMMITTED:
            outs.update(gen_regs.outputs(acc, tmp)[1])
            for rel in gen_regs.outputs(acc, tmp)[1]:
                os.remove(os.path.join(tmp, rel))
        rc, _ = run(['--root', tmp] + list(gen_regs.COMMITTED))
        same = [rel for rel in outs if read(os.path.join(tmp, rel)) == read(os.path.join(ROOT, rel))]
        check(rc == 0 and len(same) == len(outs),
              'regenerated from scratch: %d of %d files byte-identical' % (len(same), len(outs)))


def changed_description():
    with tempfile.TemporaryDirectory() as tmp:
        copy_tree(tmp)
        edit(os.path.join(tmp, gen_regs.NE16_CSV), 'PADDING,0x70,VALUE,15,0,RW,0x0', 'PADDING,0x70,VALUE,15,0,RW,0x5')
        rc, out = run(['--root', tmp, '--check'])
        check(rc == 1 and 'ne16_regs_pkg.sv is out of date with %s' % gen_regs.NE16_CSV in out,
              'a changed NE16 reset fails --check naming the package and the description')
        edit(os.path.join(tmp, gen_regs.MAX_CSV), 'LCNT,4,0,RW', 'LCNT,5,0,RW')
        rc, out = run(['--root', tmp, '--check', 'max78000'])
        check(rc == 1 and 'golden/max78000/max78000_regs.h is out of date with %s' % gen_regs.MAX_CSV in out,
              'a changed MAX78000 field fails --check naming the header and the description')
        edit(os.path.join(tmp, gen_regs.NVDLA_CSV), 'NVDLA_SDP,D_DP_BS_CFG_0,0x09058,BS_BYPASS,0,0,RW,0x1',
             'NVDLA_SDP,D_DP_BS_CFG_0,0x09058,BS_BYPASS,0,0,RW,0x0')
        rc, out = run(['--root', tmp, '--check', 'nvdla'])
        check(rc == 1 and 'nvdla_sdp_regfile.sv is out of date' in out and 'nvdla_regmap.c is out of date' in out,
              'a changed NVDLA reset fails --check naming the SDP register file and the register table')
        rc, _ = run(['--root', tmp, 'nvdla', 'ne16', 'max78000'])
        rc2, _ = run(['--root', tmp, '--check', 'nvdla', 'ne16', 'max78000'])
        check(rc == 0 and rc2 == 0, 'regenerating makes --check pass again')
        edit(os.path.join(tmp, gen_regs.NE16_CSV), 'NE16,STATUS,0x0C,CTX1_BUSY,8,8', 'NE16,STATUS,0x0C,CTX1_BUSY,0,0')
        rc, out = run(['--root', tmp, '--check', 'ne16'])
        check(rc == 2 and '%s:' % gen_regs.NE16_CSV in out and 'overlaps' in out,
              'an overlapping field is an error naming file:line: %s' % out.strip())


# (register, byte address, field, shift, mask) as NVIDIA's arnvdla.h gives them
NV_FULL_SAMPLES = [
    ('NVDLA_CDMA', 'D_DATAIN_FORMAT_0', 0x5018, 'PIXEL_FORMAT', 8, 0x3f00),
    ('NVDLA_SDP', 'D_DP_BS_CFG_0', 0xb058, 'BS_BYPASS', 0, 0x1),
    ('NVDLA_RBK', 'D_DAIN_ADDR_HIGH_0', 0x1001c, None, None, None),
    ('NVDLA_CVIF', 'CFG_RD_WEIGHT_0_0', 0x3000, None, None, None),
    ('NVDLA_CVIF', 'STATUS_0', 0x3018, None, None, None),
    ('NVDLA_GEC', 'FEATURE_0', 0x1000, None, None, None),
]


def nv_full():
    src = gen_regs.nv_full_dir(None)
    hdr = os.path.join(src, gen_regs.NV_FULL_HDR)
    if not os.path.isfile(hdr):
        print('skip   nv_full: %s absent' % hdr)
        return
    units = gen_regs.nv_full_load(hdr)
    for unit, reg, addr, field, shift, mask in NV_FULL_SAMPLES:
        r = units[unit].regs.get(reg)
        ok = r is not None and r.addr == addr
        if ok and field:
            f = next((f for f in r.fields if f.name == field), None)
            ok = f is not None and f.lsb == shift and f.mask == mask
        check(ok, 'nv_full %s.%s at 0x%05x%s' % (unit, reg, addr, ' field %s' % field if field else ''))
    check(units['NVDLA_SDP'].regs['D_DP_BS_CFG_0'].dual and not units['NVDLA_SDP'].regs['S_STATUS_0'].dual,
          'nv_full D_ registers are dual (ping-pong), S_ ones single')
    with tempfile.TemporaryDirectory() as tmp:
        rc, _ = run(['--root', tmp, 'nv_full'])
        out = os.path.join(tmp, gen_regs.NV_FULL_OUT)
        h = open(os.path.join(out, 'nv_full_regs.h')).read() if rc == 0 else ''
        check('#define NVDLA_CDMA_D_DATAIN_FORMAT_0 0x05018u\n' in h and
              '#define NVDLA_CDMA_D_DATAIN_FORMAT_0_PIXEL_FORMAT_SHIFT 8u\n' in h and
              '#define NVDLA_CDMA_D_DATAIN_FORMAT_0_PIXEL_FORMAT_MASK 0x00003f00u\n' in h,
              'nv_full_regs.h has the CDMA register and its field in the _SHIFT/_MASK convention')
        os.makedirs(os.path.join(tmp, 'golden'))
        shutil.copytree(os.path.join(ROOT, 'golden', 'common'), os.path.join(tmp, 'golden', 'common'))
        test_c = os.path.join(tmp, 't.c')
        with open(test_c, 'w') as fh:
            fh.write('#include "nv_full_regs.h"\n#include "nv_full_regmap.h"\n'
                     'int main(void) {\n'
                     '    const nvdla_reg_t *r = nv_full_reg_by_name("NVDLA_RBK.D_DAIN_ADDR_HIGH_0");\n'
                     '    return !(r && r->addr == NVDLA_RBK_D_DAIN_ADDR_HIGH_0 && nv_full_reg_by_addr(0x5018u) &&\n'
                     '             REG_GET(0xc00u, NVDLA_CDMA_D_DATAIN_FORMAT_0_PIXEL_FORMAT) == 0xcu &&\n'
                     '             REG_SET(0xffffffffu, NVDLA_CDMA_D_DATAIN_FORMAT_0_PIXEL_FORMAT, 0x41u) == 0xffffc1ffu);\n}\n')  # noqa: E501
        cc = subprocess.run(['gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', '-I' + out,
                             '-I' + os.path.join(ROOT, 'golden', 'nvdla'), test_c,
                             os.path.join(out, 'nv_full_regmap.c'), '-o', os.path.join(tmp, 't')],
                            capture_output=True, text=True)
        ok = cc.returncode == 0 and subprocess.run([os.path.join(tmp, 't')]).returncode == 0
        check(ok, 'nv_full_regmap.c compiles with -Werror, finds registers by name and address; REG_GET/REG_SET%s'
              % ('' if ok else ': ' + cc.stderr[:500]))


def nv_full_absent():
    """A checkout without nv_full's arnvdla.h (no ../shared) must still compile the NVDLA library: every use of
    nv_full_regs.h sits behind NV_FULL_ABSENT (tb/nvdla/nvfull/nv_full_map.mk defines it then). Each C file that
    names the map or the macro is compiled so (gcc -fsyntax-only, the Makefile's C flags and NVDLA include folders,
    no generated map); nvf_gen_util.c's convolution launch once used nv_full's register names outside the guard.
    Not through make: another BUILD or NV_FULL would rewrite the models' verilate.cmd stamps (their folders are
    build/<acc>-<dut> whatever BUILD says) and so re-verilate them."""
    srcs = []
    for d in ('tb/nvdla', 'golden/nvdla'):
        for name in sorted(os.listdir(os.path.join(ROOT, d))):
            if name.endswith('.c'):
                text = read(os.path.join(ROOT, d, name)).decode('utf-8', 'replace')
                if 'NV_FULL_ABSENT' in text or 'nv_full_reg' in text:
                    srcs.append(os.path.join(d, name))
    bad = []
    for src in srcs:
        cc = subprocess.run(['gcc', '-std=c11', '-Wall', '-Wextra', '-Werror', '-D_POSIX_C_SOURCE=200809L', '-Idpi',
                             '-Itb/common', '-Igolden/nvdla', '-Itb/nvdla', '-DNV_FULL_ABSENT="arnvdla.h is absent"',
                             '-fsyntax-only', src], cwd=ROOT, capture_output=True, text=True)
        if cc.returncode:
            bad.append(src + ': ' + next((ln for ln in cc.stderr.splitlines() if 'error' in ln), cc.stderr[:200]))
    check(len(srcs) >= 10 and not bad, 'without arnvdla.h (NV_FULL_ABSENT) the %d C files that use nv_full\'s map '
          'compile%s' % (len(srcs), '' if not bad else ': ' + ' | '.join(bad[:3])[:400]))

def main():
    committed_identical()
    changed_description()
    nv_full()
    nv_full_absent()
    print('test_gen_regs: %d passed, %d failed' % (results['passed'], results['failed']))
    return 1 if results['failed'] else 0


if __name__ == '__main__':
    raise SystemExit(main())
