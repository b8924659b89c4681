#include "nvdla_tb.h"
#include "axi_slave.h"
#include "conv_stream.h"
#include "csb_master.h"
#include "dut_info.h"
#include "irq_monitor.h"
#include "mem.h"
#include "nvdla_golden.h"
#include "nvdla_config.h"
#include "nvdla_cov.h"
#include "nvdla_fw.h"
#include "nvdla_regmap.h"
#include "nvdla_regs.h"
#include "nvfull_txn.h"
#include "nvsmall_cfg.h"
#include "rng.h"
#include "scoreboard.h"
#include "sim.h"
#include "svdpi.h"
#include <stdlib.h>
#include <string.h>

enum { GLB_INTR_MASK = 0x1004, GLB_INTR_STATUS = 0x100C };
#define INTERNAL_TAG (1ull << 63) /* bus requests the testbench itself makes (interrupt service) */
enum { RESP_RING = 64 };

typedef enum {
    FAULT_NONE,
    FAULT_WDATA_FLIP,
    FAULT_AXI_VALID_DROP,
    FAULT_AXI_CROSS_4K,
    FAULT_B_STUCK,
    FAULT_RESULT_FLIP,
    FAULT_CACC_FLIP
} fault_t;
typedef enum { IRQ_IDLE, IRQ_READ_STATUS, IRQ_READ_MASK, IRQ_COOLDOWN } irq_state_t;

typedef struct nvdla_tb {
    sim_t *sim;
    mem_t *mem, *shadow;
    csb_master_t *csb;
    axi_slave_t *dbb;
    axi_slave_t *cvif;   /* the second memory port (DUT feature cvif: nv_full), NULL without; its memory, the
                          * CVSRAM, is mem's bytes from NVDLA_CV_SPACE on, where the stimulus loads it, the golden
                          * model writes it and the scoreboard compares it */
    unsigned dbb_bytes;  /* the DBB's beat (8, or 64 with DUT feature dbb512) */
    bool width_reported; /* a bus-width mismatch between tb_nvdla.sv and the DUT's features, said once */
    irq_monitor_t *irq;
    nvdla_golden_t *golden;
    const nvdla_config_t *cfg;  /* the register map the stimulus programs, and how it lands on the model */
    fcov_t *cov;                /* functional coverage of what the golden model runs */
    bus_resp_t ring[RESP_RING]; /* responses for the sequencer */
    /* result-register reads accepted with a value the golden model predicts, in CSB order */
    struct result_check {
        uint64_t tag;
        uint32_t addr, expect;
    } rcheck[RESP_RING];
    unsigned rcheck_head, rcheck_n;
    bool check_results;       /* the DUT keeps them as the golden model predicts (feature dp_results) */
    uint64_t status_tags[16]; /* a driver's reads of GLB.S_INTR_STATUS in flight (its own interrupt service) */
    unsigned status_head, status_n;
    unsigned ring_head, ring_n;
    /* interrupt service */
    irq_state_t irq_state;
    uint32_t irq_status, irq_seen;
    uint64_t irq_cool_until;
    unsigned irq_pending_resp;
    /* writes without a B response at the line's last rise; valid only when that rise came after the service's
     * last W1C, so that every status bit set at the rise is still set when the service reads the status */
    axi_range_t irq_pend[64];
    unsigned irq_npend;
    uint64_t irq_cycle;
    bool irq_rise_valid;
    /* DUT write beats since the last golden check (8-byte aligned addresses), for stray-write detection */
    struct dut_write {
        uint32_t addr;
        uint64_t space; /* 0 (DBB) or NVDLA_CV_SPACE (CVIF), as nvdla_box_t's */
        uint64_t cycle;
    } * written;
    size_t nwritten, capwritten;
    unsigned unmodelled_seen; /* nvdla_golden_unmodelled() at the last golden check */
    conv_stream_t cacc;       /* CACC -> SDP values since the last golden check (DUT feature cacc_probe) */
    bool cacc_probe;
    uint64_t cacc_values; /* CACC -> SDP values of the run (fault cacc_flip) */
    /* golden-only runs: what register reads return (the golden model has no register file) */
    uint32_t *gregs; /* last value written per 32-bit word of the CSB space */
    uint8_t *gregs_set;
    size_t gerr_reported; /* golden-only: bytes of nvdla_golden_errors() already reported */
    /* golden-only run of a trace-player test with waits: the model raises a layer's interrupts at once, the
     * hardware one after the other; each `wait` delivers the next (pipeline order), status reads and W1C see
     * only those delivered */
    bool one_event_per_wait;
    uint32_t delivered;
    /* fault injection */
    fault_t fault;
    uint64_t fault_n, fault_job, w_beats; /* fault hits beat fault_n of job fault_job */
    bool fault_done, prev_wvalid_stalled;
    axi_out_t prev_out;
    axi_in_t prev_in; /* the DUT's DBB outputs at the last edge (a hang's report names who waits) */
} nvdla_tb_t;

/* ---- bus monitor → golden model ---------------------------------------------------------------- */
/* A CSB write of the stimulus' configuration to the model, at the model's address of its register; starting a
 * unit the model does not compute for this configuration is an error naming it (its output would go unchecked). */
static void golden_write(nvdla_tb_t *t, uint32_t addr, uint32_t data)
{
    uint32_t model;
    const char *unit;
    if (nvdla_config_to_model(t->cfg, addr, &model, &unit)) {
        nvdla_golden_write(t->golden, model, nvdla_config_data(t->cfg, addr, model, data));
        return;
    }
    const nvdla_reg_t *r = t->cfg->reg_by_addr(addr);
    if (r && (data & 1) && !strcmp(r->name, "D_OP_ENABLE_0"))
        sim_error(t->sim,
                  "golden model: %s of %s is started (%s.D_OP_ENABLE_0 = 0x%x), but the golden model does not compute "
                  "this engine for %s yet: its output would go unchecked (docs/nvdla_nv_full.md)",
                  unit, t->cfg->name, unit, data, t->cfg->name);
}

static void model_write(void *user, uint32_t addr, uint32_t data)
{
    nvdla_golden_write(((nvdla_tb_t *)user)->golden, addr, data);
}

static void on_csb_accept(void *user, const csb_req_t *req, uint64_t cycle)
{
    nvdla_tb_t *t = user;
    (void)cycle;
    uint32_t expect;
    if (req->write) golden_write(t, req->addr, req->data);
    else if (!(req->tag & INTERNAL_TAG) && t->check_results && nvdla_golden_result(t->golden, req->addr, &expect) &&
             t->rcheck_n < RESP_RING)
        t->rcheck[(t->rcheck_head + t->rcheck_n++) % RESP_RING] =
            (struct result_check){.tag = req->tag, .addr = req->addr, .expect = expect};
}

static const char *nvdla_reg_name(void *acc, uint64_t addr, char *buf, size_t n);

/* A sequencer read response: if it answers a predicted result-register read, compare. */
static void check_result_read(nvdla_tb_t *t, const csb_resp_t *r)
{
    if (!t->rcheck_n || t->rcheck[t->rcheck_head].tag != r->tag || r->write) return;
    const struct result_check c = t->rcheck[t->rcheck_head];
    t->rcheck_head = (t->rcheck_head + 1) % RESP_RING;
    t->rcheck_n--;
    uint32_t data = r->data;
    if (t->fault == FAULT_RESULT_FLIP && !t->fault_done) {
        data ^= 0x80000000u;
        t->fault_done = true;
        sim_fault_injected(t->sim);
    }
    sim_count_check(t->sim); /* an expected register value was read */
    if (data != c.expect) {
        char name[96];
        sim_error(t->sim,
                  "MISMATCH result register %s (0x%05x) read 0x%08x, golden model expects 0x%08x for the "
                  "PRODUCER group's last layer (cycle %llu)",
                  nvdla_reg_name(t, c.addr, name, sizeof name), c.addr, data, c.expect, (unsigned long long)r->cycle);
    }
}

static void note_write(nvdla_tb_t *t, uint64_t space, uint32_t addr, uint64_t cycle)
{
    if (t->nwritten == t->capwritten) {
        t->capwritten = t->capwritten ? 2 * t->capwritten : 4096;
        t->written = realloc(t->written, t->capwritten * sizeof *t->written);
        if (!t->written) abort();
    }
    t->written[t->nwritten++] = (struct dut_write){addr & ~7u, space, cycle};
}

static void on_dbb_write(void *user, uint8_t id, uint32_t addr, uint64_t data, uint8_t strb, uint64_t cycle)
{
    (void)id, (void)data, (void)strb;
    note_write(user, 0, addr, cycle);
}

static void on_cvif_write(void *user, uint8_t id, uint32_t addr, uint64_t data, uint8_t strb, uint64_t cycle)
{
    (void)id, (void)data, (void)strb;
    note_write(user, NVDLA_CV_SPACE, addr, cycle);
}

/* ---- configuration from plusargs ---------------------------------------------------------------- */
/* acc_ops_t.stall: +stall, the level of the bus models' stalls (tb/nvdla/nvdla_plusargs.tsv). */
static uint64_t nvdla_stall(const sim_t *sim) { return sim_plusarg_u64(sim, "stall", 1); }

/* stream: the seed stream of the draws ("dbb.cfg", "cvif.cfg"): each port has its own. */
static axi_cfg_t dbb_config(sim_t *sim, const char *stream)
{
    /* +stall=0: an ideal memory; +stall=1 (default): seeded backpressure, gaps, latency and reordering;
     * +stall=2: as 1 with heavy write backpressure (the engines' output queues fill up). */
    rng_t r;
    rng_seed_stream(&r, sim_seed(sim), stream);
    axi_cfg_t c = {.rd_lat_min = 1, .rd_lat_max = 1, .wr_lat_min = 1, .wr_lat_max = 1, .max_outstanding = 256};
    if (nvdla_stall(sim)) {
        c.aw_stall_pct = rng_range(&r, 0, 50);
        c.w_stall_pct = rng_range(&r, 0, 50);
        c.ar_stall_pct = rng_range(&r, 0, 50);
        c.r_gap_pct = rng_range(&r, 0, 40);
        c.b_gap_pct = rng_range(&r, 0, 40);
        c.rd_lat_min = rng_range(&r, 1, 8);
        c.rd_lat_max = c.rd_lat_min + rng_range(&r, 0, 40);
        c.wr_lat_min = rng_range(&r, 1, 8);
        c.wr_lat_max = c.wr_lat_min + rng_range(&r, 0, 40);
        c.reorder_ids = rng_chance(&r, 50);
        if (nvdla_stall(sim) >= 2) {
            c.aw_stall_pct = rng_range(&r, 60, 90);
            c.w_stall_pct = rng_range(&r, 60, 90);
            c.b_gap_pct = rng_range(&r, 30, 70);
        }
    }
    return c;
}

static const sim_fault_kind_t fault_kinds[] = {
    /* +fault_job=J picks the job, default 0 */
    {"wdata_flip", FAULT_WDATA_FLIP, 3, "beat"},
    {"axi_valid_drop", FAULT_AXI_VALID_DROP, 3, NULL},
    {"axi_cross_4k", FAULT_AXI_CROSS_4K, 3, NULL},
    {"b_stuck", FAULT_B_STUCK, 3, "beats"},
    {"result_flip", FAULT_RESULT_FLIP, 3, NULL}, /* bit 31 of the first checked result-register read */
    {"cacc_flip", FAULT_CACC_FLIP, 0, "value"},  /* bit 0 of CACC->SDP value N as the probe reports it */
    {NULL, 0, 0, NULL},
};

/* ---- acc_ops ------------------------------------------------------------------------------------ */
static void *nvdla_create(sim_t *sim)
{
    nvdla_tb_t *t = calloc(1, sizeof *t);
    if (!t) abort();
    t->sim = sim;
    t->mem = mem_new();
    t->shadow = mem_new();
    t->golden = nvdla_golden_new(t->shadow);
    t->cfg = &nvdla_config_ours; /* a stimulus of another configuration selects its own (nvdla_import) */
    t->check_results = dut_has("dp_results");
    t->cacc_probe = dut_has("cacc_probe") && !sim_plusarg_flag(sim, "golden_only");
    t->cov = nvdla_cov_new();
    nvdla_golden_set_layer_hook(t->golden, nvdla_cov_layer, t->cov);
    csb_cfg_t cc = {
        .idle_pct = (unsigned)sim_plusarg_u64(sim, "csb_idle", 10), .max_outstanding = 0, .resp_timeout = 64};
    t->csb = csb_master_new(sim_env(sim), "csb", &cc, sim_seed(sim) ^ 0x1111);
    csb_master_on_accept(t->csb, on_csb_accept, t);
    axi_cfg_t ac = dbb_config(sim, "dbb.cfg");
    ac.beat_bytes = t->dbb_bytes = dut_has("dbb512") ? 64 : 8;
    t->dbb = axi_slave_new(sim_env(sim), "dbb", t->mem, &ac, sim_seed(sim) ^ 0x2222);
    if (!t->dbb) abort();
    axi_slave_on_write(t->dbb, on_dbb_write, t);
    if (dut_has("cvif")) { /* CVSRAM: on-chip SRAM behind CVIF; same stall levels, its own draws and memory window */
        axi_cfg_t cc = dbb_config(sim, "cvif.cfg");
        cc.beat_bytes = t->dbb_bytes;
        /* its bytes in the DUT's memory at NVDLA_CV_SPACE + the CVIF address, where the program loads CVSRAM and the
         * scoreboard compares it with the golden model's (nvdla_golden.h) */
        cc.space = NVDLA_CV_SPACE;
        t->cvif = axi_slave_new(sim_env(sim), "cvif", t->mem, &cc, sim_seed(sim) ^ 0x3333);
        if (!t->cvif) abort();
        axi_slave_on_write(t->cvif, on_cvif_write, t);
    }
    t->irq = irq_monitor_new(sim_env(sim), "dla_intr", IRQ_LEVEL);
    irq_monitor_arm(t->irq, true);
    t->fault = (fault_t)sim_plusarg_fault(sim, fault_kinds, &t->fault_n);
    t->fault_job = sim_plusarg_u64(sim, "fault_job", 0);
    return t;
}

static void nvdla_destroy(void *acc)
{
    nvdla_tb_t *t = acc;
    free(t->gregs);
    free(t->gregs_set);
    fcov_write_plusarg(t->cov, t->sim);
    fcov_free(t->cov);
    csb_master_free(t->csb);
    axi_slave_free(t->dbb);
    axi_slave_free(t->cvif);
    irq_monitor_free(t->irq);
    nvdla_golden_free(t->golden);
    conv_stream_free(&t->cacc);
    mem_free(t->mem);
    mem_free(t->shadow);
    free(t->written);
    free(t);
}

/* The stimulus programs nv_full's register map: the golden model takes nv_full's configuration (its map translated
 * onto the model's, CVSRAM, 32-byte atoms, nv_full's reset values). NULL, or the reason it cannot. */
static const char *use_nv_full(nvdla_tb_t *t, char *why, size_t n)
{
    t->cfg = nvdla_config_nv_full(why, n);
    if (!t->cfg) return why;
    nvdla_golden_configure(t->golden, &(nvdla_golden_cfg_t){.cvif = t->cfg->cvif, .atom_bytes = t->cfg->atom_bytes});
    nvdla_config_reset_model(t->cfg, model_write, t);
    return NULL;
}

/* The firmware's switch to nv_full (nvdla_fw_attach): at attach time, or in a golden-only fw_net run after the nv_small
 * twin of its network has run on the model (nvdla_fw_twin.c). The model, and the register values a golden-only run
 * reads back, start over as after a reset: nv_full's firmware expects every unit's register groups at their reset
 * pointers, and nv_small's map overlaps nv_full's at other units (0x9000: nv_small's SDP, nv_full's CACC). */
static const char *to_nv_full(void *arg, char *why, size_t n)
{
    nvdla_tb_t *t = arg;
    nvdla_golden_free(t->golden);
    t->golden = nvdla_golden_new(t->shadow);
    nvdla_golden_set_layer_hook(t->golden, nvdla_cov_layer, t->cov);
    free(t->gregs), free(t->gregs_set);
    t->gregs = NULL, t->gregs_set = NULL;
    return use_nv_full(t, why, n);
}

static void skip_test(program_t *p, const char *test, const char *why)
{
    free(p->name);
    p->name = strdup(test);
    prog_job(p, "%s", test);
    prog_skip(p, "%s", why);
}

/* NVIDIA's firmware in the loop (tests fw, fw_net). Its two builds program nv_small's map and nv_full's; +fw_map picks
 * one, by default the DUT's. On a DUT the map must be the DUT's (else the run is skipped, saying so); golden-only
 * runs have no DUT, so either runs, and nv_full's configures the golden model as nv_full. */
static int build_fw(nvdla_tb_t *t, const char *test, program_t *p, char *err, size_t errlen)
{
    const bool golden_only = sim_plusarg_flag(t->sim, "golden_only");
    const bool dut_full = dut_has("nv_full_map");
    const char *map = sim_plusarg(t->sim, "fw_map");
    bool nv_full = dut_full;
    char why[400];
    if (map && *map) {
        if (strcmp(map, "nv_full") && strcmp(map, "nv_small")) {
            snprintf(err, errlen, "+fw_map=%s: NVIDIA's firmware is built for nv_small or nv_full", map);
            return -1;
        }
        nv_full = strcmp(map, "nv_full") == 0;
    }
    if (!golden_only && nv_full != dut_full) {
        snprintf(why, sizeof why,
                 "test %s: NVIDIA's firmware built for %s's register map, on DUT %s, which has %s's: run it with "
                 "GOLDEN_ONLY=1 or on a DUT of that map",
                 test, nv_full ? "nv_full" : "nv_small", tb_dut.name, dut_full ? "nv_full" : "nv_small");
        skip_test(p, test, why);
        return 0;
    }
    return nvdla_fw_attach(p, t->sim, test, nv_full, !golden_only, to_nv_full, t, err, errlen);
}

static int nvdla_build(void *acc, const char *test, uint64_t seed, program_t *p, char *err, size_t errlen)
{
    nvdla_tb_t *t = acc; /* golden-only runs have no DUT: no test is skipped by capability */
    if (strcmp(test, "fw") == 0 || strcmp(test, "fw_net") == 0) return build_fw(t, test, p, err, errlen);
    /* The map the stimulus programs: the DUT's; golden-only, +fw_map's (make run DUT=nv_full GOLDEN_ONLY=1 passes
     * +fw_map=nv_full), whose tests with an nv_full form configure the golden model as nv_full first. */
    const bool golden_only = sim_plusarg_flag(t->sim, "golden_only");
    const char *map = sim_plusarg(t->sim, "fw_map");
    const bool nv_full = dut_has("nv_full_map") || (golden_only && map && !strcmp(map, "nv_full"));
    char why[400];
    if (nv_full && nvdla_test_for_nv_full(test) && sim_plusarg(t->sim, "dump")) { /* its replay would run on ours */
        snprintf(err, errlen,
                 "test %s on nv_full: +dump= is not supported (a native trace does not record nv_full's register "
                 "map): replay the test itself, make run ACC=nvdla DUT=nv_full TEST=%s SEED=%llu%s",
                 test, test, (unsigned long long)seed, golden_only ? " GOLDEN_ONLY=1" : "");
        return -1;
    }
    if (nv_full && nvdla_test_for_nv_full(test) && use_nv_full(t, why, sizeof why)) {
        snprintf(err, errlen, "test %s on nv_full: %s", test, why);
        return -1;
    }
    /* +nvf_oracle=FILE: the FP16 jobs of nv_full's random tests as NVIDIA's C model's driver reads them, with the
     * generator's expected outputs (tests/test_nvdla_fp_oracle.py runs them through cmod) */
    const char *oracle = sim_plusarg(t->sim, "nvf_oracle");
    if (oracle && *oracle && nv_full && nvdla_test_for_nv_full(test) && !(p->notes = fopen(oracle, "w"))) {
        snprintf(err, errlen, "+nvf_oracle=%s: cannot write", oracle);
        return -1;
    }
    const int rc = nvdla_build_test(test, seed, !golden_only, nv_full, p, err, errlen);
    if (p->notes && fclose(p->notes) != 0 && rc == 0) {
        p->notes = NULL;
        snprintf(err, errlen, "+nvf_oracle=%s: cannot write", oracle);
        return -1;
    }
    p->notes = NULL;
    return rc;
}

static bool resolve_reg(void *user, const char *name, uint32_t *addr)
{
    (void)user;
    const nvdla_reg_t *r = nvdla_reg_by_name(name);
    if (!r) return false;
    *addr = r->addr;
    return true;
}

/* The DUT feature (tb/nvdla/duts/<dut>.dut) a unit's datapath belongs to. */
static const char *unit_feature(const char *unit)
{
    static const struct {
        const char *unit, *feature;
    } map[] = {
        {"NVDLA_BDMA", "bdma"}, {"NVDLA_GLB", "glb"},      {"NVDLA_SDP", "sdp"},     {"NVDLA_SDP_RDMA", "sdp"},
        {"NVDLA_PDP", "pdp"},   {"NVDLA_PDP_RDMA", "pdp"}, {"NVDLA_CDP", "cdp"},     {"NVDLA_CDP_RDMA", "cdp"},
        {"NVDLA_CDMA", "conv"}, {"NVDLA_CSC", "conv"},     {"NVDLA_CMAC_A", "conv"}, {"NVDLA_CMAC_B", "conv"},
        {"NVDLA_CACC", "conv"},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (strcmp(map[i].unit, unit) == 0) return map[i].feature;
    return unit;
}

/* NVIDIA's nv_full trace-player test: the program, the nv_full configuration, the fence of the harness' two memory
 * windows, and the statement of what the run checks. A DUT of another register map skips it, saying so. */
static int import_txn(nvdla_tb_t *t, const char *path, program_t *p, char *err, size_t errlen)
{
    nvfull_txn_info_t in;
    if (sim_plusarg(t->sim, "dump")) { /* a native trace records no register map: its replay would run on ours */
        snprintf(err, errlen,
                 "%s: +dump= of an nv_full trace-player test is not supported (a native trace does not record "
                 "nv_full's register map): replay the test itself, make run TXN=%s",
                 path, path);
        return -1;
    }
    if (nvfull_txn_load(p, path, &in, err, errlen) != 0) return -1;
    const bool golden_only = sim_plusarg_flag(t->sim, "golden_only");
    if (!golden_only && !dut_has("nv_full_map")) {
        char *name = strdup(p->name);
        uint64_t seed = p->seed;
        program_free(p);
        program_init(p, "nvdla", name, seed);
        prog_job(p, "%s", name);
        prog_skip(p,
                  "%s is an nv_full trace-player test (nv_full's register map); DUT %s has another map: run it "
                  "with GOLDEN_ONLY=1, or on a DUT with feature nv_full_map; the trace parsed OK",
                  name, tb_dut.name);
        free(name);
        return 0;
    }
    char why[300];
    if (use_nv_full(t, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        return -1;
    }
    t->one_event_per_wait = golden_only && in.waits > 0;
    size_t nw;
    const mem_region_t *w = nvfull_txn_windows(&nw);
    mem_fence_set(t->mem, w, nw);
    mem_fence_actor(t->mem, "the DUT");
    mem_fence_set(t->shadow, w, nw);
    mem_fence_actor(t->shadow, "the golden model");
    sim_watch_fences(t->sim, t->mem, t->shadow);
    const char *output = !golden_only ? "; and the DUT's memory against the golden model's over every region it wrote"
                         : in.dump_bytes
                             ? "; golden-only: the model's output is checked by those bytes alone"
                             : "; golden-only: nothing checks the model's output (the trace has no dump_mem)";
    sim_summary(t->sim,
                "%s (nv_full trace-player test): %u register reads and %u interrupt-status polls against the trace's "
                "expected values, %llu bytes of the trace's expected memory (%u dump_mem)%s",
                p->name, in.reads, in.polls, (unsigned long long)in.dump_bytes, in.dumps, output);
    return 0;
}

static int nvdla_import(void *acc, const char *path, program_t *p, char *err, size_t errlen)
{
    nvdla_tb_t *t = acc;
    if (nvfull_txn_is(path)) return import_txn(t, path, p, err, errlen);
    if (nvsmall_cfg_load(p, path, resolve_reg, NULL, err, errlen) != 0) return -1;
    if (dut_has("nv_full_map")) { /* the names resolved above are nv_small's addresses */
        char *name = p->name ? strdup(p->name) : strdup(path);
        uint64_t seed = p->seed;
        program_free(p);
        program_init(p, "nvdla", name, seed);
        prog_job(p, "%s", name);
        prog_skip(p, "%s programs nv_small's register map; DUT %s has nv_full's (arnvdla.h); the trace parsed OK", name,
                  tb_dut.name);
        free(name);
        return 0;
    }
    /* Which units does the trace start? (D_OP_ENABLE_0 written with bit 0 set.) Golden-only runs have no DUT. */
    char need[256] = "";
    const size_t nops = sim_plusarg_flag(t->sim, "golden_only") ? 0 : p->n;
    for (size_t i = 0; i < nops; i++) {
        const op_t *op = &p->ops[i];
        if (op->kind != OP_WRITE || !(op->data & 1)) continue;
        const nvdla_reg_t *r = nvdla_reg_by_addr((uint32_t)op->addr);
        if (!r || strcmp(r->name, "D_OP_ENABLE_0") != 0 || dut_has(unit_feature(r->unit))) continue;
        char token[40]; /* ", NAME," so that PDP does not match inside PDP_RDMA */
        snprintf(token, sizeof token, ", %s,", r->unit + 6);
        char have[260];
        snprintf(have, sizeof have, ", %s,", need);
        if (!strstr(have, token)) {
            size_t used = strlen(need);
            snprintf(need + used, sizeof need - used, "%s%s", used ? ", " : "", r->unit + 6);
        }
    }
    if (need[0]) {
        char *name = p->name ? strdup(p->name) : strdup(path);
        uint64_t seed = p->seed;
        program_free(p);
        program_init(p, "nvdla", name, seed);
        prog_job(p, "%s", name);
        prog_skip(p, "%s needs %s, whose datapath DUT %s does not implement; the trace parsed OK", name, need,
                  tb_dut.name);
        free(name);
    }
    return 0;
}

static void nvdla_bus_push(void *acc, const bus_req_t *r)
{
    nvdla_tb_t *t = acc;
    csb_req_t c = {.addr = (uint32_t)r->addr, .data = r->data, .write = r->write, .nposted = r->nposted, .tag = r->tag};
    if (r->addr > 0x3FFFF || (r->addr & 3)) {
        sim_error(t->sim, "CSB address 0x%llx is outside the NVDLA register space or not word aligned",
                  (unsigned long long)r->addr);
        return;
    }
    /* A driver services the interrupt itself: what it reads from GLB status gets the checks the testbench's own
     * interrupt service makes (done only after the last write's B, no spurious bit), and settles result registers. */
    if (!r->write && r->addr == GLB_INTR_STATUS && sim_driver_run(t->sim) && t->status_n < 16)
        t->status_tags[(t->status_head + t->status_n++) % 16] = r->tag;
    csb_master_push(t->csb, &c);
}

/* A unit that writes memory raises its done bit only after the B response of its last write (spec nvdla.md
 * §3.2 "When a layer is done", §3.3). Called with the GLB status the interrupt service just read: a write
 * still waiting for its B now was waiting when the bit was set, and if it lies in an output region of a
 * unit and group whose done bit is set, that unit signalled done too early. */
/* A unit whose done bit is in `status` must have no write in `pend` (writes still without a B response, sampled
 * at cycle `when`). */
static void check_done_after_writes_at(nvdla_tb_t *t, uint32_t status, const axi_range_t *pend, unsigned np,
                                       uint64_t when)
{
    static const char *const unit_of_bit[8] = {"SDP", "SDP", "CDP", "CDP", "PDP", "PDP", "BDMA", "BDMA"};
    if (!np || !(status & 0xFF)) return;
    size_t nb;
    const nvdla_box_t *boxes = nvdla_golden_boxes(t->golden, &nb);
    for (unsigned i = 0; i < np && i < 64; i++)
        for (uint32_t a = pend[i].addr; a < pend[i].addr + pend[i].bytes; a += 8)
            for (size_t k = 0; k < nb; k++) {
                const nvdla_box_t *b = &boxes[k];
                int bit = -1;
                for (int x = 0; x < 8; x++)
                    if ((status >> x & 1) && (x & 1) == b->group && !strcmp(unit_of_bit[x], b->unit)) bit = x;
                if (bit < 0 || !nvdla_box_locate(b, a, NULL, NULL, NULL)) continue;
                sim_error(t->sim,
                          "%s grp %d raised its done interrupt (GLB status bit %d) while its write to 0x%08x "
                          "(burst at 0x%08x, %u bytes) still had no B response at cycle %llu: a unit is done only "
                          "after the B response of its last write (spec nvdla.md 3.3)",
                          b->unit, b->group, bit, a, pend[i].addr, pend[i].bytes, (unsigned long long)when);
                return;
            }
}

static void check_done_after_writes(nvdla_tb_t *t, uint32_t status)
{
    axi_range_t pend[64];
    unsigned np = axi_slave_pending_writes(t->dbb, pend, 64);
    check_done_after_writes_at(t, status, pend, np, sim_cycle(t->sim));
}

/* The interrupt service's status read returns ~20 cycles after it saw the line high, late enough for a last B
 * response to arrive in between. So the writes pending at the line's last rise are checked too, when the
 * status then holds a single bit and that rise came after the service's last W1C: the bit that raised the
 * line is still set (bits only clear by a W1C, and the next one follows this read), so it is that bit, and its
 * unit was done at the rise. Not from the cycle the service saw the line: the line may still be high then
 * from the bit its last W1C clears, and another unit finish correctly before the read (pdp_onfly seed 1
 * +stall=1, docs/nv_small_fst.md). With several bits only the writes still pending at the read are checked. */
static void check_irq_status(nvdla_tb_t *t, uint32_t status)
{
    check_done_after_writes(t, status);
    if (status && !(status & (status - 1)) && t->irq_rise_valid)
        check_done_after_writes_at(t, status, t->irq_pend, t->irq_npend, t->irq_cycle);
}

/* Move CSB responses into the sequencer's ring or the interrupt service. */
static void drain_csb(nvdla_tb_t *t)
{
    csb_resp_t r;
    while (csb_master_pop(t->csb, &r)) {
        if (r.tag & INTERNAL_TAG) {
            if (t->irq_state == IRQ_READ_STATUS) {
                t->irq_status = r.data;
                check_irq_status(t, r.data);
                t->irq_state = IRQ_READ_MASK;
            } else if (t->irq_state == IRQ_READ_MASK) {
                uint32_t pending = t->irq_status & ~r.data;
                uint32_t unexpected = pending & ~nvdla_golden_intr_expected(t->golden);
                if (unexpected)
                    sim_error(t->sim,
                              "spurious interrupt: GLB.S_INTR_STATUS bits 0x%x set, but no launched job "
                              "or SET write raises them (status 0x%x mask 0x%x)",
                              unexpected, t->irq_status, r.data);
                if (pending) {
                    csb_req_t w1c = {.addr = GLB_INTR_STATUS, .data = pending, .write = true, .tag = INTERNAL_TAG};
                    csb_master_push(t->csb, &w1c);
                    t->irq_rise_valid = false;
                }
                t->irq_seen |= pending;
                nvdla_golden_done_seen(t->golden, pending);
                t->irq_state = IRQ_COOLDOWN;
                t->irq_cool_until = sim_cycle(t->sim) + 12; /* dla_intr follows status within 8 cycles */
            }
            continue;
        }
        check_result_read(t, &r);
        if (t->status_n && t->status_tags[t->status_head] == r.tag && !r.write) {
            t->status_head = (t->status_head + 1) % 16;
            t->status_n--;
            check_done_after_writes(t, r.data);
            uint32_t unexpected = r.data & 0xFFu & ~nvdla_golden_intr_expected(t->golden);
            if (unexpected)
                sim_error(t->sim,
                          "spurious interrupt: the driver read GLB.S_INTR_STATUS 0x%x, bits 0x%x set that no "
                          "launched job or SET write raises",
                          r.data, unexpected);
            nvdla_golden_done_seen(t->golden, r.data);
        }
        if (t->ring_n == RESP_RING) {
            sim_error(t->sim, "testbench: more than %d unconsumed CSB responses", RESP_RING);
            return;
        }
        t->ring[(t->ring_head + t->ring_n++) % RESP_RING] =
            (bus_resp_t){.tag = r.tag, .data = r.data, .error = false, .cycle = r.cycle};
    }
}

static bool nvdla_bus_pop(void *acc, bus_resp_t *resp)
{
    nvdla_tb_t *t = acc;
    drain_csb(t);
    if (!t->ring_n) return false;
    *resp = t->ring[t->ring_head];
    t->ring_head = (t->ring_head + 1) % RESP_RING;
    t->ring_n--;
    return true;
}

static bool nvdla_bus_idle(void *acc)
{
    nvdla_tb_t *t = acc;
    return csb_master_idle(t->csb);
}

/* OP_WAIT_IRQ: mask 0 waits for the line; otherwise service GLB status like the upstream handler
 * (read STATUS and MASK, W1C the pending bits) until every bit of `mask` has been seen. */
static bool nvdla_wait_irq(void *acc, uint32_t mask)
{
    nvdla_tb_t *t = acc;
    drain_csb(t);
    if (mask == 0) return irq_monitor_level(t->irq);
    if ((t->irq_seen & mask) == mask && t->irq_state == IRQ_IDLE) {
        t->irq_seen &= ~mask;
        return true;
    }
    switch (t->irq_state) {
    case IRQ_IDLE:
        if (irq_monitor_level(t->irq)) {
            csb_req_t rs = {.addr = GLB_INTR_STATUS, .tag = INTERNAL_TAG | 1};
            csb_req_t rm = {.addr = GLB_INTR_MASK, .tag = INTERNAL_TAG | 2};
            csb_master_push(t->csb, &rs);
            csb_master_push(t->csb, &rm);
            t->irq_state = IRQ_READ_STATUS;
        }
        break;
    case IRQ_COOLDOWN:
        if (sim_cycle(t->sim) >= t->irq_cool_until && csb_master_idle(t->csb)) t->irq_state = IRQ_IDLE;
        break;
    default: break;
    }
    return false;
}

static mem_t *nvdla_dut_mem(void *acc) { return ((nvdla_tb_t *)acc)->mem; }
static mem_t *nvdla_golden_mem(void *acc) { return ((nvdla_tb_t *)acc)->shadow; }

/* ---- golden-only runs (+golden_only): the program against the golden model alone -------------------- */
/* Register reads are answered from what was written (store mask, else the reset value), GLB status from the
 * golden model's expected interrupts, CDMA's CBUF flush as done: enough for datapath jobs and nv_small traces.
 * Register-behaviour tests (ping-pong status, interrupt masking) are not modelled and fail in this mode. */
static void nvdla_golden_bus(void *acc, const bus_req_t *r, bus_resp_t *resp)
{
    nvdla_tb_t *t = acc;
    uint32_t addr = (uint32_t)r->addr;
    if (r->addr > 0x3FFFF || (r->addr & 3)) {
        sim_error(t->sim, "CSB address 0x%llx is outside the NVDLA register space or not word aligned",
                  (unsigned long long)r->addr);
        return;
    }
    if (!t->gregs) {
        t->gregs = calloc(0x10000, sizeof *t->gregs);
        t->gregs_set = calloc(0x10000, 1);
        if (!t->gregs || !t->gregs_set) abort();
    }
    const nvdla_reg_t *reg = t->cfg->reg_by_addr(addr);
    uint32_t model = addr;
    const char *unit;
    const bool modelled = nvdla_config_to_model(t->cfg, addr, &model, &unit);
    if (r->write) {
        uint32_t data = r->data;
        if (t->one_event_per_wait && modelled && model == GLB_INTR_STATUS) { /* W1C of delivered events only */
            data &= t->delivered;
            t->delivered &= ~data;
        }
        golden_write(t, addr, data);
        t->gregs[addr >> 2] = r->data;
        t->gregs_set[addr >> 2] = 1;
        /* A layer the model refuses is an error here, with its reason, as the golden check makes it on a DUT (no
         * golden check runs in this mode: the model is the DUT). */
        const char *gerr = nvdla_golden_errors(t->golden);
        if (strlen(gerr) > t->gerr_reported) {
            sim_error(t->sim, "golden model: %s", gerr + t->gerr_reported + (t->gerr_reported ? 1 : 0));
            t->gerr_reported = strlen(gerr);
        }
        return;
    }
    if (modelled && model == GLB_INTR_STATUS)
        resp->data = nvdla_golden_intr_expected(t->golden) & (t->one_event_per_wait ? t->delivered : ~0u);
    else if (modelled && model == NVDLA_CDMA_S_CBUF_FLUSH_STATUS_0) resp->data = 1;
    else if (reg)
        resp->data = t->gregs_set[addr >> 2] ? (t->gregs[addr >> 2] & reg->store_mask) | (reg->reset & ~reg->store_mask)
                                             : reg->reset;
}

static bool nvdla_golden_irq(void *acc, uint32_t mask)
{
    nvdla_tb_t *t = acc;
    uint32_t pend = nvdla_golden_intr_expected(t->golden);
    if (mask == 0 && t->one_event_per_wait) {
        /* a layer's events in the order its units finish: CDMA data and weights, CACC, then the datapath units */
        static const uint8_t order[] = {16, 17, 18, 19, 20, 21, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
        if (pend & t->delivered) return true;
        for (size_t i = 0; i < sizeof order; i++)
            if (pend >> order[i] & 1) {
                t->delivered |= 1u << order[i];
                return true;
            }
        return false;
    }
    if (mask == 0) return pend != 0;
    if ((pend & mask) != mask) return false;
    nvdla_golden_write(t->golden, GLB_INTR_STATUS, mask); /* the interrupt service clears what it saw */
    return true;
}

static void box_coord(const void *ctx, uint64_t addr, char *buf, size_t n)
{
    nvdla_box_coord(ctx, (uint32_t)addr, buf, n);
}

/* Put the wave marker on the DBB write of the first mismatching byte, the moment the DUT went wrong. */
static void mark_first_mismatch(nvdla_tb_t *t)
{
    uint64_t addr;
    if (!sb_first_mismatch_addr(sim_scoreboard(t->sim), &addr)) return;
    for (size_t w = t->nwritten; w-- > 0;)
        if ((t->written[w].space | t->written[w].addr) == (addr & ~7ull)) {
            char what[96];
            snprintf(what, sizeof what, "%s write of the first mismatching byte 0x%08llx",
                     t->written[w].space ? "CVIF" : "DBB", (unsigned long long)addr);
            sim_mark_failure(t->sim, t->written[w].cycle, what);
            return;
        }
}

/* The CACC -> SDP stream since the last check against the model's convolution layers (DUTs with the probe):
 * a difference is an error naming the stage before SDP; agreement under an output mismatch points at SDP. */
static void check_conv_stream(nvdla_tb_t *t, bool image_layers, uint64_t output_mismatches)
{
    size_t nc;
    const nvdla_conv_out_t *layers = nvdla_golden_take_conv(t->golden, &nc);
    if (t->cacc_probe && !image_layers && (nc || t->cacc.n)) {
        char m[160];
        uint64_t d = conv_stream_compare(&t->cacc, layers, nc, m, sizeof m);
        if (d)
            sim_error(t->sim,
                      "MISMATCH CACC->SDP stream: %llu value(s) differ, first at %s: suspect the convolution "
                      "pipeline before SDP (CDMA, CBUF, CSC, CMAC, CACC)",
                      (unsigned long long)d, m);
        else if (output_mismatches)
            sim_note(t->sim, "the CACC->SDP stream agrees with the golden model (%s): suspect SDP or after it", m);
    }
    conv_stream_clear(&t->cacc);
}

static void nvdla_golden_check(void *acc, scoreboard_t *sb)
{
    nvdla_tb_t *t = acc;
    const char *gerr = nvdla_golden_errors(t->golden);
    if (*gerr) sim_error(t->sim, "golden model: %s", gerr);
    size_t n;
    uint64_t output_mismatches = 0;
    const nvdla_box_t *boxes = nvdla_golden_take_boxes(t->golden, &n);
    for (size_t i = 0; i < n; i++) {
        const nvdla_box_t *b = &boxes[i];
        for (uint32_t s = 0; s < b->surfs; s++)
            for (uint32_t l = 0; l < b->lines; l++) {
                uint32_t a = b->addr + s * b->surf_stride + l * b->line_stride;
                char what[48];
                snprintf(what, sizeof what, "%s grp %d output", b->unit, b->group);
                output_mismatches += sb_compare(sb, stderr, t->mem, t->shadow, b->space | a, b->line_bytes, what,
                                                box_coord, b, sim_cycle(t->sim));
            }
    }
    /* A DUT write outside every expected region is an error even if it happens to match; not where a layer
     * the model does not compute (a convolution it refused, reported as an error) wrote its output. */
    unsigned unmodelled = nvdla_golden_unmodelled(t->golden);
    check_conv_stream(t, unmodelled != t->unmodelled_seen, output_mismatches);
    if (unmodelled != t->unmodelled_seen) {
        sim_note(t->sim,
                 "%u convolution layer(s) the model refused since the last check: output checked by the "
                 "stimulus' CRC only, stray-write check not applied",
                 unmodelled - t->unmodelled_seen);
        t->unmodelled_seen = unmodelled;
        t->nwritten = 0;
    }
    for (size_t w = 0; w < t->nwritten; w++) {
        bool ok = false;
        for (size_t i = 0; i < n && !ok; i++)
            ok = boxes[i].space == t->written[w].space &&
                 nvdla_box_locate(&boxes[i], t->written[w].addr, NULL, NULL, NULL);
        if (!ok) {
            sim_mark_failure(t->sim, t->written[w].cycle, "stray write");
            sim_error(t->sim, "stray %s write at 0x%08x (cycle %llu): outside every region the golden model wrote",
                      t->written[w].space ? "CVIF (CVSRAM)" : "DBB", t->written[w].addr,
                      (unsigned long long)t->written[w].cycle);
            break;
        }
    }
    mark_first_mismatch(t);
    t->nwritten = 0;
}

static const char *nvdla_reg_name(void *acc, uint64_t addr, char *buf, size_t n)
{
    const nvdla_tb_t *t = acc;
    const nvdla_reg_t *r = t->cfg->reg_by_addr((uint32_t)addr);
    if (r) snprintf(buf, n, "%s.%s", r->unit, r->name);
    else snprintf(buf, n, "0x%05llx", (unsigned long long)addr);
    return buf;
}

static void nvdla_describe(void *acc, FILE *f)
{
    nvdla_tb_t *t = acc;
    axi_stats_t st = axi_slave_stats(t->dbb);
    fprintf(f, "  state: dla_intr=%d, interrupts seen %llu, CSB idle=%d, DBB idle=%d, golden expects GLB bits 0x%x\n",
            irq_monitor_level(t->irq), (unsigned long long)irq_monitor_count(t->irq), csb_master_idle(t->csb),
            axi_slave_idle(t->dbb), nvdla_golden_intr_expected(t->golden));
    fprintf(f, "  DBB traffic: %llu read bursts, %llu R beats, %llu write bursts, %llu W beats, %llu B\n",
            (unsigned long long)st.ar_bursts, (unsigned long long)st.r_beats, (unsigned long long)st.aw_bursts,
            (unsigned long long)st.w_beats, (unsigned long long)st.b_resps);
    /* a master that holds bready low is within AXI; on nv_full it is the mechanism of a known hang */
    fprintf(f, "  B responses held off by the DUT (bready low): DBB %llu cycles", (unsigned long long)st.b_not_ready);
    if (t->cvif) fprintf(f, ", CVIF %llu cycles", (unsigned long long)axi_slave_stats(t->cvif).b_not_ready);
    fputc('\n', f);
    /* who waits for whom on the DBB: a valid held against a low ready is the bench's stall, a hang with every valid
     * low is inside the DUT */
    const axi_in_t *i = &t->prev_in;
    const axi_out_t *o = &t->prev_out;
    fprintf(f,
            "  DBB wires at the last edge: AW valid %d ready %d, W valid %d ready %d, B valid %d ready %d, AR valid %d "
            "ready %d, R valid %d ready %d\n",
            i->awvalid, o->awready, i->wvalid, o->wready, o->bvalid, i->bready, i->arvalid, o->arready, o->rvalid,
            i->rready);
    const char *gerr = nvdla_golden_errors(t->golden);
    if (*gerr) fprintf(f, "  golden model: %s\n", gerr);
}

static const char *const nvdla_wave_signals[] = {
    /* the bus wires; the DUT adds its internals (duts/<dut>.signals) */
    "-CSB",
    "TOP.tb_nvdla.clk",
    "TOP.tb_nvdla.rst_n",
    "TOP.tb_nvdla.csb_valid",
    "TOP.tb_nvdla.csb_ready",
    "TOP.tb_nvdla.csb_addr[15:0]",
    "TOP.tb_nvdla.csb_wdat[31:0]",
    "TOP.tb_nvdla.csb_write",
    "TOP.tb_nvdla.csb_nposted",
    "TOP.tb_nvdla.csb_rvalid",
    "TOP.tb_nvdla.csb_rdata[31:0]",
    "TOP.tb_nvdla.csb_wr_complete",
    "-DBB read",
    "TOP.tb_nvdla.ar_valid",
    "TOP.tb_nvdla.ar_ready",
    "TOP.tb_nvdla.ar_id[7:0]",
    "TOP.tb_nvdla.ar_addr[31:0]",
    "TOP.tb_nvdla.r_valid",
    "TOP.tb_nvdla.r_ready",
    "TOP.tb_nvdla.r_id[7:0]",
    "TOP.tb_nvdla.r_data[63:0]",
    "-DBB write",
    "TOP.tb_nvdla.aw_valid",
    "TOP.tb_nvdla.aw_ready",
    "TOP.tb_nvdla.aw_id[7:0]",
    "TOP.tb_nvdla.aw_addr[31:0]",
    "TOP.tb_nvdla.w_valid",
    "TOP.tb_nvdla.w_ready",
    "TOP.tb_nvdla.w_data[63:0]",
    "TOP.tb_nvdla.w_strb[7:0]",
    "TOP.tb_nvdla.b_valid",
    "TOP.tb_nvdla.b_ready",
    "TOP.tb_nvdla.b_id[7:0]",
    "-Interrupt",
    "TOP.tb_nvdla.dla_intr",
    NULL,
};

const acc_ops_t tb_acc_ops = {
    .name = "nvdla",
    .create = nvdla_create,
    .destroy = nvdla_destroy,
    .stall = nvdla_stall,
    .build = nvdla_build,
    .import = nvdla_import,
    .bus_push = nvdla_bus_push,
    .bus_pop = nvdla_bus_pop,
    .bus_idle = nvdla_bus_idle,
    .wait_irq = nvdla_wait_irq,
    .dut_mem = nvdla_dut_mem,
    .golden_mem = nvdla_golden_mem,
    .golden_check = nvdla_golden_check,
    .reg_name = nvdla_reg_name,
    .describe = nvdla_describe,
    .wave_scope = "TOP.tb_nvdla",
    .wave_signals = nvdla_wave_signals,
    .golden_bus = nvdla_golden_bus,
    .golden_irq = nvdla_golden_irq,
};

/* ---- DPI entry points (called from tb_nvdla.sv once per rising edge) ------------------------------ */
static nvdla_tb_t *tb(void) { return sim_acc(sim_get()); }

void nvdla_csb_tick(svBit ready, svBit rvalid, unsigned int rdata, svBit wr_complete, svBit *valid,
                    unsigned short *addr, unsigned int *wdat, svBit *write, svBit *nposted)
{
    nvdla_tb_t *t = tb();
    csb_out_t o = {0};
    if (t) {
        csb_in_t in = {.ready = ready, .rvalid = rvalid, .rdata = rdata, .wr_complete = wr_complete};
        csb_master_tick(t->csb, &in, &o);
    }
    *valid = o.valid;
    *addr = o.addr;
    *wdat = o.wdat;
    *write = o.write;
    *nposted = o.nposted;
}

/* Faults are applied to the DUT's outputs on their way to the memory model, so the real checkers see
 * a real corrupted beat or protocol violation. */
static void inject(nvdla_tb_t *t, axi_in_t *in)
{
    switch (t->fault) {
    case FAULT_WDATA_FLIP:
        if (in->wvalid && !t->fault_done && t->w_beats == t->fault_n) {
            in->wdata[0] ^= 1ull << (8 * (t->fault_n % 8));
        }
        break;
    case FAULT_AXI_VALID_DROP:
        if (t->prev_wvalid_stalled && !t->fault_done) {
            in->wvalid = false;
            t->fault_done = true;
            sim_fault_injected(t->sim);
        }
        break;
    case FAULT_AXI_CROSS_4K:
        if (in->awvalid && !t->fault_done) {
            in->awaddr = (in->awaddr & ~0xFFFu) | 0xFF8u;
            in->awlen = 3;
        }
        break;
    default: break;
    }
}

/* The DBB's edge: faults applied to the DUT's outputs, then the memory model. */
static void dbb_edge(nvdla_tb_t *t, axi_in_t *in, axi_out_t *o)
{
    /* Faults count W beats from the start of job fault_job (jobs are numbered from 0). */
    bool in_fault_job = sb_njobs(sim_scoreboard(t->sim)) == t->fault_job + 1;
    if (t->fault != FAULT_NONE && in_fault_job) inject(t, in);
    axi_slave_tick(t->dbb, in, o);
    /* Handshakes of this edge: the slave's outputs of the previous edge are what the DUT saw. */
    if (in->wvalid && t->prev_out.wready && in_fault_job) {
        if (t->fault == FAULT_WDATA_FLIP && t->w_beats == t->fault_n) {
            t->fault_done = true;
            sim_fault_injected(t->sim);
        }
        t->w_beats++;
    }
    if (in->awvalid && t->prev_out.awready && t->fault == FAULT_AXI_CROSS_4K && !t->fault_done) {
        t->fault_done = true;
        sim_fault_injected(t->sim);
    }
    t->prev_wvalid_stalled = in->wvalid && !t->prev_out.wready;
    if (t->fault == FAULT_B_STUCK && t->w_beats > t->fault_n && o->bvalid) {
        o->bvalid = false;
        sim_fault_injected(t->sim);
    }
    t->prev_out = *o;
    t->prev_in = *in;
}

void nvdla_dbb_tick(svBit awvalid, unsigned char awid, unsigned char awlen, unsigned int awaddr, svBit wvalid,
                    unsigned long long wdata, unsigned char wstrb, svBit wlast, svBit bready, svBit arvalid,
                    unsigned char arid, unsigned char arlen, unsigned int araddr, svBit rready, svBit *awready,
                    svBit *wready, svBit *bvalid, unsigned char *bid, svBit *arready, svBit *rvalid, unsigned char *rid,
                    unsigned long long *rdata, svBit *rlast)
{
    nvdla_tb_t *t = tb();
    axi_out_t o = {0};
    if (t) {
        axi_in_t in = {.awvalid = awvalid,
                       .awid = awid,
                       .awlen = awlen,
                       .awaddr = awaddr,
                       .wvalid = wvalid,
                       .wdata = {wdata},
                       .wstrb = wstrb,
                       .wlast = wlast,
                       .bready = bready,
                       .arvalid = arvalid,
                       .arid = arid,
                       .arlen = arlen,
                       .araddr = araddr,
                       .rready = rready};
        if (t->dbb_bytes != 8 && !t->width_reported) {
            t->width_reported = true;
            sim_error(t->sim,
                      "tb_nvdla.sv drives a 64-bit DBB, but DUT %s's features (dbb512) say %u-byte beats: "
                      "its description's defines need NVDLA_DBB_BYTES=%u",
                      tb_dut.name, t->dbb_bytes, t->dbb_bytes);
        }
        dbb_edge(t, &in, &o);
    }
    *awready = o.awready;
    *wready = o.wready;
    *bvalid = o.bvalid;
    *bid = o.bid;
    *arready = o.arready;
    *rvalid = o.rvalid;
    *rid = o.rid;
    *rdata = o.rdata[0];
    *rlast = o.rlast;
}

/* A bus wider than 64 bits: port 0 the DBB, port 1 CVIF; data as 16 32-bit words (svBitVecVal), zero-extended. */
void nvdla_axi_wide_tick(int port, int beat_bytes, svBit awvalid, unsigned char awid, unsigned char awlen,
                         unsigned int awaddr, svBit wvalid, const svBitVecVal *wdata, unsigned long long wstrb,
                         svBit wlast, svBit bready, svBit arvalid, unsigned char arid, unsigned char arlen,
                         unsigned int araddr, svBit rready, svBit *awready, svBit *wready, svBit *bvalid,
                         unsigned char *bid, svBit *arready, svBit *rvalid, unsigned char *rid, svBitVecVal *rdata,
                         svBit *rlast)
{
    nvdla_tb_t *t = tb();
    axi_out_t o = {0};
    axi_slave_t *port_model = !t ? NULL : port == 0 ? t->dbb : t->cvif;
    /* The SV side's widths come from the DUT description's defines, the C side's from its features: both agree */
    bool ok = port_model && (unsigned)beat_bytes == t->dbb_bytes;
    if (t && !ok && !t->width_reported) {
        t->width_reported = true;
        if (!port_model)
            sim_error(t->sim, "tb_nvdla.sv drives a CVIF port (NVDLA_CVIF), but DUT %s's features lack cvif",
                      tb_dut.name);
        else
            sim_error(t->sim, "tb_nvdla.sv drives %d-byte beats on %s (NVDLA_DBB_BYTES), but DUT %s's features say %u",
                      beat_bytes, port ? "CVIF" : "the DBB", tb_dut.name, t->dbb_bytes);
    }
    if (ok) {
        axi_in_t in = {.awvalid = awvalid,
                       .awid = awid,
                       .awlen = awlen,
                       .awaddr = awaddr,
                       .wvalid = wvalid,
                       .wstrb = wstrb,
                       .wlast = wlast,
                       .bready = bready,
                       .arvalid = arvalid,
                       .arid = arid,
                       .arlen = arlen,
                       .araddr = araddr,
                       .rready = rready};
        for (unsigned k = 0; k < AXI_WORDS_MAX; k++) in.wdata[k] = wdata[2 * k] | (uint64_t)wdata[2 * k + 1] << 32;
        if (port == 0) dbb_edge(t, &in, &o);
        else axi_slave_tick(t->cvif, &in, &o);
    }
    *awready = o.awready;
    *wready = o.wready;
    *bvalid = o.bvalid;
    *bid = o.bid;
    *arready = o.arready;
    *rvalid = o.rvalid;
    *rid = o.rid;
    for (unsigned k = 0; k < AXI_WORDS_MAX; k++) {
        rdata[2 * k] = (svBitVecVal)o.rdata[k];
        rdata[2 * k + 1] = (svBitVecVal)(o.rdata[k] >> 32);
    }
    *rlast = o.rlast;
}

void nvdla_cacc_beat(unsigned int value, svBit last)
{
    nvdla_tb_t *t = tb();
    if (!t) return;
    if (t->fault == FAULT_CACC_FLIP && !t->fault_done && t->cacc_values == t->fault_n) {
        value ^= 1u;
        t->fault_done = true;
        sim_fault_injected(t->sim);
    }
    t->cacc_values++;
    conv_stream_push(&t->cacc, (int32_t)value, last);
}

void nvdla_irq_tick(svBit intr)
{
    nvdla_tb_t *t = tb();
    if (!t) return;
    const uint64_t rises = irq_monitor_count(t->irq);
    irq_monitor_tick(t->irq, intr);
    if (irq_monitor_count(t->irq) != rises) { /* a rise: the writes still waiting for their B (check_irq_status) */
        t->irq_npend = axi_slave_pending_writes(t->dbb, t->irq_pend, 64);
        if (t->irq_npend > 64) t->irq_npend = 64;
        t->irq_cycle = sim_cycle(t->sim);
        t->irq_rise_valid = true;
    }
}
