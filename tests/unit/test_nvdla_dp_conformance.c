/* The NVIDIA nv_small SDP/PDP/CDP conformance traces replayed on the golden model alone: the importer
 * (tb/nvdla/nvsmall_cfg.c) turns each .cfg into a program; its memory ops fill a memory, its register
 * writes go to nvdla_golden_write() in order, and every check_crc window must match the trace's CRC.
 * Each interrupt the trace waits for must be one the model raised. dc_* traces need the convolution
 * pipeline and are reported as skipped. */
#include "nvdla_golden.h"
#include "nvdla_regmap.h"
#include "nvsmall_cfg.h"
#include "unit.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

static bool resolve(void *user, const char *name, uint32_t *addr)
{
    (void)user;
    const nvdla_reg_t *r = nvdla_reg_by_name(name);
    if (!r) return false;
    *addr = r->addr;
    return true;
}

typedef struct result {
    unsigned crcs, crc_ok, irqs, irq_ok;
} result_t;

static result_t replay(const program_t *p, char *why, size_t n)
{
    result_t res = {0};
    mem_t *m = mem_new();
    nvdla_golden_t *g = nvdla_golden_new(m);
    uint32_t seen = 0;
    why[0] = 0;
    for (size_t i = 0; i < p->n; i++) {
        const op_t *op = &p->ops[i];
        switch (op->kind) {
        case OP_MEM: mem_write(m, op->addr, op->bytes, op->nbytes); break;
        case OP_MEM_FILL: mem_fill(m, op->addr, op->size, (uint8_t)op->data); break;
        case OP_WRITE: nvdla_golden_write(g, (uint32_t)op->addr, op->data); break;
        case OP_WAIT_IRQ:
            res.irqs++;
            seen = nvdla_golden_intr_expected(g);
            if ((seen & op->mask) == op->mask) res.irq_ok++;
            else snprintf(why, n, "interrupt 0x%x never raised (model: 0x%x)", op->mask, seen);
            break;
        case OP_CHECK_CRC: {
            res.crcs++;
            uint32_t crc = mem_crc32(m, op->addr, op->size);
            if (crc == op->data) res.crc_ok++;
            else
                snprintf(why, n, "CRC of [0x%llx, +0x%llx) = 0x%08x, trace expects 0x%08x",
                         (unsigned long long)op->addr, (unsigned long long)op->size, crc, op->data);
            break;
        }
        default: break;
        }
    }
    const char *err = nvdla_golden_errors(g);
    if (*err && !why[0]) snprintf(why, n, "golden model error: %s", err);
    nvdla_golden_free(g);
    mem_free(m);
    return res;
}

static void test_conformance(unit_t *u)
{
    char conf_dir[512];
    unit_shared(conf_dir, sizeof conf_dir, "conformance/nvdla");
    DIR *d = opendir(conf_dir);
    if (!d) {
        printf("  SKIPPED: conformance replay: %s not found (set COSIM_SHARED=<the shared folder>)\n", conf_dir);
        return;
    }
    unsigned ran = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *t = e->d_name;
        bool dp = !strncmp(t, "sdp_", 4) || !strncmp(t, "pdp_", 4) || !strncmp(t, "cdp_", 4);
        if (t[0] == '.' || (!dp && strncmp(t, "dc_", 3))) continue;
        if (!dp) {
            printf("  %-40s SKIP (needs CDMA/CSC/CMAC/CACC: convolution pipeline not built)\n", t);
            continue;
        }
        char path[1100], err[512], why[512];
        snprintf(path, sizeof path, "%s/%s/%s.cfg", conf_dir, t, t);
        program_t p;
        program_init(&p, "nvdla", NULL, 1);
        int rc = nvsmall_cfg_load(&p, path, resolve, NULL, err, sizeof err);
        CHECK(rc == 0, "%s", err);
        if (rc == 0) {
            result_t r = replay(&p, why, sizeof why);
            bool ok = r.crcs > 0 && r.crc_ok == r.crcs && r.irq_ok == r.irqs && !why[0];
            CHECK(ok, "%s: %s", t, why);
            printf("  %-40s %s (%u/%u CRC, %u/%u interrupts)\n", t, ok ? "PASS" : "FAIL", r.crc_ok, r.crcs, r.irq_ok,
                   r.irqs);
            ran++;
        }
        program_free(&p);
    }
    closedir(d);
    CHECK(ran > 0, "no SDP/PDP/CDP trace found in %s", conf_dir);
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_dp_conformance"};
    UNIT_RUN(&u, test_conformance);
    return unit_done(&u);
}
