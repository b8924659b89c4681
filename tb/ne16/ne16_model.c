/* NE16 control-plane reference model: spec ne16.md 1.2 (PSLVERR cases), 2.1 (read values), 2.3 (queue). */
#include "ne16_model.h"
#include <string.h>

void ne16_model_reset(ne16_model_t *m) { memset(m, 0, sizeof *m); }

static bool is_job_reg(uint32_t off) { return off >= NE16_JOB_REG_BASE && off <= 0x7C; }
static unsigned open_ctx(const ne16_model_t *m) { return (uint8_t)(m->next_id - 1) & 1u; }

uint32_t ne16_model_status(const ne16_model_t *m)
{
    uint32_t s = 0;
    for (unsigned i = 0; i < m->count; i++)
        s |= m->fifo[i].ctx ? NE16_STATUS_CTX1_BUSY_MASK : NE16_STATUS_CTX0_BUSY_MASK;
    return s;
}

bool ne16_model_startable(const ne16_model_t *m) { return !m->running && m->count > 0 && m->trig; }

/* PSLVERR cases of 1.2, in the order the reasons are most useful to a reader. */
static const char *error_of(const ne16_model_t *m, bool write, uint32_t addr, uint8_t strb)
{
    const uint32_t off = addr & 0xFFu;
    if (addr & 3u) return "PADDR[1:0] != 0";
    if (off >= 0x80) return "offset 0x80-0xFF is unmapped";
    if (!write) return NULL;
    switch (off) {
    case NE16_REG_ACQUIRE:
    case NE16_REG_FINISHED_JOBS:
    case NE16_REG_STATUS:
    case NE16_REG_RUNNING_JOB:
    case NE16_REG_JOB_ERROR: return "write to a read-only register";
    case NE16_REG_TRIGGER:
    case NE16_REG_SOFT_CLEAR:
    case NE16_REG_SW_SYNC:
        if ((strb & 0xF) != 0xF) return "PSTRB != 4'b1111 on a command register";
        break;
    default: break;
    }
    if ((is_job_reg(off) || off == NE16_REG_TRIGGER) && !m->open) return "no ACQUIRE is open (D16)";
    return NULL;
}

static uint32_t read_value(ne16_model_t *m, uint32_t off, ne16_pred_t *p)
{
    switch (off) {
    case NE16_REG_ACQUIRE:
        if (m->open) return NE16_ACQ_OPEN;
        if (m->count == 2) return NE16_ACQ_FULL;
        p->acquired = true;
        m->open = true;
        return m->next_id++;
    case NE16_REG_FINISHED_JOBS: return m->finished;
    case NE16_REG_STATUS: return ne16_model_status(m);
    case NE16_REG_RUNNING_JOB: return m->last_id;
    case NE16_REG_JOB_ERROR: return m->job_error;
    default:
        if (is_job_reg(off)) return m->ctx[m->open ? open_ctx(m) : (m->next_id & 1u)][(off - NE16_JOB_REG_BASE) / 4];
        return 0; /* write-only registers read 0 */
    }
}

static void commit(ne16_model_t *m, uint32_t data, ne16_pred_t *p)
{
    const bool waiting_untriggered = m->count > 0 && !m->trig;
    ne16_mjob_t *j = &m->fifo[m->count++];
    memset(j, 0, sizeof *j);
    j->id = (uint8_t)(m->next_id - 1);
    j->ctx = (uint8_t)open_ctx(m);
    memcpy(j->regs, m->ctx[j->ctx], sizeof j->regs);
    j->serial = m->serial++;
    m->open = false;
    if (data == 0 || waiting_untriggered) m->trig = true;
    p->committed = true;
}

static void soft_clear(ne16_model_t *m, uint32_t data, ne16_pred_t *p)
{
    p->cleared = true;
    p->naborted = m->count;
    memcpy(p->aborted, m->fifo, sizeof p->aborted);
    uint32_t keep[2][NE16_NUM_JOB_REGS];
    memcpy(keep, m->ctx, sizeof keep);
    const uint32_t serial = m->serial;
    ne16_model_reset(m);
    m->serial = serial;
    if (data != 0) memcpy(m->ctx, keep, sizeof keep);
}

void ne16_model_access(ne16_model_t *m, bool write, uint32_t addr, uint32_t data, uint8_t strb, ne16_pred_t *p)
{
    memset(p, 0, sizeof *p);
    const uint32_t off = addr & 0xFFu;
    p->why = error_of(m, write, addr, strb);
    p->slverr = p->why != NULL;
    if (p->slverr) return;
    if (!write) {
        p->rdata = read_value(m, off, p);
        return;
    }
    if (is_job_reg(off)) {
        uint32_t *r = &m->ctx[open_ctx(m)][(off - NE16_JOB_REG_BASE) / 4];
        for (unsigned b = 0; b < 4; b++)
            if (strb >> b & 1u) *r = (*r & ~(0xFFu << 8 * b)) | (data & 0xFFu << 8 * b);
        return;
    }
    switch (off) {
    case NE16_REG_TRIGGER: commit(m, data, p); break;
    case NE16_REG_SOFT_CLEAR: soft_clear(m, data, p); break;
    case NE16_REG_SW_SYNC:
        p->sw_sync = true;
        p->sw_evt = (uint8_t)(1u << (data & 7u));
        break;
    default: break;
    }
    p->triggered = m->trig;
}

ne16_mjob_t *ne16_model_next_triggered(ne16_model_t *m)
{
    if (!m->trig) return NULL;
    for (unsigned i = 0; i < m->count; i++)
        if (!m->fifo[i].ran) {
            m->fifo[i].ran = true;
            return &m->fifo[i];
        }
    return NULL;
}

const ne16_mjob_t *ne16_model_start(ne16_model_t *m, const char **why)
{
    *why = m->running      ? "a job is already running"
           : m->count == 0 ? "no job is committed"
           : !m->trig      ? "the committed job was not triggered (commit-only)"
                           : NULL;
    if (*why) return NULL;
    m->running = true;
    m->last_id = m->fifo[0].id;
    return &m->fifo[0];
}

int ne16_model_done(ne16_model_t *m, ne16_mjob_t *done)
{
    if (!m->running || m->count == 0) return -1;
    *done = m->fifo[0];
    m->fifo[0] = m->fifo[1];
    m->count--;
    m->running = false;
    m->finished++;
    if (done->code) m->job_error = NE16_JOB_ERROR_STICKY_MASK | (uint32_t)done->id << 8 | (uint32_t)done->code;
    if (m->count == 0) m->trig = false;
    return 0;
}

const char *ne16_reg_name_of(uint32_t off)
{
    static const char *const ctrl[8] = {"TRIGGER",     "ACQUIRE",    "FINISHED_JOBS", "STATUS",
                                        "RUNNING_JOB", "SOFT_CLEAR", "JOB_ERROR",     "SW_SYNC"};
    off &= 0xFFu;
    if (off & 3u || off >= 0x80) return NULL;
    return off < NE16_JOB_REG_BASE ? ctrl[off / 4] : ne16_job_reg_names[(off - NE16_JOB_REG_BASE) / 4];
}
