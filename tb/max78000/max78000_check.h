/* The MAX78000 scoreboard: per-run, per-layer comparison of the data-memory writes the RTL made (seen by
 * the write monitor in tb_max78000.sv) with the writes of the golden model's layers (dwritten), the final
 * memory image (RTL RAMs read through the back door) against the golden model's, stray writes, and the
 * optional conformance files (expected.txt, layerN.txt). Mismatches are reported with coordinates:
 * layer, quadrant, output channel, row, column, and memory/word/lane. */
#ifndef MAX78000_CHECK_H
#define MAX78000_CHECK_H
#include "max78000_golden.h"
#include "max78000_layer.h"
#include "max78000_trace.h"
#include "scoreboard.h"
#include "sim.h"
#include <stdbool.h>
#include <stdint.h>

#define M7_MAX_LAYERS_PER_RUN 32
#define M7_CONF_LAYERS 32

/* One data-memory word a layer wrote: memory g, word w, the lanes written and the word's value. */
typedef struct m7_wword {
    uint8_t g, lanes;
    uint16_t w;
    uint32_t value;
    uint64_t cycle; /* RTL: cycle of the last write */
} m7_wword_t;

typedef struct m7_wlist {
    m7_wword_t *v;
    size_t n, cap;
} m7_wlist_t;

typedef struct m7_glayer {
    unsigned y;
    max78000_lp_t lp[4]; /* the layer's parameters at run time (coordinates) */
    m7_wlist_t words;
} m7_glayer_t;

typedef struct m7_grun {
    unsigned nlayers;
    m7_glayer_t layer[M7_MAX_LAYERS_PER_RUN];
    uint64_t start_cycle;
} m7_grun_t;

/* Conformance files found next to the trace (shared/conformance/max78000/<net>/). */
typedef struct m7_conf {
    bool present;
    char dir[512];
    max78000_words_t expected;
    max78000_words_t layer[M7_CONF_LAYERS];
    unsigned nlayers;
} m7_conf_t;

typedef struct m7_check m7_check_t;

/* peek reads RTL data memory g word w (back door). */
typedef uint32_t (*m7_peek_fn)(void *user, unsigned g, unsigned w);

m7_check_t *m7_check_new(sim_t *sim, max78000_t *gold, m7_peek_fn peek, void *peek_user);
void m7_check_free(m7_check_t *c);
/* Sample every layer the golden model runs into `cov` (tb/max78000/max78000_cov.h); NULL stops. */
struct fcov;
void m7_check_set_cov(m7_check_t *c, struct fcov *cov);
int m7_check_load_conf(m7_check_t *c, const char *dir, char *err, size_t errlen);
const m7_conf_t *m7_check_conf(const m7_check_t *c);

/* Golden side: wrap each golden APB write; layers that run inside it are recorded as one run. */
void m7_check_golden_begin(m7_check_t *c);
void m7_check_golden_end(m7_check_t *c);
unsigned m7_check_pending_runs(const m7_check_t *c);
/* MACs and ideal engine cycles of the oldest run the RTL has not finished; false when none is queued. */
bool m7_check_next_run_work(const m7_check_t *c, uint64_t *macs, uint64_t *ideal);
/* The oldest run the RTL has not finished was stopped after layer last_done (spec 4, Stop [M2]): its golden
 * layers after that one are dropped, so an RTL write in them is a write the run should not have made. */
void m7_check_stop_run(m7_check_t *c, unsigned last_done);

/* RTL side: one monitored engine write; the end of an RTL run (busy fell). */
void m7_check_rtl_write(m7_check_t *c, unsigned g, unsigned w, uint32_t data, uint8_t be, unsigned layer,
                        uint64_t cycle);
void m7_check_rtl_run_end(m7_check_t *c);
/* Last engine write of the current RTL run (fault injection); false if none. */
bool m7_check_last_write(const m7_check_t *c, unsigned *g, unsigned *w, uint8_t *be, uint64_t *cycle);

/* OP_CHECK_GOLDEN: final image of everything the golden layers wrote since the previous call. */
void m7_check_golden_image(m7_check_t *c, scoreboard_t *sb);
/* Golden-only runs (+golden_only, no RTL): the golden model's first run against expected.txt (its layers were
 * compared with layerN.txt as they ran); drains the run queue. */
void m7_check_golden_only(m7_check_t *c);
uint64_t m7_check_runs_checked(const m7_check_t *c);
#endif
