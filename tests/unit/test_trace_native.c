/* Unit tests of the native trace format (tb/common/trace_native.c): every command's fields, the MAX78000
 * conformance trace read unchanged, exact write -> read -> write round trips, and one malformed fixture
 * per error with its message and line number. Fixtures: tests/unit/data/trace/. */
#define _POSIX_C_SOURCE 200809L
#include "program.h"
#include "unit.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

/* Fixture directory: tests/unit/data from the repository root, else next to this source file. */
static const char *data_dir(void)
{
    static const char *const cands[] = {"tests/unit/data", "data", "../../tests/unit/data"};
    struct stat st;
    for (size_t i = 0; i < sizeof cands / sizeof *cands; i++)
        if (stat(cands[i], &st) == 0 && S_ISDIR(st.st_mode)) return cands[i];
    return "tests/unit/data";
}

static void fixture(char *buf, size_t n, const char *name) { snprintf(buf, n, "%s/trace/%s", data_dir(), name); }

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    size_t got = fread(s, 1, (size_t)n, f);
    s[got] = '\0';
    fclose(f);
    return s;
}

/* Write p to a fresh temporary file; returns its path (caller unlinks and frees). */
static char *write_tmp(const program_t *p)
{
    char *path = strdup("/tmp/test_trace_native_XXXXXX");
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    trace_write(p, f);
    fclose(f);
    return path;
}

/* Free-text commands (job, name, skip) take any number of words; a dumped long job name must read back. */
static void test_long_free_text(unit_t *u)
{
    program_t p, q;
    program_init(&p, "ne16", "a test name with many more than eight words in it", 3);
    prog_job(&p, "job name of twelve words: one two three four five six seven eight");
    prog_skip(&p, "a reason with well over eight words to say why it was skipped");
    char *path = write_tmp(&p);
    char err[256] = "";
    program_init(&q, "ne16", "", 0);
    int rc = trace_read(&q, path, err, sizeof err);
    CHECK(rc == 0, "long free text rejected: %s", err);
    CHECK(rc == 0 && q.n == 2 && !strcmp(q.ops[0].text, p.ops[0].text), "job text round-trips");
    CHECK(rc == 0 && q.n == 2 && !strcmp(q.ops[1].text, p.ops[1].text), "skip text round-trips");
    CHECK(rc == 0 && q.name && !strcmp(q.name, p.name), "name round-trips");
    unlink(path);
    free(path);
    program_free(&p);
    program_free(&q);
}

static void test_all_ops(unit_t *u)
{
    char path[512], err[512] = "";
    fixture(path, sizeof path, "valid_all_ops.trace");
    program_t p;
    program_init(&p, "", NULL, 0);
    int rc = trace_read(&p, path, err, sizeof err);
    CHECK(rc == 0, "trace_read failed: %s", err);
    if (rc) goto out;
    CHECK(!strcmp(p.acc, "nvdla"), "acc '%s'", p.acc);
    CHECK(p.name && !strcmp(p.name, "all ops test"), "name '%s'", p.name);
    CHECK_EQ(p.seed, 12345);
    CHECK_EQ(p.n, 18);
    if (p.n != 18) goto out;
    const op_t *o = p.ops;
    CHECK(o[0].kind == OP_JOB && !strcmp(o[0].text, "bdma copy  0"), "job text '%s'", o[0].text);
    CHECK(o[0].line == 5 && o[0].file && !strcmp(o[0].file, path), "job at %s:%d", o[0].file, o[0].line);
    CHECK(o[1].kind == OP_WRITE && o[1].addr == 0x10004 && o[1].data == 0x80000000u && o[1].strb == 0xF &&
              !o[1].nposted,
          "w default strb");
    CHECK(o[2].kind == OP_WRITE && o[2].addr == 0x10008 && o[2].data == 1 && o[2].strb == 3, "w 0x prefix, strb");
    CHECK(o[3].kind == OP_WRITE && o[3].nposted && o[3].data == 2 && o[3].strb == 0xF, "wn");
    CHECK(o[4].kind == OP_READ && o[4].addr == 0x1000 && o[4].data == 0x303031 && o[4].mask == 0xFFFFFFFFu,
          "r default mask");
    CHECK(o[5].kind == OP_READ && o[5].data == 0x40 && o[5].mask == 0xc0, "r mask");
    CHECK(o[6].kind == OP_POLL && o[6].addr == 0x300c && o[6].data == 1 && o[6].mask == 0xFFFFFFFFu &&
              o[6].timeout == 0,
          "poll defaults");
    CHECK(o[7].kind == OP_POLL && o[7].timeout == 5000, "poll timeout decimal (%" PRIu64 ")", o[7].timeout);
    CHECK(o[8].kind == OP_WAIT_IRQ && o[8].mask == 0 && o[8].timeout == 0, "wait_irq defaults");
    CHECK(o[9].kind == OP_WAIT_IRQ && o[9].mask == 0x40, "wait_irq mask");
    CHECK(o[10].kind == OP_WAIT_IRQ && o[10].mask == 0x40 && o[10].timeout == 2000000, "wait_irq timeout");
    CHECK(o[11].kind == OP_IDLE && o[11].size == 100, "idle decimal");
    CHECK(o[12].kind == OP_MEM && o[12].addr == 0x80000000u && o[12].nbytes == 5 && o[12].line == 17,
          "two contiguous mem lines are one op (n=%zu line=%d)", o[12].nbytes, o[12].line);
    const uint8_t want[5] = {0x00, 0xff, 0x1a, 0x2b, 0x3c};
    CHECK(o[12].bytes && !memcmp(o[12].bytes, want, 5), "mem bytes in address order");
    CHECK(o[13].kind == OP_MEM_FILL && o[13].addr == 0x90000000u && o[13].size == 0x1000 && o[13].data == 0xa5, "fill");
    CHECK(o[14].kind == OP_CHECK_CRC && o[14].addr == 0x90000000u && o[14].size == 8 && o[14].data == 0xcb0ea2dbu,
          "check_crc");
    CHECK(o[15].kind == OP_CHECK_MEM && o[15].nbytes == 2 && o[15].bytes[1] == 0xff, "check_mem");
    CHECK(o[16].kind == OP_CHECK_GOLDEN, "check_golden");
    CHECK(o[17].kind == OP_SKIP && !strcmp(o[17].text, "needs BDMA"), "skip '%s'", o[17].text);
out:
    program_free(&p);
}

/* The MAX78000 conformance trace has no acc line and uses `w a d pstrb`, `r a e mask`, `wait_irq` and
 * trailing comments. Counts are compared with an independent line scan of the same file. */
static void test_max78000_trace(unit_t *u)
{
    char max_trace[1024];
    unit_shared(max_trace, sizeof max_trace, "conformance/max78000/mnist/apb_trace.txt");
    if (access(max_trace, R_OK) != 0) {
        printf("test_trace_native: SKIPPED the MAX78000 trace test: %s not found (set COSIM_SHARED=<the shared "
               "folder>)\n",
               max_trace);
        return;
    }
    size_t nw = 0, nr = 0, nirq = 0, nbyte = 0;
    int irq_line = 0, line = 0;
    FILE *f = fopen(max_trace, "r");
    char buf[512];
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (!strncmp(buf, "w ", 2)) {
            nw++;
            unsigned a, d, s;
            if (sscanf(buf, "w %x %x %x", &a, &d, &s) == 3 && s != 0xf) nbyte++;
        } else if (!strncmp(buf, "r ", 2)) {
            nr++;
        } else if (!strncmp(buf, "wait_irq", 8)) {
            nirq++;
            irq_line = line;
        }
    }
    fclose(f);

    program_t p;
    char err[512] = "";
    program_init(&p, "max78000", "mnist", 7);
    int rc = trace_read(&p, max_trace, err, sizeof err);
    CHECK(rc == 0, "trace_read: %s", err);
    CHECK(!strcmp(p.acc, "max78000") && !strcmp(p.name, "mnist") && p.seed == 7, "header untouched");
    size_t cw = 0, cr = 0, ci = 0, cb = 0, other = 0;
    int seen_irq_line = 0;
    for (size_t i = 0; i < p.n; i++) {
        const op_t *o = &p.ops[i];
        if (o->kind == OP_WRITE) {
            cw++;
            cb += o->strb != 0xF;
        } else if (o->kind == OP_READ) {
            cr++;
        } else if (o->kind == OP_WAIT_IRQ) {
            ci++;
            seen_irq_line = o->line;
        } else {
            other++;
        }
    }
    CHECK(cw == nw && cr == nr && ci == nirq && other == 0, "w %zu/%zu r %zu/%zu irq %zu/%zu other %zu", cw, nw, cr, nr,
          ci, nirq, other);
    CHECK(cb == nbyte && nbyte > 0, "byte writes %zu/%zu", cb, nbyte);
    CHECK(seen_irq_line == irq_line, "wait_irq line %d, file says %d", seen_irq_line, irq_line);
    /* the documented byte-write convention: PADDR 50180001, data 00000100, pstrb 2 */
    bool found = false;
    for (size_t i = 0; i < p.n && !found; i++)
        found =
            p.ops[i].kind == OP_WRITE && p.ops[i].addr == 0x50180001u && p.ops[i].data == 0x100 && p.ops[i].strb == 2;
    CHECK(found, "byte write to 50180001 with pstrb 2");

    /* and it round-trips */
    char *t1 = write_tmp(&p);
    program_t q;
    program_init(&q, "max78000", NULL, 0);
    rc = trace_read(&q, t1, err, sizeof err);
    CHECK(rc == 0, "re-read: %s", err);
    CHECK_EQ(q.n, p.n);
    char *t2 = write_tmp(&q);
    char *s1 = slurp(t1), *s2 = slurp(t2);
    CHECK(s1 && s2 && !strcmp(s1, s2), "write-read-write differs");
    free(s1);
    free(s2);
    unlink(t1);
    unlink(t2);
    free(t1);
    free(t2);
    program_free(&q);
    program_free(&p);
}

static void test_round_trip(unit_t *u)
{
    program_t p;
    program_init(&p, "ne16", "round # trip\t", 18446744073709551615ull);
    prog_job(&p, "  spaced   job #1 ");
    prog_job(&p, "%s", "");
    op_t *w = program_add(&p, OP_WRITE);
    w->addr = 0xFFFFFFFFFFFFFFF0ull;
    w->data = 0xdeadbeef;
    w->strb = 0x5;
    prog_write_np(&p, 0x10, 1);
    prog_read(&p, 0x20, 0, 0);
    prog_poll(&p, 0x30, 5, 0xFFFFFFFFu, 77);
    prog_poll(&p, 0x30, 5, 0x1, 0);
    prog_wait_irq(&p, 0, 99);
    prog_wait_irq(&p, 0x3F00FF, 0);
    prog_idle(&p, 0);
    uint8_t big[1000];
    for (size_t i = 0; i < sizeof big; i++) big[i] = (uint8_t)(i * 7 + 3);
    prog_mem(&p, 0x1000, big, sizeof big);
    prog_mem(&p, 0x1000 + sizeof big, big, 10); /* contiguous with the previous: written as one stream */
    prog_mem(&p, 0x9000, big, 0);               /* empty: no text form */
    prog_mem(&p, 0x5000, big, 3);
    prog_mem_fill(&p, 0x80000000u, 0x17238C0u, 0);
    prog_check_crc(&p, 0, 0x800, 0xF1E8BA9Eu);
    op_t *cm = program_add(&p, OP_CHECK_MEM);
    cm->addr = 0x1000;
    cm->bytes = malloc(130);
    for (int i = 0; i < 130; i++) cm->bytes[i] = (uint8_t)i;
    cm->nbytes = 130;
    prog_check_golden(&p);
    prog_skip(&p, "no\nnewlines");

    char err[512] = "";
    char *t1 = write_tmp(&p);
    program_t q;
    program_init(&q, "", NULL, 0);
    int rc = trace_read(&q, t1, err, sizeof err);
    CHECK(rc == 0, "read back: %s", err);
    char *t2 = write_tmp(&q);
    char *s1 = slurp(t1), *s2 = slurp(t2);
    CHECK(s1 && s2 && !strcmp(s1, s2), "write-read-write differs:\n--- first\n%s--- second\n%s", s1, s2);

    /* the content survived, not only the text */
    CHECK(!strcmp(q.acc, "ne16") && q.seed == 18446744073709551615ull, "header");
    CHECK(q.name && !strcmp(q.name, "round _ trip"), "name '%s'", q.name);
    const op_t *m = NULL;
    for (size_t i = 0; i < q.n && !m; i++)
        if (q.ops[i].kind == OP_MEM) m = &q.ops[i];
    CHECK(m && m->addr == 0x1000 && m->nbytes == 1010, "1000+10 contiguous bytes as one op (%zu)", m ? m->nbytes : 0);
    if (m && m->nbytes == 1010) CHECK(!memcmp(m->bytes, big, 1000) && !memcmp(m->bytes + 1000, big, 10), "mem bytes");
    CHECK(strstr(s1, "w fffffffffffffff0 deadbeef 5\n") != NULL, "64-bit address and strobe written");
    CHECK(strstr(s1, "job spaced   job _1\n") != NULL, "job text sanitized");
    /* 1010 bytes -> 16 lines of 64 + one of 46 */
    size_t lines = 0;
    for (const char *c = s1; (c = strstr(c, "\nmem 1")); c++) lines++;
    CHECK_EQ(lines, 16);
    size_t nq = q.n;
    free(s1);
    free(s2);
    unlink(t1);
    unlink(t2);
    free(t1);
    free(t2);
    program_free(&q);
    CHECK_EQ(nq, p.n - 2); /* the empty mem op is dropped and the two contiguous ones merge */
    program_free(&p);
}

static void test_errors(unit_t *u)
{
    static const struct {
        const char *file;
        int line;
        const char *what;
        const char *saw;
    } cases[] = {
        {"bad_command.trace", 3, "unknown command", "frobnicate"},
        {"bad_count.trace", 3, "'w' takes 2 to 3 operands, got 1", "w"},
        {"bad_count_extra.trace", 3, "'r' takes 2 to 3 operands, got 4", "3"},
        {"bad_number.trace", 2, "bad hex number for address", "10g0"},
        {"bad_decimal.trace", 2, "bad decimal number for cycle count", "0x10"},
        {"odd_hex.trace", 2, "odd number of hex digits", "00f"},
        {"bad_hex_digit.trace", 2, "bad hex digit", "zz"},
        {"bad_acc.trace", 2, "unknown accelerator", "tpu"},
        {"range_data.trace", 2, "data out of range", "100000000"},
        {"range_strb.trace", 2, "strobe out of range", "10"},
        {"range_addr.trace", 2, "address out of range", "11112222333344445"},
        {"range_byte.trace", 2, "fill byte out of range", "100"},
        {"range_mask.trace", 2, "mask out of range", "1ffffffff"},
        {"job_no_name.trace", 2, "'job' needs a name", "job"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[512], err[512] = "", want[600], saw[128];
        fixture(path, sizeof path, cases[i].file);
        program_t p;
        program_init(&p, "nvdla", NULL, 0);
        int rc = trace_read(&p, path, err, sizeof err);
        snprintf(want, sizeof want, "%s:%d: %s", path, cases[i].line, cases[i].what);
        snprintf(saw, sizeof saw, "(saw '%s')", cases[i].saw);
        CHECK(rc == -1, "%s: accepted", cases[i].file);
        CHECK(!strncmp(err, want, strlen(want)), "%s: got '%s', want prefix '%s'", cases[i].file, err, want);
        CHECK(strstr(err, saw) != NULL, "%s: '%s' does not show %s", cases[i].file, err, saw);
        program_free(&p);
    }
    /* an operation before acc is fine (bad_acc.trace line 1 was read before line 2 failed) */
    char path[512], err[512] = "";
    fixture(path, sizeof path, "bad_acc.trace");
    program_t p;
    program_init(&p, "max78000", NULL, 0);
    trace_read(&p, path, err, sizeof err);
    CHECK(p.n == 1 && p.ops[0].kind == OP_WRITE && !strcmp(p.acc, "max78000"), "op before acc kept, acc unchanged");
    program_free(&p);

    program_init(&p, "nvdla", NULL, 0);
    CHECK(trace_read(&p, "/nonexistent/x.trace", err, sizeof err) == -1 && strstr(err, "/nonexistent/x.trace"),
          "missing file: '%s'", err);
    program_free(&p);
}

int main(void)
{
    unit_t u = {.name = "test_trace_native"};
    UNIT_RUN(&u, test_all_ops);
    UNIT_RUN(&u, test_long_free_text);
    UNIT_RUN(&u, test_max78000_trace);
    UNIT_RUN(&u, test_round_trip);
    UNIT_RUN(&u, test_errors);
    return unit_done(&u);
}
