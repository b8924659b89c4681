/* A program is the list of operations one simulation run executes: the in-memory form of the native
 * trace format (vectors/README.md). Random generators, directed tests, register tests and importers of
 * external stimulus (nv_small .cfg, MAX78000 bus traces) all produce programs; the sequencer runs them;
 * trace_write() dumps any program as a self-contained native trace file. */
#ifndef PROGRAM_H
#define PROGRAM_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum op_kind {
    OP_JOB,          /* text = job name: starts a scoreboard job (and a wave window) */
    OP_WRITE,        /* bus write: addr, data, strb (APB PSTRB; CSB ignores), posted */
    OP_READ,         /* bus read: addr; check (value ^ data) & mask == 0 */
    OP_POLL,         /* re-read addr until (value ^ data) & mask == 0, at most `timeout` cycles */
    OP_WAIT_IRQ,     /* wait for the interrupt; mask != 0: accelerator-specific event bits (NVDLA GLB
                        status bits: wait until all were seen, clearing each with W1C), timeout cycles */
    OP_IDLE,         /* let `size` cycles pass */
    OP_MEM,          /* back-door write of bytes[0..nbytes) at addr (DUT memory and golden shadow) */
    OP_MEM_FILL,     /* back-door fill of [addr, addr+size) with byte data */
    OP_CHECK_CRC,    /* CRC-32 of DUT memory [addr, addr+size) must equal data */
    OP_CHECK_MEM,    /* DUT memory at addr must equal bytes[0..nbytes); text (optional): where that is in the
                        stimulus' own terms, for the message ("CVSRAM at 0x51000000") */
    OP_CHECK_GOLDEN, /* compare DUT memory with the golden model over what the golden model wrote since
                        the previous check */
    OP_SKIP,         /* text = reason: the program cannot run here (needs a unit not built yet) */
} op_kind_t;

typedef struct op {
    op_kind_t kind;
    uint64_t addr;
    uint32_t data;
    uint32_t mask;
    uint8_t strb;
    bool nposted; /* OP_WRITE on CSB: non-posted */
    /* OP_READ of a value the program itself wrote (an ai8xize read-modify-write): checked, but no known answer
     * of the accelerator's output, so it does not make a run one that checked something (sim.c). */
    bool readback;
    uint64_t size;
    uint64_t timeout; /* cycles; 0 = the sequencer's default */
    uint8_t *bytes;   /* owned by the program */
    size_t nbytes;
    char *text;       /* owned by the program */
    const char *file; /* source location for messages (interned in the program), may be NULL */
    int line;
} op_t;

/* A program whose operations are produced while it runs (a driver in the loop, driver_loop.h): when the
 * sequencer has executed every operation it asks `more` to empty the program and append the next ones. */
struct acc_ops;
typedef struct prog_source prog_source_t;
struct prog_source {
    bool (*more)(prog_source_t *src, const struct acc_ops *ops, void *acc); /* false: the stimulus ended */
    void (*done)(prog_source_t *src, const op_t *op, uint32_t value);       /* op executed; value: read data */
    void (*dump)(prog_source_t *src, FILE *f); /* the operations as they ran, as a native trace */
    void (*release)(prog_source_t *src);       /* called by program_free */
};

typedef struct program {
    op_t *ops;
    size_t n, cap;
    char acc[16]; /* the accelerator (acc_ops_t.name): one of the tree's, TB_ACCS (trace_native.c) */
    char *name;   /* test or trace name */
    uint64_t seed;
    char **files; /* interned file names */
    size_t nfiles;
    prog_source_t *source; /* NULL: the ops are the whole program */
    bool register_only;    /* its test checks registers only: no output bytes to compare (test registry) */
    bool seed_given;       /* a trace's `seed` line was read: its replay runs with that seed */
    /* Plusargs that change the outcome ("+stall=2", "+fault=wdata_flip"), recorded by +dump= in the trace's
     * `plusarg` lines so that its replay runs as the dumped run did (a command-line plusarg wins). */
    char **plusargs;
    size_t nplusargs;
    /* NULL, or where a test being built writes lines for a tool besides its ops (the caller opens and closes it; NVDLA
     * nv_full's FP16 random jobs: +nvf_oracle=, their jobs for NVIDIA's C model) */
    FILE *notes;
} program_t;

/* Limits on what one operation may ask of the host: a trace of three lines must neither hang past every
 * watchdog (a CRC over 2^64 bytes) nor exhaust memory (a fill of 1 TiB). */
#define PROG_MAX_REGION (1ull << 30) /* bytes of one fill / check_crc / mem / check_mem */
#define PROG_MAX_LOADED (1ull << 30) /* bytes of nonzero data all fills and mem loads of a program write */
#define PROG_MAX_CYCLES 50000000ull  /* cycles of one idle, poll or wait_irq timeout */

void program_init(program_t *p, const char *acc, const char *name, uint64_t seed);
void program_free(program_t *p);
op_t *program_add(program_t *p, op_kind_t kind); /* zeroed op, strb 0xF, mask 0xFFFFFFFF */
const char *program_intern_file(program_t *p, const char *path);
void program_add_plusarg(program_t *p, const char *arg); /* copied */
/* Checks the limits above and that every check checks something (no check_crc of 0 bytes). Returns 0, or
 * -1 with "file:line: what" (or "op N: what" for generated programs) in err. */
int program_check_limits(const program_t *p, char *err, size_t errlen);
/* The per-operation part of those limits for op o (number i, for messages) of kind mem, fill, check_crc or
 * check_mem; *loaded accumulates the bytes of data loaded so far. The one place every back-door load is
 * bounded: program_check_limits runs it over a whole program before it starts, the sequencer on every load
 * as it executes it (a driver's loads exist only then; i = SIZE_MAX names the op a driver's). Returns 0, or -1 with the message in err. */
int program_check_region(const op_t *o, size_t i, uint64_t *loaded, char *err, size_t errlen);

/* Convenience builders used by generators. */
void prog_job(program_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void prog_write(program_t *p, uint64_t addr, uint32_t data);
void prog_write_np(program_t *p, uint64_t addr, uint32_t data);
void prog_read(program_t *p, uint64_t addr, uint32_t expect, uint32_t mask);
void prog_poll(program_t *p, uint64_t addr, uint32_t value, uint32_t mask, uint64_t timeout);
void prog_wait_irq(program_t *p, uint32_t mask, uint64_t timeout);
void prog_idle(program_t *p, uint64_t cycles);
void prog_mem(program_t *p, uint64_t addr, const void *bytes, size_t n);
void prog_mem_fill(program_t *p, uint64_t addr, uint64_t size, uint8_t v);
void prog_check_crc(program_t *p, uint64_t addr, uint64_t size, uint32_t crc);
/* Memory at addr must equal bytes[0..n) (copied); where (may be NULL): the place in the stimulus' terms. */
void prog_check_mem(program_t *p, uint64_t addr, const void *bytes, size_t n, const char *where);
void prog_check_golden(program_t *p);
void prog_skip(program_t *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Native trace format. Parse returns 0, or -1 with "file:line: message" in err. */
int trace_read(program_t *p, const char *path, char *err, size_t errlen);
void trace_write(const program_t *p, FILE *f);
#endif
