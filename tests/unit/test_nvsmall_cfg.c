/* Unit tests of the nv_small trace importer (tb/nvdla/nvsmall_cfg.c): the event-name map, a hand-written
 * test using every accepted command, every conformance test under ../shared/conformance/nvdla (counts
 * from an independent line scan, memory-before-registers order, CRC of the loaded images), and one
 * malformed fixture per error with its message and line. Fixtures: tests/unit/data/nvsmall*. */
#define _POSIX_C_SOURCE 200809L
#include "../../tb/nvdla/nvsmall_cfg.h" /* relative: unit.mk's include path has tb/common but not tb/nvdla */
#include "unit.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *data_dir(void)
{
    static const char *const cands[] = {"tests/unit/data", "data", "../../tests/unit/data"};
    struct stat st;
    for (size_t i = 0; i < sizeof cands / sizeof *cands; i++)
        if (stat(cands[i], &st) == 0 && S_ISDIR(st.st_mode)) return cands[i];
    return "tests/unit/data";
}

/* ---- resolvers ---- */

/* Fixture resolver: a few registers with their CSV addresses. */
static bool table_resolve(void *user, const char *name, uint32_t *addr)
{
    static const struct {
        const char *name;
        uint32_t addr;
    } regs[] = {
        {"NVDLA_GLB.S_NVDLA_HW_VERSION_0", 0x1000},
        {"NVDLA_GLB.S_INTR_MASK_0", 0x1004},
        {"NVDLA_CDMA.S_CBUF_FLUSH_STATUS_0", 0x300c},
        {"NVDLA_SDP.D_OP_ENABLE_0", 0x9038},
    };
    (void)user;
    for (size_t i = 0; i < sizeof regs / sizeof *regs; i++)
        if (!strcmp(regs[i].name, name)) {
            *addr = regs[i].addr;
            return true;
        }
    return false;
}

/* Conformance resolver: unit.register -> byte_addr from the spec CSV (one row per field). */
typedef struct csv_regs {
    char (*name)[96];
    uint32_t *addr;
    size_t n;
} csv_regs_t;

static bool csv_load(csv_regs_t *r, const char *path)
{
    memset(r, 0, sizeof *r);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[1024];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        char unit[48], reg[48];
        unsigned a;
        if (sscanf(line, "%47[^,],%47[^,],%x,", unit, reg, &a) != 3) continue; /* header */
        char full[96];
        snprintf(full, sizeof full, "%s.%s", unit, reg);
        if (r->n && !strcmp(r->name[r->n - 1], full)) continue; /* next field of the same register */
        if (r->n == cap) {
            cap = cap ? 2 * cap : 512;
            r->name = realloc(r->name, cap * sizeof *r->name);
            r->addr = realloc(r->addr, cap * sizeof *r->addr);
        }
        memcpy(r->name[r->n], full, sizeof full);
        r->addr[r->n++] = a;
    }
    fclose(f);
    return r->n > 0;
}

static bool csv_resolve(void *user, const char *name, uint32_t *addr)
{
    const csv_regs_t *r = user;
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->name[i], name)) {
            *addr = r->addr[i];
            return true;
        }
    return false;
}

/* Textbook bitwise CRC-32 (zlib), independent of the bench's table code. */
static uint32_t crc32_bits(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
    }
    return ~c;
}

/* Memory image of [base, base+size) after the program's back-door ops (bytes never written are 0). */
static uint8_t *window_image(const program_t *p, uint64_t base, uint64_t size)
{
    uint8_t *w = calloc(1, size ? size : 1);
    for (size_t i = 0; i < p->n; i++) {
        const op_t *o = &p->ops[i];
        uint64_t len = o->kind == OP_MEM ? o->nbytes : o->kind == OP_MEM_FILL ? o->size : 0;
        uint64_t lo = o->addr > base ? o->addr : base;
        uint64_t hi = o->addr + len < base + size ? o->addr + len : base + size;
        for (uint64_t a = lo; a < hi; a++) w[a - base] = o->kind == OP_MEM ? o->bytes[a - o->addr] : (uint8_t)o->data;
    }
    return w;
}

/* ---- tests ---- */

static void test_event_bits(unit_t *u)
{
    static const struct {
        const char *ev;
        unsigned bit;
    } ok[] = {
        {"SDP_0", 0},      {"SDP_1", 1},      {"CDP_0", 2},   {"cdp_1", 3},   {"PDP_0", 4},       {"Pdp_1", 5},
        {"BDMA_0", 6},     {"BDMA_1", 7},     {"RUBIK_0", 8}, {"RUBIK_1", 9}, {"CDMA_DAT_0", 16}, {"cdma_dat_1", 17},
        {"CDMA_WT_0", 18}, {"CDMA_WT_1", 19}, {"CACC_0", 20}, {"cacc_1", 21},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        unsigned b = 99;
        CHECK(nvsmall_event_bit(ok[i].ev, &b) && b == ok[i].bit, "%s -> %u", ok[i].ev, b);
    }
    static const char *const bad[] = {"SDP_2", "SDP", "SDP_", "_0", "FOO_0", "CDMA_0", "SDP_0x", "SDP_00", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        unsigned b;
        CHECK(!nvsmall_event_bit(bad[i], &b), "'%s' accepted", bad[i]);
    }
}

static void test_mini(unit_t *u)
{
    char path[512], err[512] = "";
    snprintf(path, sizeof path, "%s/nvsmall/mini_test/mini_test.cfg", data_dir());
    program_t p;
    program_init(&p, "nvdla", NULL, 1234);
    int rc = nvsmall_cfg_load(&p, path, table_resolve, NULL, err, sizeof err);
    CHECK(rc == 0, "load: %s", err);
    CHECK(p.name && !strcmp(p.name, "mini_test"), "name '%s'", p.name);
    CHECK_EQ(p.n, 22);
    if (rc || p.n != 22) goto out;
    const op_t *o = p.ops;
    CHECK(o[0].kind == OP_JOB && !strcmp(o[0].text, "mini_test") && o[0].file && strstr(o[0].file, "mini_test.cfg"),
          "job first");
    CHECK(o[1].kind == OP_MEM_FILL && o[1].addr == 0x80000000u && o[1].size == 0x20 && o[1].data == 0 && o[1].line == 3,
          "ALL_ZERO at line 3 (%d)", o[1].line);
    /* records at 0, 4, 8 (short payload: zeros) are contiguous: one op; the record at 0x18 is another */
    const uint8_t w1[16] = {1, 2, 3, 4, 010, 11, 0x0c, 0, 0xff, 0xfe, 0, 0, 0, 0, 0, 0};
    CHECK(o[2].kind == OP_MEM && o[2].addr == 0x80000000u && o[2].nbytes == 16 && !memcmp(o[2].bytes, w1, 16),
          "coalesced records (n=%zu)", o[2].nbytes);
    CHECK(o[2].file && strstr(o[2].file, "in.dat") && o[2].line == 3, "mem op points at in.dat:3 (%s:%d)", o[2].file,
          o[2].line);
    const uint8_t w2[4] = {0xaa, 0xbb, 0xcc, 0xdd};
    CHECK(o[3].kind == OP_MEM && o[3].addr == 0x80000018u && o[3].nbytes == 4 && !memcmp(o[3].bytes, w2, 4) &&
              o[3].line == 6,
          "separate record");
    CHECK(o[4].kind == OP_MEM_FILL && o[4].addr == 0x90000000u && o[4].size == 0x17238C0u && o[4].data == 0xff,
          "huge ONES is a fill");
    CHECK(o[5].kind == OP_MEM_FILL && o[5].data == 0xa5 && o[6].data == 0x5a && o[7].data == 0 && o[7].size == 0x10,
          "AFIVE FIVEA X");
    const uint8_t wa[4] = {0xfe, 0xff, 0x00, 0x01};
    CHECK(o[8].kind == OP_MEM && o[8].addr == 0x900003feu && o[8].nbytes == 4 && !memcmp(o[8].bytes, wa, 4),
          "ADDR pattern");
    CHECK(o[9].kind == OP_MEM && o[9].addr == 0x90000400u && o[9].nbytes == 16, "RANDOM materialised");
    CHECK(o[10].kind == OP_MEM_FILL && o[10].addr == 0xa0000000u && o[10].size == 0x1c && o[10].data == 0xff,
          "mem_init over the file's extent (size 0x%" PRIx64 ")", o[10].size);
    CHECK(o[11].kind == OP_WRITE && o[11].addr == 0x1004 && o[11].data == 0 && !o[11].nposted && o[11].line == 4,
          "reg_write posted, line 4");
    CHECK(o[12].kind == OP_WRITE && o[12].addr == 0x9038 && o[12].data == 1, "decimal value, free spacing");
    CHECK(o[13].kind == OP_READ && o[13].addr == 0x1000 && o[13].data == 0x303031 && o[13].mask == 0xFFFFFFFFu,
          "reg_read_check");
    CHECK(o[14].kind == OP_READ && o[14].addr == 0x1004 && o[14].mask == 0, "reg_read discards");
    CHECK(o[15].kind == OP_POLL && o[15].addr == 0x300c && o[15].data == 1 && o[15].mask == 0xFFFFFFFFu &&
              o[15].timeout == NVSMALL_POLL_TIMEOUT,
          "poll");
    CHECK(o[16].kind == OP_WAIT_IRQ && o[16].mask == 1 && o[16].timeout == NVSMALL_IRQ_TIMEOUT, "SDP_0 wait");
    CHECK(o[17].kind == OP_CHECK_CRC && o[17].addr == 0x90000040u && o[17].size == 8 && o[17].data == 0xcb0ea2dbu,
          "check bound to sync_a");
    CHECK(o[18].kind == OP_WAIT_IRQ && o[18].mask == 1u << 5, "pdp_1 wait mask 0x%x", o[18].mask);
    CHECK(o[19].kind == OP_CHECK_CRC && o[19].addr == 0x80000000u && o[19].data == 0x12345678 && o[19].line == 16,
          "check written before its intr_notify follows it");
    CHECK(o[20].kind == OP_WAIT_IRQ && o[20].mask == 1u << 16, "cdma_dat_0 wait, check_nothing adds nothing");
    CHECK(o[21].kind == OP_CHECK_GOLDEN && o[21].line == o[20].line,
          "the golden comparison after the last interrupt, at its line (%d)", o[21].line);

    /* RANDOM: a function of the seed */
    uint8_t r1[16];
    memcpy(r1, o[9].bytes, 16);
    program_t q;
    program_init(&q, "nvdla", NULL, 1234);
    nvsmall_cfg_load(&q, path, table_resolve, NULL, err, sizeof err);
    CHECK(q.n == 22 && !memcmp(q.ops[9].bytes, r1, 16), "same seed, same RANDOM bytes");
    program_free(&q);
    program_init(&q, "nvdla", NULL, 1235);
    nvsmall_cfg_load(&q, path, table_resolve, NULL, err, sizeof err);
    CHECK(q.n == 22 && memcmp(q.ops[9].bytes, r1, 16), "other seed, other RANDOM bytes");
    program_free(&q);
out:
    program_free(&p);
}

/* Lines of a .cfg that start (after blanks) with `cmd(`. */
static size_t count_cmd(const char *cfg, const char *cmd)
{
    FILE *f = fopen(cfg, "r");
    char line[4096];
    size_t n = 0, k = strlen(cmd);
    while (f && fgets(line, sizeof line, f)) {
        const char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (!strncmp(s, cmd, k) && (s[k] == '(' || s[k] == ' ')) n++;
    }
    if (f) fclose(f);
    return n;
}

/* Sum of the size fields of every record of the .dat files in a directory. */
static uint64_t dat_bytes(const char *dir)
{
    uint64_t total = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 4 || strcmp(e->d_name + l - 4, ".dat")) continue;
        char path[1024], line[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        while (f && fgets(line, sizeof line, f)) {
            const char *s = strstr(line, "size:");
            if (s) total += strtoull(s + 5, NULL, 0);
        }
        if (f) fclose(f);
    }
    if (d) closedir(d);
    return total;
}

static void check_conformance_test(unit_t *u, csv_regs_t *regs, const char *dir, const char *name)
{
    char cfg[1400], err[512] = "";
    snprintf(cfg, sizeof cfg, "%s/%s.cfg", dir, name);
    program_t p;
    program_init(&p, "nvdla", NULL, 1);
    int rc = nvsmall_cfg_load(&p, cfg, csv_resolve, regs, err, sizeof err);
    CHECK(rc == 0, "%s: %s", name, err);
    if (rc) {
        program_free(&p);
        return;
    }
    size_t cnt[OP_SKIP + 1] = {0};
    uint64_t mem_bytes = 0;
    size_t first_reg = p.n, last_mem = 0;
    for (size_t i = 0; i < p.n; i++) {
        const op_t *o = &p.ops[i];
        cnt[o->kind]++;
        if (o->kind == OP_MEM) mem_bytes += o->nbytes;
        if ((o->kind == OP_MEM || o->kind == OP_MEM_FILL) && i > last_mem) last_mem = i;
        if ((o->kind == OP_WRITE || o->kind == OP_READ || o->kind == OP_POLL) && i < first_reg) first_reg = i;
    }
    CHECK(!strcmp(p.name, name) && p.ops[0].kind == OP_JOB && !strcmp(p.ops[0].text, name), "%s: job name", name);
    CHECK(cnt[OP_JOB] == 1, "%s: one job", name);
    CHECK(cnt[OP_WRITE] == count_cmd(cfg, "reg_write"), "%s: %zu writes, cfg has %zu", name, cnt[OP_WRITE],
          count_cmd(cfg, "reg_write"));
    CHECK(cnt[OP_POLL] == count_cmd(cfg, "poll_reg_equal"), "%s: polls", name);
    CHECK(cnt[OP_WAIT_IRQ] == count_cmd(cfg, "intr_notify"), "%s: waits", name);
    CHECK(cnt[OP_CHECK_CRC] == count_cmd(cfg, "check_crc"), "%s: crc checks", name);
    CHECK(cnt[OP_MEM_FILL] == count_cmd(cfg, "mem_init"), "%s: fills", name);
    CHECK(mem_bytes == dat_bytes(dir), "%s: %" PRIu64 " loaded bytes, .dat records hold %" PRIu64, name, mem_bytes,
          dat_bytes(dir));
    CHECK(last_mem < first_reg, "%s: memory ops (last %zu) before register ops (first %zu)", name, last_mem, first_reg);
    CHECK(p.ops[p.n - 2].kind == OP_CHECK_CRC || p.ops[p.n - 2].kind == OP_WAIT_IRQ, "%s: the events at the end", name);
    CHECK(cnt[OP_CHECK_GOLDEN] == 1 && p.ops[p.n - 1].kind == OP_CHECK_GOLDEN,
          "%s: ends with one golden comparison, after the last event", name);
    for (size_t i = 0; i < p.n; i++)
        if (!p.ops[i].file || p.ops[i].line <= 0) {
            CHECK(false, "%s: op %zu has no source location", name, i);
            break;
        }

    /* None of these ten is a "weak" test: the pre-run image of each check window must not already have the
     * golden CRC. (The bypass test is the exception that proves the images byte-exact: its output equals
     * its input, so the input image's CRC is the golden one.) */
    for (size_t i = 0; i < p.n; i++) {
        const op_t *o = &p.ops[i];
        if (o->kind != OP_CHECK_CRC || o->size > (64u << 20)) continue;
        uint8_t *w = window_image(&p, o->addr, o->size);
        uint32_t pre = crc32_bits(w, o->size);
        free(w);
        CHECK(pre != o->data, "%s: the check window already has the golden crc %08x before the run", name, o->data);
        if (!strcmp(name, "sdp_8x8x32_bypass_int8_1")) {
            uint8_t *in = window_image(&p, 0x80000000u, o->size);
            CHECK(crc32_bits(in, o->size) == o->data, "%s: input image crc %08x, golden %08x", name,
                  crc32_bits(in, o->size), o->data);
            free(in);
        }
    }
    if (!strcmp(name, "sdp_1x1x1_pass_through_int8")) {
        const op_t *w = p.ops + p.n - 3, *c = p.ops + p.n - 2;
        CHECK(cnt[OP_WAIT_IRQ] == 1 && w->kind == OP_WAIT_IRQ && w->mask == 1 && w->timeout == 2000000,
              "sdp_1x1x1: one WAIT_IRQ, mask 1");
        CHECK(c->kind == OP_CHECK_CRC && c->addr == 0x90000040u && c->size == 8 && c->data == 0xcb0ea2dbu,
              "sdp_1x1x1: CHECK_CRC 0xcb0ea2db over 0x90000040+8");
        const op_t *last = NULL;
        for (size_t i = 0; i < p.n; i++)
            if (p.ops[i].kind == OP_WRITE) last = &p.ops[i];
        CHECK(last && last->addr == 0x8008 && last->data == 1, "sdp_1x1x1: last write is SDP_RDMA.D_OP_ENABLE");
    }
    if (!strncmp(name, "pdp_", 4) || !strncmp(name, "cdp_", 4)) {
        uint32_t want = name[0] == 'p' ? 1u << 4 : 1u << 2;
        CHECK(p.ops[p.n - 3].kind == OP_WAIT_IRQ && p.ops[p.n - 3].mask == want, "%s: wait mask", name);
    }

    /* Every imported test can be dumped as a native trace and read back unchanged. */
    char tmp[] = "/tmp/test_nvsmall_cfg_XXXXXX";
    FILE *f = fdopen(mkstemp(tmp), "w");
    trace_write(&p, f);
    fclose(f);
    program_t q;
    program_init(&q, "", NULL, 0);
    rc = trace_read(&q, tmp, err, sizeof err);
    CHECK(rc == 0 && q.n == p.n && !strcmp(q.acc, "nvdla") && !strcmp(q.name, name), "%s: dump/read back: %s", name,
          rc ? err : "op count or header differs");
    bool same = rc == 0 && q.n == p.n;
    for (size_t i = 0; same && i < p.n; i++) {
        const op_t *a = &p.ops[i], *b = &q.ops[i];
        same = a->kind == b->kind && a->addr == b->addr && a->data == b->data && a->mask == b->mask &&
               a->size == b->size && a->timeout == b->timeout && a->nbytes == b->nbytes &&
               (!a->nbytes || !memcmp(a->bytes, b->bytes, a->nbytes));
    }
    CHECK(same, "%s: native dump differs from the imported program", name);
    unlink(tmp);
    program_free(&q);
    program_free(&p);
}

static void test_conformance(unit_t *u)
{
    char conf_dir[512], regs_csv[512];
    unit_shared(conf_dir, sizeof conf_dir, "conformance/nvdla");
    unit_shared(regs_csv, sizeof regs_csv, "spec/nvdla_regs.csv");
    DIR *d = opendir(conf_dir);
    csv_regs_t regs;
    if (!d || !csv_load(&regs, regs_csv)) {
        printf("test_nvsmall_cfg: SKIPPED the conformance tests: %s or %s not found (set COSIM_SHARED=<the shared "
               "folder>)\n",
               conf_dir, regs_csv);
        if (d) closedir(d);
        return;
    }
    size_t tested = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        char dir[1024], cfg[1400];
        snprintf(dir, sizeof dir, "%s/%s", conf_dir, e->d_name);
        snprintf(cfg, sizeof cfg, "%s/%s.cfg", dir, e->d_name);
        if (e->d_name[0] == '.' || access(cfg, R_OK) != 0) continue;
        check_conformance_test(u, &regs, dir, e->d_name);
        tested++;
    }
    closedir(d);
    CHECK(tested >= 10, "only %zu conformance tests found", tested);
    free(regs.name);
    free(regs.addr);
}

static void test_errors(unit_t *u)
{
    static const struct {
        const char *file;
        const char *in;
        int line;
        const char *what;
    } cases[] = {
        {"no_semicolon.cfg", NULL, 3, "unrecognized line 'reg_write(NVDLA_SDP.D_OP_ENABLE_0, 0x1)'"},
        {"unknown_command.cfg", NULL, 3, "unrecognized line 'frobnicate(1, 2);'"},
        {"unknown_register.cfg", NULL, 2, "unknown register 'NVDLA_SDP.D_NO_SUCH_REG_0'"},
        {"check_file.cfg", NULL, 3, "check_file is unimplemented upstream"},
        {"sec_mem.cfg", NULL, 1, "sec_mem (SRAMIF) does not exist"},
        {"mem_trailing_sync.cfg", NULL, 2, "mem_init with a trailing sync-id argument is not supported"},
        {"sync_wait_first.cfg", NULL, 3, "sync_wait(NVDLA_PDP, a) has no earlier sync_notify"},
        {"unbound_check.cfg", NULL, 4, "check_crc bound to a sync id that no intr_notify fires (saw 's1')"},
        {"random_too_large.cfg", NULL, 2, "pattern too large"},
        {"bad_number.cfg", NULL, 2, "bad number for register value (saw '0x1g')"},
        {"value_range.cfg", NULL, 2, "register value out of range"},
        {"unknown_event.cfg", NULL, 2, "unknown interrupt event"},
        {"intr_any.cfg", NULL, 2, "intr_notify without an event ID"},
        {"unknown_pattern.cfg", NULL, 1, "unknown mem_init pattern"},
        {"load_unquoted.cfg", NULL, 1, "mem_load needs a quoted file name"},
        {"duplicate_sync.cfg", NULL, 3, "sync id already used by the intr_notify at line 2"},
        {"reg_arg_count.cfg", NULL, 2, "reg_write takes 2 arguments, got 3"},
        {"missing_dat.cfg", NULL, 1, "cannot open surface file"},
        {"dat_bad_payload.cfg", "bad_payload.dat", 3, "bad payload byte in surface record (saw '0x1g')"},
        {"dat_byte_range.cfg", "byte_range.dat", 1, "payload byte out of range"},
        {"dat_too_many.cfg", "too_many.dat", 2, "payload has more bytes than size 2 (saw '3')"},
        {"dat_bad_field.cfg", "bad_field.dat", 1, "surface record field should be 'offset:...'"},
        {"dat_two_parts.cfg", "two_parts.dat", 3, "malformed surface record"},
        {"dat_cut_short.cfg", "cut_short.dat", 3, "surface file ends without its closing '}' line"},
        {"dat_after_close.cfg", "after_close.dat", 4, "line after the closing '}' of the surface file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[512], err[512] = "", want[1024];
        snprintf(path, sizeof path, "%s/nvsmall_bad/%s", data_dir(), cases[i].file);
        if (cases[i].in)
            snprintf(want, sizeof want, "%s/nvsmall_bad/%s:%d: %s", data_dir(), cases[i].in, cases[i].line,
                     cases[i].what);
        else snprintf(want, sizeof want, "%s:%d: %s", path, cases[i].line, cases[i].what);
        program_t p;
        program_init(&p, "nvdla", NULL, 0);
        int rc = nvsmall_cfg_load(&p, path, table_resolve, NULL, err, sizeof err);
        CHECK(rc == -1, "%s: accepted", cases[i].file);
        CHECK(!strncmp(err, want, strlen(want)), "%s:\n   got  '%s'\n   want '%s...'", cases[i].file, err, want);
        program_free(&p);
    }
    char err[256];
    program_t p;
    program_init(&p, "nvdla", NULL, 0);
    CHECK(nvsmall_cfg_load(&p, "/nonexistent/t/t.cfg", table_resolve, NULL, err, sizeof err) == -1 &&
              strstr(err, "/nonexistent/t/t.cfg"),
          "missing cfg: '%s'", err);
    program_free(&p);
}

int main(void)
{
    unit_t u = {.name = "test_nvsmall_cfg"};
    UNIT_RUN(&u, test_event_bits);
    UNIT_RUN(&u, test_mini);
    UNIT_RUN(&u, test_conformance);
    UNIT_RUN(&u, test_errors);
    return unit_done(&u);
}
