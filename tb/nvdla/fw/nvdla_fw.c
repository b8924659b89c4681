/* Test `fw`: a loadable run by NVIDIA's firmware in the loop. The driver lays out the loadable's memory list
 * in the memory model (each entry 4 KiB aligned from 0x80000000, contents placed at their offsets, other bytes
 * of a region a seeded fill), registers the firmware and, per task, does what the Linux port's
 * nvdla_task_submit does: dla_execute_task, then wait for the interrupt, dla_isr_handler, dla_process_events
 * until the task is complete, dla_clear_task. Then the golden model (fed by the CSB monitor) is compared with
 * the DUT's memory, and the output tensor with NVIDIA's golden file when the regression has one. The firmware is
 * built twice (nvdla_fw.mk): for nv_small's register map and, its symbols prefixed nvfull_, for nv_full's. */
#include "nvdla_fw.h"
#include "driver_loop.h"
#include "dut_info.h"
#include "md5.h"
#include "scoreboard.h"
#include "nvdla_fw_host.h"
#include "nvdla_fw_net.h"
#include "nvdla_fw_fp16ref.h"
#include "nvdla_fw_twin.h"
#include "nvdla_emu.h"
#include "rng.h"
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifndef NVDLA_FW_ABSENT
#include <dla_interface.h>
#include <dla_sched.h>
#include <nvdla_interface.h>
#endif

enum { MEM_START = 0x80000000u, MEM_ALIGN = 4096, DIMG_HEADER = 36 };

#ifndef NVDLA_FW_ABSENT
/* nv_full's build of the firmware (tb/nvdla/fw/nvdla_fw.mk): the same sources without DLA_SMALL_CONFIG, every global
 * symbol prefixed nvfull_. Its entry points, as nvdla_interface.h declares the unprefixed ones. */
int32_t nvfull_dla_register_driver(void **engine_context, void *driver_context);
int32_t nvfull_dla_isr_handler(void *engine_context);
int32_t nvfull_dla_process_events(void *engine_context, uint32_t *task_complete);
void nvfull_dla_clear_task(void *engine_context);
int32_t nvfull_dla_execute_task(void *engine_context, void *task_data, void *config_data);

/* One build of NVIDIA's firmware: its register map, entry points and NVIDIA's run-time profile of that
 * configuration (struct dla_config, from the Linux port's nvdla_config_small and nvdla_config_os_initial). */
typedef struct fw_build {
    const char *map;
    int32_t (*register_driver)(void **engine_context, void *driver_context);
    int32_t (*execute_task)(void *engine_context, void *task_data, void *config_data);
    int32_t (*isr_handler)(void *engine_context);
    int32_t (*process_events)(void *engine_context, uint32_t *task_complete);
    void (*clear_task)(void *engine_context);
    struct dla_config config;
} fw_build_t;

static const fw_build_t fw_builds[] = {
    /* nv_small: atom 8, no RUBIK, no compression; BDMA off in NVIDIA's profile, on here for a loadable that uses it */
    {"nv_small",
     dla_register_driver,
     dla_execute_task,
     dla_isr_handler,
     dla_process_events,
     dla_clear_task,
     {.atom_size = 8, .bdma_enable = false, .rubik_enable = false, .weight_compress_support = false}},
    {"nv_full",
     nvfull_dla_register_driver,
     nvfull_dla_execute_task,
     nvfull_dla_isr_handler,
     nvfull_dla_process_events,
     nvfull_dla_clear_task,
     {.atom_size = 32, .bdma_enable = true, .rubik_enable = true, .weight_compress_support = true}},
};
#endif

typedef struct fw_run {
    nvdla_fw_host_t h;
    nvdla_loadable_t ld;
    char *path, *name, *golden; /* golden: NVIDIA's o_000000.dimg, or NULL */
    bool uses[6];               /* DLA_OP_BDMA .. DLA_OP_RUBIK */
    bool nv_full;               /* the firmware built for nv_full's map runs it, else nv_small's */
    /* fw_net golden-only on nv_full with a portable network: the same network for nv_small's map, run first through
     * nv_small's build, the outputs compared (nvdla_fw_twin.c); to_full configures the model as nv_full between. */
    bool has_twin;
    nvdla_loadable_t twin;
    uint64_t *twin_base;
    int64_t corrupt;     /* +fw_corrupt: the element of the first output flipped before the comparison, or -1 */
    int64_t emu_corrupt; /* +emu_corrupt: the element of the last EMU task's output flipped as written, or -1 */
    /* fw_net on nv_full with an FP16 network (no nv_small twin): its outputs against the loadable interpreted element
     * by element (nvdla_fw_fp16ref.c) */
    bool fp16ref;
    nvdla_fw_to_full_t to_full;
    void *to_full_ctx;
} fw_run_t;

static const char *const op_unit[6] = {"bdma", "conv", "sdp", "pdp", "cdp", "rubik"};

static void fw_free(void *arg)
{
    fw_run_t *r = arg;
    nvdla_loadable_free(&r->ld);
    if (r->has_twin) nvdla_loadable_free(&r->twin);
    free(r->twin_base);
    free(r->h.mem_base);
    free(r->path);
    free(r->name);
    free(r->golden);
    free(r);
}

/* Bytes [offset, offset+n) of memory entry m as the loadable sets them (0 where no content lies). */
static void ld_bytes(const ld_mem_t *m, uint64_t offset, void *dst, size_t n)
{
    memset(dst, 0, n);
    for (size_t k = 0; k < m->ncontents; k++) {
        const ld_content_t *c = &m->contents[k];
        if (!c->blob) continue;
        for (size_t i = 0; i < c->blob->size; i++) {
            uint64_t at = c->offset + i;
            if (at >= offset && at < offset + n) ((uint8_t *)dst)[at - offset] = c->blob->data[i];
        }
    }
}

/* NVIDIA's regression keeps a loadable's golden output in regression/golden/<test>_<hash>/dla/o_000000.dimg,
 * beside regression/flatbufs/kmd/<UNIT>/<test>_fbuf. */
static char *find_golden(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && strcmp(base + n - 5, "_fbuf") == 0) n -= 5;
    const char *kmd = strstr(path, "flatbufs/kmd/");
    if (!kmd) return NULL;
    char pat[1200];
    snprintf(pat, sizeof pat, "%.*sgolden/%.*s_*/dla/o_000000.dimg", (int)(kmd - path), path, (int)n, base);
    glob_t g;
    char *out = NULL;
    size_t hits = 0;
    /* <test>_<hash> only: the nv_full test X_L0_0 would also match nv_small's X_L0_0_small_<hash> */
    if (glob(pat, 0, NULL, &g) == 0)
        for (size_t i = 0; i < g.gl_pathc; i++) {
            const char *hash = g.gl_pathv[i] + (kmd - path) + strlen("golden/") + n + 1; /* the glob's '*' */
            if (strcspn(hash, "_/") == strcspn(hash, "/") && !hits++) out = strdup(g.gl_pathv[i]);
        }
    globfree(&g);
    if (hits > 1) free(out), out = NULL; /* ambiguous: none, as before */
    return out;
}

#ifndef NVDLA_FW_ABSENT
static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void md5_file_bytes(const uint8_t *b, size_t n, char out[33])
{
    md5_t m;
    md5_init(&m);
    md5_update(&m, b, n);
    md5_hex(&m, out);
}

/* The output tensor as NVIDIA's runtime dumps it (the golden's header, then the elements read through the
 * runtime's atom addressing, n channels of the 32-byte atom: c/n * surface stride + y * line stride + x * 32 + c % n
 * elements; n = 32 for one-byte elements, 16 for two-byte ones), compared
 * with the golden file byte by byte and by md5 (the regression's lead.md5 is the golden file's md5). */
static void check_nvidia_golden(fw_run_t *r, drv_t *d)
{
    FILE *f = fopen(r->golden, "rb");
    uint8_t *g = NULL;
    size_t glen = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        long sz = ftell(f);
        fseek(f, 0, SEEK_SET);
        g = malloc(sz > 0 ? (size_t)sz : 1);
        glen = g ? fread(g, 1, (size_t)(sz > 0 ? sz : 0), f) : 0;
        fclose(f);
    }
    if (glen < DIMG_HEADER || memcmp(g, "DIMG", 4) != 0) {
        sim_error(drv_sim(d), "NVIDIA golden %s: not a DIMG file (%zu bytes)", r->golden, glen);
        free(g);
        return;
    }
    /* header: "DIMG", 0, format, w, h, c, line stride, surface stride, buffer size; then the elements. The format
     * codes of NVIDIA's regression goldens, read from the files (their buffer size is w*h*c times the element size):
     * 40 one-byte elements, 32 channels to the 32-byte atom (the INT8 loadables, nv_small's and nv_full's); 41 and 42
     * two-byte elements, 16 to the atom (41: INT16, CONV_D_L0_0, CDP_L0_0, RBK_L0_0; 42: FP16, NN_L0_0). */
    const uint32_t fmt = le32(g + 8), esize = fmt == 41 || fmt == 42 ? 2 : 1, per_atom = 32 / esize;
    uint32_t w = le32(g + 12), hgt = le32(g + 16), c = le32(g + 20), ls = le32(g + 24), ss = le32(g + 28);
    uint32_t nval = w * hgt * c, size = nval * esize;
    const ld_mem_t *out = NULL;
    for (size_t i = 0; i < r->ld.nmems && !out; i++)
        if (r->ld.mems[i].flags & LD_MEM_OUTPUT) out = &r->ld.mems[i];
    if (fmt < 40 || fmt > 42 || !out || DIMG_HEADER + (size_t)size != glen) {
        sim_error(drv_sim(d),
                  "NVIDIA golden %s: format %u (known: 40, 41, 42), header %ux%ux%u, %u bytes, file %zu bytes, and %s "
                  "output memory entry",
                  r->golden, fmt, w, hgt, c, size, glen, out ? "an" : "no");
        free(g);
        return;
    }
    uint64_t base = r->h.mem_base[out - r->ld.mems];
    uint8_t *mine = malloc(glen);
    uint64_t *at = malloc(((size_t)size ? size : 1) * sizeof *at); /* the address each golden byte is read at */
    if (!mine || !at) abort();
    memcpy(mine, g, DIMG_HEADER);
    size_t k = DIMG_HEADER, first = 0, ndiff = 0;
    for (uint32_t ch = 0; ch < c; ch++)
        for (uint32_t y = 0; y < hgt; y++)
            for (uint32_t x = 0; x < w; x++)
                for (uint32_t b = 0; b < esize; b++, k++) {
                    at[k - DIMG_HEADER] =
                        (uint64_t)ch / per_atom * ss + (uint64_t)y * ls + (uint64_t)x * 32 + ch % per_atom * esize + b;
                    drv_mem_read(d, base + at[k - DIMG_HEADER], &mine[k], 1);
                    if (mine[k] != g[k] && !ndiff++) first = (k - DIMG_HEADER) / esize;
                }
    /* The view is NVIDIA's (its runtime reads the cube as 32-channel atoms): on an nv_small cube of 8-byte atoms
     * several elements land on one byte and some bytes are never read, so the file constrains fewer distinct
     * output bytes than it holds. Those are what the check covers; the rest is compared with the golden model. */
    uint64_t distinct = 0, inside = 0;
    qsort(at, size, sizeof *at, cmp_u64);
    for (size_t i = 0; i < size; i++)
        if (i == 0 || at[i] != at[i - 1]) distinct++, inside += at[i] < out->size;
    free(at);
    sb_add_compared(sim_scoreboard(drv_sim(d)), distinct); /* the bytes the golden file constrains */
    char gm[33], mm[33];
    md5_file_bytes(g, glen, gm);
    md5_file_bytes(mine, glen, mm);
    if (ndiff) {
        uint32_t e = (uint32_t)first;
        uint32_t gv = 0, dv = 0; /* the element, little-endian */
        for (uint32_t b = esize; b-- > 0;)
            gv = gv << 8 | g[DIMG_HEADER + first * esize + b], dv = dv << 8 | mine[DIMG_HEADER + first * esize + b];
        sim_error(drv_sim(d),
                  "MISMATCH NVIDIA golden output %s: %zu of %u bytes differ, first in element c %u y %u x %u: "
                  "golden 0x%0*x, DUT 0x%0*x; md5 golden %s, DUT %s",
                  r->golden, ndiff, size, e / (w * hgt), e / w % hgt, e % w, (int)esize * 2, gv, (int)esize * 2, dv, gm,
                  mm);
    } else {
        printf("NVIDIA golden %s: %u values equal, read from %llu distinct bytes of the %llu-byte output entry; md5 "
               "of the DUT's output %s, of the golden file %s\n",
               r->golden, nval, (unsigned long long)distinct, (unsigned long long)out->size, mm, gm);
    }
    if (inside < out->size)
        sim_summary(drv_sim(d),
                    "NVIDIA golden %s constrains %llu of the %llu bytes of output entry %u (%u values through "
                    "NVIDIA's %u-channel view%s); every byte the DUT wrote is compared with the golden model",
                    r->golden, (unsigned long long)inside, (unsigned long long)out->size, out->id, nval, per_atom,
                    distinct > inside ? ", some outside the entry" : "");
    /* the regression's published digest of the golden file, lead.md5 beside it */
    char lead[1200], want[40] = "";
    snprintf(lead, sizeof lead, "%.*slead.md5",
             (int)(strrchr(r->golden, '/') ? strrchr(r->golden, '/') + 1 - r->golden : 0), r->golden);
    FILE *lf = fopen(lead, "r");
    if (lf && fscanf(lf, "%32s", want) == 1) {
        if (strcmp(want, mm) != 0)
            sim_error(drv_sim(d), "MISMATCH md5 of the DUT's output %s differs from %s's %s", mm, lead, want);
        else printf("lead.md5 %s: %s equal\n", lead, want);
    } else {
        sim_note(drv_sim(d), "no lead.md5 beside %s: compared with the golden file only", r->golden);
    }
    if (lf) fclose(lf);
    free(mine);
    free(g);
}

/* Lays out loadable l's memory list from *at on: each entry aligned (4 KiB at least), its contents placed, its other
 * bytes a seeded fill, a gap after it (a unit that runs past its region writes outside every golden box). Its
 * regions, named after `what`, go into reg[] and names[], each rounded up to the DBB's word (`word`: 8 bytes on
 * nv_small, 64 on nv_full): the memory interface moves whole words, so the last word of an entry whose size is not
 * a multiple of it may be read whole (nv_full's BRDMA reads NN_L0_0's 40-byte and 20-byte bias entries as 64 bytes
 * each), as NVIDIA's allocations (whole pages) allow; anything past that word is still outside. */
static void lay_out(drv_t *d, rng_t *rng, const nvdla_loadable_t *l, uint64_t *base, uint64_t *at, const char *what,
                    uint32_t word, mem_region_t *reg, char (*names)[96])
{
    for (size_t i = 0; i < l->nmems; i++) {
        const ld_mem_t *m = &l->mems[i];
        uint64_t align = m->alignment > MEM_ALIGN ? m->alignment : MEM_ALIGN;
        *at = (*at + align - 1) / align * align;
        base[i] = *at;
        /* A bound input the loadable does not set (NN_L0_0's image) is what NVIDIA's regression ran it with: its
         * client sends no image (regression/scripts/KmdRunScript.py:157), so the runtime test binds a freshly
         * allocated buffer unwritten (umd/tests/runtime/RuntimeTest.cpp:93-95, :150-153 at nvdla/sw 38235bb), and the
         * kernel's GEM allocation (kmd/port/linux/nvdla_gem.c, dma_alloc_attrs) hands it out zeroed. */
        const bool unset_input = (m->flags & LD_MEM_INPUT) && m->ncontents == 0;
        drv_mem_fill(d, *at, m->size, unset_input ? 0 : (uint8_t)rng_range(rng, 0, 255));
        for (size_t k = 0; k < m->ncontents; k++)
            if (m->contents[k].blob)
                drv_mem_write(d, *at + m->contents[k].offset, m->contents[k].blob->data, m->contents[k].blob->size);
        *at += m->size + MEM_ALIGN;
        snprintf(names[i], sizeof names[i], "%s memory entry %u", what, m->id);
        reg[i] = (mem_region_t){base[i], (m->size + word - 1) / word * word, names[i]};
    }
}

static void emu_read(void *ctx, uint64_t addr, void *dst, size_t n) { drv_mem_read(ctx, addr, dst, n); }
static void emu_write(void *ctx, uint64_t addr, const void *src, size_t n) { drv_mem_write(ctx, addr, src, n); }

/* The order NVIDIA's runtime submits l's tasks in: the submit list's entries in order, each entry's tasks in order
 * (umd/core/runtime/Runtime.cpp:565-630 at nvdla/sw 38235bb: each submission blocks until done), into order[];
 * without a submit list, the task list's order. Returns the count. */
static size_t submit_order(const nvdla_loadable_t *l, size_t *order, size_t max)
{
    size_t n = 0;
    for (size_t s = 0; s < l->nsubmits; s++)
        for (size_t k = 0; k < l->submits[s].ntasks; k++)
            if (n < max) order[n++] = l->submits[s].task_ids[k];
    if (!l->nsubmits)
        for (size_t t = 0; t < l->ntasks && n < max; t++) order[n++] = t;
    return n;
}

/* Every task of l in NVIDIA's runtime's order: a DLA1 task through firmware build fw, as the Linux port's
 * nvdla_task_submit does it; an EMU1 task on the host, as NVIDIA's runtime's CPU emulator does it (nvdla_emu.c),
 * reading and writing the memory the DUT and the golden model share the layout of. */
static void run_tasks(fw_run_t *r, drv_t *d, const nvdla_loadable_t *l, uint64_t *base, const fw_build_t *fw,
                      bool nv_full)
{
    nvdla_fw_host_t *h = &r->h;
    h->ld = l, h->mem_base = base;
    void *engine = NULL;
    fw->register_driver(&engine, h);
    fw->clear_task(engine);
    struct dla_config config = fw->config;
    if (!nv_full) config.bdma_enable = r->uses[DLA_OP_BDMA];
    size_t cap = l->ntasks, last_emu = SIZE_MAX;
    for (size_t s = 0; s < l->nsubmits; s++) cap += l->submits[s].ntasks;
    size_t *order = calloc(cap ? cap : 1, sizeof *order);
    if (!order) abort();
    const size_t norder = submit_order(l, order, cap);
    for (size_t k = 0; k < norder; k++)
        if (l->tasks[order[k]].interface == LD_IF_EMU1) last_emu = k;
    for (size_t k = 0; k < norder; k++) {
        h->task = &l->tasks[order[k]];
        drv_job(d, "fw.%s%s.t%u", r->name, l == &r->twin ? ".nv_small_twin" : "", h->task->id);
        if (h->task->interface == LD_IF_EMU1) {
            const nvdla_emu_io_t io = {d, emu_read, emu_write};
            char what[300], err[400];
            if (nvdla_emu_task(&io, l, h->task, base, k == last_emu ? r->emu_corrupt : -1, what, sizeof what, err,
                               sizeof err))
                drv_fail(d, "loadable %s: %s", r->path, err);
            sim_note(drv_sim(d), "%s", what);
            continue;
        }
        int32_t rc = fw->execute_task(engine, h, &config);
        if (rc) drv_fail(d, "dla_execute_task (%s's firmware) of task %u returned %d", fw->map, h->task->id, rc);
        uint32_t complete = 0;
        while (!complete) {
            drv_wait_irq(d, 0, 0);
            fw->isr_handler(engine);
            rc = fw->process_events(engine, &complete);
            if (rc) drv_fail(d, "dla_process_events (%s's firmware) of task %u returned %d", fw->map, h->task->id, rc);
        }
        fw->clear_task(engine);
        drv_check_golden(d);
    }
    free(order);
}

static int fw_main(drv_t *d, void *arg)
{
    fw_run_t *r = arg;
    r->h.d = d;
    rng_t rng;
    rng_seed_stream(&rng, drv_seed(d), "fw.fill");
    /* the memory lists, laid out (the twin's after the loadable's); every DMA the loadables program must stay inside
     * their memory entries, on the DUT and in the golden model */
    size_t nreg = r->ld.nmems + (r->has_twin ? r->twin.nmems : 0);
    mem_region_t *reg = calloc(nreg ? nreg : 1, sizeof *reg);
    char(*names)[96] = calloc(nreg ? nreg : 1, sizeof *names);
    if (!reg || !names) abort();
    uint64_t at = MEM_START;
    lay_out(d, &rng, &r->ld, r->h.mem_base, &at, r->name, r->nv_full ? 64 : 8, reg, names);
    char twin_name[96];
    snprintf(twin_name, sizeof twin_name, "%s's nv_small twin", r->name);
    if (r->has_twin)
        lay_out(d, &rng, &r->twin, r->twin_base, &at, twin_name, 8, reg + r->ld.nmems, names + r->ld.nmems);
    drv_mem_fence(d, reg, nreg); /* copies the names */
    free(reg);
    free(names);
    uint64_t *base = r->h.mem_base; /* run_tasks points the host at the loadable it runs */
    if (r->has_twin) {              /* nv_small first, on the model as configured at start (ours: nv_small's map) */
        run_tasks(r, d, &r->twin, r->twin_base, &fw_builds[0], false);
        char why[400];
        if (r->to_full(r->to_full_ctx, why, sizeof why)) drv_fail(d, "fw_net twin: nv_full: %s", why);
    }
    run_tasks(r, d, &r->ld, base, &fw_builds[r->nv_full], r->nv_full);
    if (r->has_twin) nvdla_fw_twin_compare(d, &r->ld, base, &r->twin, r->twin_base, r->corrupt);
    else if (r->fp16ref) nvdla_fw_fp16ref_compare(d, &r->ld, base, r->corrupt);
    else if (r->golden) check_nvidia_golden(r, d);
    else if (sim_plusarg_flag(drv_sim(d), "golden_only"))
        sim_note(drv_sim(d),
                 "golden-only: nothing checks this network's output (only a portable one has a twin to compare with: "
                 "+fw_portable draws one); on a DUT the golden model checks every byte");
    return 0;
}
#endif

#ifdef NVDLA_FW_ABSENT
/* A run of test fw or fw_net on a build without NVIDIA's firmware: one job, skipped with the reason. */
static int fw_absent(program_t *p, const char *test)
{
    free(p->name);
    p->name = strdup(test);
    prog_job(p, "%s", test);
    prog_skip(p, "NVIDIA's firmware was not found at build time (%s): rebuild with NVDLA_SW=<nvdla_sw checkout>",
              NVDLA_FW_ABSENT);
    return 0;
}

/* fw_net's loadables are written with the firmware's own structures (dla_interface.h), so without it
 * nvdla_fw_net.c is not built (tb/nvdla/fw/nvdla_fw.mk) and fw_net is skipped before it would get here. */
static int net_loadable(sim_t *sim, fw_run_t *r, bool golden_only, char *name, size_t namelen, char *err, size_t errlen)
{
    (void)sim, (void)r, (void)golden_only, (void)name, (void)namelen;
    snprintf(err, errlen, "test fw_net: NVIDIA's firmware was not found at build time (%s)", NVDLA_FW_ABSENT);
    return -1;
}
#else
/* Test fw_net: a random network's loadable, from the seed (+fw_save=FILE keeps it), for the map the firmware build
 * programs (nv_full: 32-byte atoms, INT8 or INT16, +fw_prec= forces one). CDP's LUT is NVIDIA's LRN table from its
 * nv_small CDP regression loadable (+fw_lut=; nv_full's CDP_L0_0 table sends nearly every lookup to overflow), without
 * which the networks have no CDP; the convolution layer is the map's CONV_D_L0_0 (+fw_conv=). */
static int net_loadable(sim_t *sim, fw_run_t *r, bool golden_only, char *name, size_t namelen, char *err, size_t errlen)
{
    const bool nv_full = r->nv_full;
    const uint64_t seed = sim_seed(sim);
    nvdla_fw_net_opts_t o = {.nv_full = nv_full, .portable = sim_plusarg_flag(sim, "fw_portable"), .precision = -1};
    const char *prec = sim_plusarg(sim, "fw_prec"), *not_computed = NULL;
    if (prec && *prec) {
        o.precision = nvdla_fw_net_prec(prec, &not_computed);
        if (o.precision < 0 || ((!nv_full || o.portable) && o.precision != PRECISION_INT8)) {
            snprintf(err, errlen, "+fw_prec=%s: the networks for %s have precision %s", prec,
                     o.portable ? "both maps (+fw_portable)"
                     : nv_full  ? "nv_full"
                                : "nv_small",
                     nv_full && !o.portable ? "int8, int16 or fp16" : "int8 only");
            return -1;
        }
        if (not_computed) {
            snprintf(err, errlen, "+fw_prec=%s: refused: %s", prec, not_computed);
            return -1;
        }
    }
    const char *lutfile = sim_plusarg(sim, "fw_lut");
    if (!lutfile || !*lutfile) lutfile = "../shared/upstream/nvdla_sw/regression/flatbufs/kmd/CDP/CDP_L0_0_small_fbuf";
    nvdla_loadable_t cdp;
    char lerr[300];
    bool have = nvdla_loadable_read(&cdp, lutfile, lerr, sizeof lerr) == 0;
    for (size_t i = 0; have && i < cdp.nblobs; i++)
        if (strstr(cdp.blobs[i].name, "LUTList")) o.lut = cdp.blobs[i].data, o.lutlen = cdp.blobs[i].size;
    if (!o.lut) printf("fw_net: no CDP LUT (%s): the network has no CDP\n", have ? "no LUTList blob" : lerr);
    const char *convfile = sim_plusarg(sim, "fw_conv");
    if (!convfile || !*convfile)
        convfile = nv_full ? "../shared/upstream/nvdla_sw/regression/flatbufs/kmd/CONV/CONV_D_L0_0_fbuf"
                           : "../shared/upstream/nvdla_sw/regression/flatbufs/kmd/CONV/CONV_D_L0_0_small_fbuf";
    nvdla_loadable_t conv;
    bool have_conv = nvdla_loadable_read(&conv, convfile, lerr, sizeof lerr) == 0;
    if (!have_conv) printf("fw_net: no convolution layer template (%s)\n", lerr);
    o.conv = have_conv ? &conv : NULL;
    uint8_t *buf;
    size_t len;
    char what[600];
    int nops = nvdla_fw_net_build(seed, &o, &buf, &len, what, sizeof what);
    /* the twin: the same seed drawn for nv_small's map, which a golden-only run compares with (nvdla_fw_twin.c) */
    const bool twin = nv_full && o.portable && golden_only;
    uint8_t *tbuf = NULL;
    size_t tlen = 0;
    char twhat[600];
    if (twin) o.nv_full = false, nvdla_fw_net_build(seed, &o, &tbuf, &tlen, twhat, sizeof twhat);
    if (have) nvdla_loadable_free(&cdp);
    if (have_conv) nvdla_loadable_free(&conv);
    printf("fw_net seed %llu: %d operations: %s\n", (unsigned long long)seed, nops, what);
    const char *save = sim_plusarg(sim, "fw_save");
    if (save && *save) {
        FILE *f = fopen(save, "wb");
        if (!f || fwrite(buf, 1, len, f) != len) {
            snprintf(err, errlen, "+fw_save=%s: cannot write", save);
            if (f) fclose(f);
            free(buf);
            free(tbuf);
            return -1;
        }
        fclose(f);
        printf("fw_net: loadable written to %s (make run ACC=nvdla%s LOADABLE=%s%s)\n", save,
               nv_full ? " DUT=nv_full" : "", save, nv_full ? " GOLDEN_ONLY=1" : "");
    }
    snprintf(name, namelen, "net_s%llu", (unsigned long long)seed);
    if (nvdla_loadable_parse(&r->ld, buf, len, name, err, errlen)) {
        free(tbuf);
        return -1;
    }
    /* an FP16 network has no nv_small twin: the loadable itself, interpreted, checks it (on a DUT too, besides the
     * golden model's comparison of every byte) */
    r->fp16ref = nv_full && nvdla_fw_fp16ref_applies(&r->ld);
    if (r->fp16ref) {
        r->corrupt = (int64_t)sim_plusarg_u64(sim, "fw_corrupt", UINT64_MAX);
        free(tbuf);
        return 0;
    }
    if (!twin) {
        const char *corrupt = sim_plusarg(sim, "fw_corrupt");
        if (!corrupt || !*corrupt) return 0;
        snprintf(err, errlen,
                 "+fw_corrupt=%s: only a golden-only run on nv_full of a portable or FP16 network has something to "
                 "compare with (+golden_only +fw_map=nv_full, +fw_portable or +fw_prec=fp16); on a DUT, +fault= "
                 "corrupts its writes",
                 corrupt);
        return -1;
    }
    printf("fw_net seed %llu: its nv_small twin: %s\n", (unsigned long long)seed, twhat);
    char tname[80];
    snprintf(tname, sizeof tname, "%s (nv_small twin)", name);
    if (nvdla_loadable_parse(&r->twin, tbuf, tlen, tname, err, errlen)) return -1;
    r->has_twin = true;
    r->twin_base = calloc(r->twin.nmems ? r->twin.nmems : 1, sizeof *r->twin_base);
    if (!r->twin_base) abort();
    r->corrupt = (int64_t)sim_plusarg_u64(sim, "fw_corrupt", UINT64_MAX);
    return 0;
}
#endif

int nvdla_fw_attach(program_t *p, sim_t *sim, const char *test, bool nv_full, bool by_capability,
                    nvdla_fw_to_full_t to_full, void *to_full_ctx, char *err, size_t errlen)
{
    bool net = strcmp(test, "fw_net") == 0;
#ifdef NVDLA_FW_ABSENT
    if (net) return fw_absent(p, test);
#endif
    const char *path = sim_plusarg(sim, "loadable");
    char netname[64];
    if (!net && (!path || !*path)) {
        snprintf(err, errlen, "test fw needs +loadable=<NVDLA loadable> (make run ACC=nvdla LOADABLE=<file>)");
        return -1;
    }
    fw_run_t *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->nv_full = nv_full, r->to_full = to_full, r->to_full_ctx = to_full_ctx;
    if (net ? net_loadable(sim, r, !by_capability, netname, sizeof netname, err, errlen) != 0
            : nvdla_loadable_read(&r->ld, path, err, errlen) != 0) {
        free(r);
        return -1;
    }
    if (net) path = netname;
    r->path = strdup(path);
    const char *base = strrchr(path, '/');
    r->name = strdup(base ? base + 1 : path);
    r->h.ld = &r->ld;
    r->h.mem_base = calloc(r->ld.nmems ? r->ld.nmems : 1, sizeof *r->h.mem_base);
    if (!r->h.mem_base) abort();
    r->h.task = &r->ld.tasks[0];
    /* loadable.fbs: enum Interface { NONE, DLA1, EMU1 }. DLA1 tasks run through the firmware, EMU1 tasks (NVIDIA's
     * runtime's CPU emulator: NN_L0_0's input copy and softmax) on the host (nvdla_emu.c); any other is refused,
     * naming it (NVIDIA's runtime: "unrecognized interface", umd/core/runtime/Runtime.cpp:628 at 38235bb). */
    for (size_t t = 0; t < r->ld.ntasks; t++)
        if (r->ld.tasks[t].interface != LD_IF_DLA1 && r->ld.tasks[t].interface != LD_IF_EMU1) {
            snprintf(err, errlen,
                     "%s: task %u has interface %u: NVIDIA's runtime knows DLA1 (1, through the firmware) and EMU1 "
                     "(2, its CPU emulator) only",
                     path, r->ld.tasks[t].id, r->ld.tasks[t].interface);
            fw_free(r);
            return -1;
        }
    /* NVIDIA's runtime runs the tasks its submit list names, no others: a task left out would never run, and the run
     * would end in a bare output mismatch */
    for (size_t t = 0; t < r->ld.ntasks && r->ld.nsubmits; t++) {
        bool named = false;
        for (size_t s = 0; s < r->ld.nsubmits && !named; s++)
            for (size_t k = 0; k < r->ld.submits[s].ntasks && !named; k++) named = r->ld.submits[s].task_ids[k] == t;
        if (!named) {
            snprintf(err, errlen,
                     "%s: task %u (index %zu) is in no entry of the submit list: NVIDIA's runtime would never run it",
                     path, r->ld.tasks[t].id, t);
            fw_free(r);
            return -1;
        }
    }
    r->emu_corrupt = (int64_t)sim_plusarg_u64(sim, "emu_corrupt", UINT64_MAX);
    /* the units the loadable uses: the network descriptor's op heads (address-list index 0 of every DLA1 task) */
    char needs[64] = "";
    for (size_t t = 0; t < r->ld.ntasks; t++) {
        if (r->ld.tasks[t].interface != LD_IF_DLA1) continue;
        const ld_addr_t *a = ld_addr_by_id(&r->ld, r->ld.tasks[t].addr_ids[0]);
        const ld_mem_t *m = a ? ld_mem_by_id(&r->ld, a->mem_id) : NULL;
        int16_t head[6];
        if (!m || m->size < 16 + sizeof head) {
            snprintf(err, errlen, "%s: task %u's address-list entry 0 is no network descriptor", path,
                     r->ld.tasks[t].id);
            fw_free(r);
            return -1;
        }
        ld_bytes(m, 16, head, sizeof head); /* struct dla_network_desc: eight int16 fields, then op_head[6] */
        for (int u = 0; u < 6; u++) r->uses[u] |= head[u] >= 0;
    }
    for (int u = 0; u < 6; u++)
        if (r->uses[u])
            snprintf(needs + strlen(needs), sizeof needs - strlen(needs), "%s%s", needs[0] ? " " : "", op_unit[u]);
    const char *golden = sim_plusarg(sim, "fw_golden");
    if (golden && *golden) r->golden = strcmp(golden, "none") ? strdup(golden) : NULL;
    else r->golden = net ? NULL : find_golden(path);
#ifdef NVDLA_FW_ABSENT
    fw_free(r);
    (void)by_capability;
    return fw_absent(p, test);
#else
    free(p->name);
    p->name = strdup(test);
    char why[400];
    if (by_capability && !nv_full && !dut_provides(needs, why, sizeof why)) { /* nv_full has every unit */
        prog_job(p, "fw.%s", r->name);
        prog_skip(p, "loadable %s uses %s: it %s", r->name, needs, why);
        fw_free(r);
        return 0;
    }
    /* printf, not sim_note: a note before the first job would open an implicit "(setup)" job and shift the
     * job numbers +fault_job counts */
    printf("loadable %s: %zu memory entries, %zu addresses, %zu task(s), units %s; firmware built for %s's map; "
           "NVIDIA golden: %s\n",
           path, r->ld.nmems, r->ld.naddrs, r->ld.ntasks, needs, fw_builds[nv_full].map,
           r->golden ? r->golden : "none");
    r->h.debug = sim_plusarg_flag(sim, "fw_debug");
    if (nv_full && !r->has_twin && to_full(to_full_ctx, why, sizeof why)) { /* with a twin: after it (fw_main) */
        snprintf(err, errlen, "test %s on nv_full: %s", test, why);
        fw_free(r);
        return -1;
    }
    drv_attach(p, sim, fw_main, r, fw_free, 0);
    return 0;
#endif
}
