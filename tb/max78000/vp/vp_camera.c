/* The camera path of the virtual platform (vp_camera.h), as the SDK's mnist-streaming drives it (main_riscv.c, the
 * board's camera.c, ov7692.c and sccb.c, PeriphDrivers' PT, CAMERAIF and UART):
 *
 * - PTG/PT0-3 (pulse-train generator, the sensor's XCLK): registers kept; PTG ENABLE bit n clears when PT n has
 *   sent LOOP.COUNT loops of its pattern (RATE_CONTROL PCLK cycles a bit, PCLK = core / 2); a count of 0 (a square
 *   wave) runs until stopped. A poll of ENABLE moves time on to the end of the train (camera_init's 300 ms start-up).
 * - OV7692 on SCCB: the board's sccb.c bit-bangs SCL/SDA on GPIO0 pins 30/31; the sensor is an I2C slave at 0x3C
 *   watching the lines after every GPIO0 write and driving SDA (ACK, read data) through GPIO0 IN. Its registers:
 *   the product and manufacturer IDs (0x7692, 0x7FA2), COM7 (0x12) whose reset bit 7 reads back 0 at once and
 *   forgets every written value, and what the firmware wrote. A read of any other register is an error.
 * - PCIF (camera interface): CTRL, INT_EN, DS_TIMING_CODES kept; READ_MODE set from 0 starts a frame, whose pixels
 *   come from the +fw_camera= PPM (binary P6, 8-bit RGB) as one FIFO word each (R | G << 8 | B << 16: the
 *   three-byte FIFO mode, the one modelled). The sensor's pixel timing is not modelled: the FIFO is topped up to
 *   CTRL.FIFO_THRSH words whenever it holds fewer, so the firmware never waits and never overflows. INT_FL:
 *   IMG_DONE (latched when the last pixel entered the FIFO, write 1 to clear), FIFO_THRESH, FIFO_NOT_EMPTY and
 *   FIFO_FULL (levels of the FIFO's count). FIFO_DATA pops a word; a read of an empty FIFO is an error.
 * - Push buttons (GPIO2 IN pins 6 and 7, active low): PB2 reads released; PB1 reads pressed until the firmware
 *   has printed `*** PASS ***` +fw_frames= times (one frame each, default 1), then released: a firmware that loops
 *   for ever (wait for PB1, capture, infer, print) ends when it polls PB1 released, as at the end of main; the
 *   checks decide the verdict. Each frame's further checks run at that poll: its classification lines
 *   (`[value] -> Class n: p%`) against the PPM's known answer, if its comment gives one, and UART1's image.
 * - UART1 (the image the example streams to a PC, utils_send_img_to_pc): bytes counted, checked against the frame
 *   (`*STR*`, width, height, format, length, pixels) and written to +fw_uart_bin= (default: beside +results=). */
#include "vp_camera.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum kind { K_STORE, K_W1C, K_PT_ENABLE, K_PCIF_CTRL, K_PCIF_INTFL, K_PCIF_FIFO, K_U_CTRL, K_U_STATUS, K_U_FIFO };

typedef struct reg {
    uint32_t addr;
    enum kind kind;
    const char *name;
} reg_t;

#define PT_REGS(n, a)                                                                   \
    {a, K_STORE, "MXC_PT" #n "->rate_length"}, {a + 4, K_STORE, "MXC_PT" #n "->train"}, \
        {a + 8, K_STORE, "MXC_PT" #n "->loop"},                                         \
    {                                                                                   \
        a + 12, K_STORE, "MXC_PT" #n "->restart"                                        \
    }
#define UART1 0x40043000u

/* The registers modelled (addresses: the SDK's max78000.h, ptg_regs.h, pt_regs.h, cameraif_regs.h, uart_regs.h). */
static const reg_t regs[] = {
    {0x4003C000u, K_PT_ENABLE, "MXC_PTG->enable"},
    {0x4003C004u, K_STORE, "MXC_PTG->resync"},
    {0x4003C008u, K_W1C, "MXC_PTG->intfl"},
    {0x4003C00Cu, K_STORE, "MXC_PTG->inten"},
    PT_REGS(0, 0x4003C020u),
    PT_REGS(1, 0x4003C040u),
    PT_REGS(2, 0x4003C060u),
    PT_REGS(3, 0x4003C080u),
    {0x4000E008u, K_PCIF_CTRL, "MXC_PCIF->ctrl"},
    {0x4000E00Cu, K_STORE, "MXC_PCIF->int_en"},
    {0x4000E010u, K_PCIF_INTFL, "MXC_PCIF->int_fl"},
    {0x4000E014u, K_STORE, "MXC_PCIF->ds_timing_codes"},
    {0x4000E030u, K_PCIF_FIFO, "MXC_PCIF->fifo_data"},
    {UART1 + 0x00, K_U_CTRL, "MXC_UART1->ctrl"},
    {UART1 + 0x04, K_U_STATUS, "MXC_UART1->status"},
    {UART1 + 0x08, K_STORE, "MXC_UART1->int_en"},
    {UART1 + 0x0C, K_W1C, "MXC_UART1->int_fl"},
    {UART1 + 0x10, K_STORE, "MXC_UART1->clkdiv"},
    {UART1 + 0x14, K_STORE, "MXC_UART1->osr"},
    {UART1 + 0x1C, K_STORE, "MXC_UART1->pnr"},
    {UART1 + 0x20, K_U_FIFO, "MXC_UART1->fifo"},
    {UART1 + 0x30, K_STORE, "MXC_UART1->dma"},
};
#define NREGS (sizeof regs / sizeof *regs)

/* The blocks this file owns; an address in one of them outside regs[] is an error naming the block. */
static const struct {
    uint32_t base, size;
    const char *name;
} blocks[] = {
    {0x4003C000u, 0xA0, "PTG"},    /* and PT0-3 */
    {0x4000E000u, 0x1000, "PCIF"}, /* */
    {UART1, 0x1000, "UART1"},      /* */
};

#define GPIO0_IN 0x40008024u
#define GPIO2_IN 0x40080424u
#define SCL_PIN 30u /* board.h (EvKit_V1): SCCB_SCL_PIN, SCCB_SDA_PIN on GPIO0 */
#define SDA_PIN 31u
#define PB1_PIN 6u /* board.c: pb_pin[] on GPIO2 */
#define PB2_PIN 7u
#define OV_ADDR 0x3Cu /* the OV7692's 7-bit SCCB address */
#define MAX_OUT 16

enum sccb { S_IDLE, S_ADDR, S_WRITE, S_READ, S_IGNORE };

struct vp_cam {
    vp_t *v;
    const char *without, *ppm, *uart1_path;
    uint64_t frames;
    uint32_t reg[NREGS];
    uint64_t pt_end[4]; /* cpu_t at which PT n's train ends; 0: runs until stopped */
    bool pt_seen[4];    /* a read has seen PT n running */
    /* the sensor */
    uint8_t sreg[256];
    bool sknown[256];
    int scl, sda, drive; /* line levels; the slave's SDA drive (1: released) */
    enum sccb st;
    unsigned nbit;
    uint8_t sh, ptr, out;
    bool rw, first, nack, ackclk;
    /* the frame */
    uint8_t *pix;
    unsigned w, h;
    int known[MAX_OUT], nknown, known_class;
    /* PCIF */
    bool capturing, img_done;
    size_t pos, count, head;
    uint32_t fifo[32];
    uint64_t captures;
    /* UART1 */
    FILE *u1;
    char u1def[512]; /* +results=<x>.json: <x>.uart1.bin */
    uint8_t *u1buf;
    size_t u1n, u1cap;
    uint64_t u1_total;
    /* frames and their results */
    unsigned passes, checked;
    int out_val[MAX_OUT];
    bool out_seen[MAX_OUT];
    bool ended;
};

static bool left_out(const vp_cam_t *c, const char *name) { return c->without && !strcmp(c->without, name); }

vp_cam_t *vp_cam_new(vp_t *v, const char *without)
{
    vp_cam_t *c = calloc(1, sizeof *c);
    if (!c) abort();
    c->v = v;
    c->without = without;
    c->ppm = sim_plusarg(v->sim, "fw_camera");
    c->frames = sim_plusarg_u64(v->sim, "fw_frames", 1);
    c->uart1_path = sim_plusarg(v->sim, "fw_uart_bin");
    const char *res = sim_plusarg(v->sim, "results");
    if ((!c->uart1_path || !*c->uart1_path) && res && *res) {
        size_t n = strlen(res);
        if (n > 5 && !strcmp(res + n - 5, ".json")) n -= 5;
        snprintf(c->u1def, sizeof c->u1def, "%.*s.uart1.bin", (int)n, res);
        c->uart1_path = c->u1def;
    }
    c->scl = c->sda = c->drive = 1; /* the bus's pull-ups */
    c->known_class = -1;
    return c;
}

void vp_cam_free(vp_cam_t *c)
{
    if (!c) return;
    if (c->u1) fclose(c->u1);
    free(c->u1buf);
    free(c->pix);
    free(c);
}

bool vp_cam_owns(const vp_cam_t *c, uint32_t addr)
{
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        if (addr - blocks[i].base < blocks[i].size) return !left_out(c, blocks[i].name);
    return false;
}

static size_t row(vp_cam_t *c, uint32_t addr, unsigned size, bool write)
{
    for (size_t i = 0; i < NREGS; i++)
        if (regs[i].addr == (addr & ~3u)) {
            if (size != 4) vp_fail(c->v, "%u-byte access to %s: only 4-byte accesses are modelled", size, regs[i].name);
            return i;
        }
    for (size_t i = 0; i < sizeof blocks / sizeof *blocks; i++)
        if (addr - blocks[i].base < blocks[i].size)
            vp_fail(c->v, "%u-byte %s of 0x%08x (MXC_%s+0x%x): no register of the %s model there (vp_camera.c)", size,
                    write ? "write" : "read", addr, blocks[i].name, addr - blocks[i].base, blocks[i].name);
    vp_fail(c->v, "0x%08x: not a camera-path register", addr);
}

/* ---- PT: pulse trains --------------------------------------------------------------------------------------- */
static uint32_t reg_at(vp_cam_t *c, uint32_t addr)
{
    for (size_t i = 0; i < NREGS; i++)
        if (regs[i].addr == addr) return c->reg[i];
    return 0;
}

static uint32_t pt_enable(vp_cam_t *c, uint32_t *en)
{
    vp_t *v = c->v;
    for (unsigned n = 0; n < 4; n++) {
        if (!(*en >> n & 1) || !c->pt_end[n]) continue;
        /* A poll waits for the train's end. Not the first read after the start: MXC_PT_Start waits for the bit to
         * read 1, and the running core's PC (poll detection) is that of its translated block, stale within it. */
        if (v->poll && c->pt_seen[n] && v->cpu_t < c->pt_end[n]) v->cpu_t = c->pt_end[n];
        c->pt_seen[n] = true;
        if (v->cpu_t >= c->pt_end[n]) *en &= ~(1u << n), c->pt_end[n] = 0;
    }
    return *en;
}

static void pt_start(vp_cam_t *c, unsigned n)
{
    uint32_t base = 0x4003C020u + 0x20u * n, rl = reg_at(c, base), loop = reg_at(c, base + 8) & 0xFFFFu;
    uint32_t rate = rl & 0x7FFFFFFu, mode = rl >> 27 & 0x1Fu, bits = mode == 0 ? 32 : mode == 1 ? 2 : mode;
    c->pt_end[n] = 0;
    c->pt_seen[n] = false;
    if (!loop) return; /* a loop count of 0: until stopped */
    if (!rate) vp_fail(c->v, "PT%u started with RATE_CONTROL 0 (MXC_PT%u->rate_length 0x%08x)", n, n, rl);
    c->pt_end[n] = c->v->cpu_t + 2ull * rate * bits * loop; /* PCLK = core clock / 2 */
}

/* ---- the OV7692 on SCCB ----------------------------------------------------------------------------------- */
static uint8_t sensor_read(vp_cam_t *c, uint8_t r)
{
    static const uint8_t ids[][2] = {{0x0A, 0x76}, {0x0B, 0x92}, {0x1C, 0x7F}, {0x1D, 0xA2}}; /* PIDH/L, MIDH/L */
    for (size_t i = 0; i < sizeof ids / sizeof *ids; i++)
        if (ids[i][0] == r) return ids[i][1];
    if (!c->sknown[r])
        vp_fail(c->v,
                "SCCB read of OV7692 register 0x%02x, which the sensor model has no value for (not an ID register, "
                "not written since the last reset)",
                r);
    return c->sreg[r];
}

static void sensor_write(vp_cam_t *c, uint8_t r, uint8_t val)
{
    if (r == 0x12 && (val & 0x80)) { /* COM7 reset: the registers return to their defaults (not modelled: unknown) */
        memset(c->sknown, 0, sizeof c->sknown);
        val &= 0x7F;
    }
    c->sreg[r] = val;
    c->sknown[r] = true;
}

/* Bits are sampled on SCL's rising edge; the sensor changes SDA only while SCL is low, on its falling edge:
 * after a byte's 8th bit (its acknowledge), after the acknowledge clock (release, or a read's next bit). */
static void sccb_rise(vp_cam_t *c, int sda)
{
    if (c->st != S_ADDR && c->st != S_WRITE && c->st != S_READ) return;
    if (c->nbit < 8) {
        if (c->st != S_READ) c->sh = (uint8_t)(c->sh << 1 | sda);
        c->nbit++;
    } else {
        c->ackclk = true;
        if (c->st == S_READ) c->nack = sda; /* the master's acknowledge of a byte read */
    }
}

static void sccb_fall(vp_cam_t *c)
{
    if (c->st == S_ADDR || c->st == S_WRITE) {
        if (c->nbit < 8) return;
        if (!c->ackclk && c->drive) { /* a byte in: acknowledge it (or not: another slave's address) */
            if (c->st == S_ADDR) {
                if ((c->sh >> 1) != OV_ADDR) c->st = S_IGNORE;
                else c->rw = c->sh & 1, c->drive = 0;
            } else {
                if (c->first) c->ptr = c->sh, c->first = false;
                else sensor_write(c, c->ptr, c->sh), c->ptr++;
                c->drive = 0;
            }
        } else if (c->ackclk) { /* the acknowledge clock ended */
            c->drive = 1, c->nbit = 0, c->sh = 0, c->ackclk = false;
            if (c->st == S_ADDR && c->rw) {
                c->st = S_READ;
                c->out = sensor_read(c, c->ptr);
                c->drive = c->out >> 7 & 1;
            } else c->st = S_WRITE;
        }
    } else if (c->st == S_READ) {
        if (c->nbit > 0 && c->nbit < 8) c->drive = c->out >> (7 - c->nbit) & 1;
        else if (c->nbit == 8 && !c->ackclk) c->drive = 1; /* released for the master's acknowledge */
        else if (c->nbit == 8 && c->nack) c->st = S_IGNORE, c->ackclk = false;
        else if (c->nbit == 8) {
            c->ptr++, c->out = sensor_read(c, c->ptr), c->nbit = 0, c->ackclk = false;
            c->drive = c->out >> 7 & 1;
        }
    }
}

void vp_cam_gpio0(vp_cam_t *c, uint32_t out, uint32_t outen)
{
    if (left_out(c, "OV7692")) return; /* nothing on the bus: every address is NACKed */
    int scl = !(outen >> SCL_PIN & 1) || (out >> SCL_PIN & 1), sdam = !(outen >> SDA_PIN & 1) || (out >> SDA_PIN & 1);
    int sda = sdam & c->drive;
    if (scl && c->scl && sda != c->sda) { /* SDA changes while SCL is high: a start or a stop condition */
        if (!sda) c->st = S_ADDR, c->nbit = 0, c->sh = 0, c->first = true, c->ackclk = false;
        else c->st = S_IDLE;
        c->drive = 1;
    } else if (scl && !c->scl) sccb_rise(c, sda);
    else if (!scl && c->scl) sccb_fall(c);
    c->scl = scl;
    c->sda = sdam & c->drive;
}

/* ---- the frame: a binary PPM --------------------------------------------------------------------------------- */
static int ppm_token(FILE *f, vp_cam_t *c)
{
    int ch, n = 0;
    while ((ch = fgetc(f)) != EOF) {
        if (ch == '#') { /* a comment; "# known answer: class K, outputs v0 v1 ..." is the frame's known answer */
            char line[512];
            if (!fgets(line, sizeof line, f)) break;
            const char *k = strstr(line, "known answer: class ");
            if (k) {
                int used = 0;
                const char *q = k + 20;
                if (sscanf(q, "%d, outputs%n", &c->known_class, &used) == 1 && used) {
                    q += used;
                    while (c->nknown < MAX_OUT && sscanf(q, "%d%n", &c->known[c->nknown], &used) == 1)
                        c->nknown++, q += used;
                }
            }
            continue;
        }
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            if (n) return n;
            continue;
        }
        if (ch < '0' || ch > '9') return -1;
        n = n * 10 + (ch - '0');
        int nx = fgetc(f);
        if (nx < '0' || nx > '9') return n; /* the single whitespace after maxval is consumed here */
        ungetc(nx, f);
    }
    return -1;
}

static void load_frame(vp_cam_t *c)
{
    vp_t *v = c->v;
    if (!c->ppm || !*c->ppm)
        vp_fail(v, "the camera captures a frame, but no +fw_camera=<binary PPM> was given (make run "
                   "FIRMWARE=<folder> makes one from the example's sampledata.h)");
    FILE *f = fopen(c->ppm, "rb");
    if (!f) vp_fail(v, "+fw_camera=%s: cannot read the file", c->ppm);
    char magic[3] = {0};
    int w = -1, h = -1, max = -1;
    if (fread(magic, 1, 2, f) == 2 && !strcmp(magic, "P6")) w = ppm_token(f, c), h = ppm_token(f, c);
    if (w > 0 && h > 0) max = ppm_token(f, c);
    if (w <= 0 || h <= 0 || w > 4096 || h > 4096 || max != 255) {
        fclose(f);
        vp_fail(v, "+fw_camera=%s:1: not a binary PPM (P6) with 8-bit samples (maxval 255) of at most 4096x4096",
                c->ppm);
    }
    c->w = (unsigned)w, c->h = (unsigned)h;
    c->pix = malloc(3u * c->w * c->h);
    if (!c->pix) abort();
    size_t got = fread(c->pix, 1, 3u * c->w * c->h, f);
    fclose(f);
    if (got != 3u * c->w * c->h)
        vp_fail(v, "+fw_camera=%s: %zu bytes of pixels, the header's %ux%u needs %u", c->ppm, got, c->w, c->h,
                3u * c->w * c->h);
}

/* ---- PCIF ------------------------------------------------------------------------------------------------------ */
static uint32_t pcif_thresh(vp_cam_t *c) { return reg_at(c, 0x4000E008u) >> 5 & 0x1Fu; }

static void pcif_fill(vp_cam_t *c)
{
    size_t want = pcif_thresh(c) ? pcif_thresh(c) : 1, npix = (size_t)c->w * c->h;
    while (c->capturing && c->count < want && c->pos < npix) {
        const uint8_t *p = c->pix + 3 * c->pos++;
        c->fifo[(c->head + c->count++) % 32] = p[0] | p[1] << 8 | (uint32_t)p[2] << 16;
    }
    if (c->capturing && c->pos == npix) c->capturing = false, c->img_done = true;
}

static void pcif_start(vp_cam_t *c, uint32_t ctrl)
{
    vp_t *v = c->v;
    if (!(ctrl >> 30 & 1) || (ctrl >> 16 & 1))
        vp_fail(v,
                "capture started with MXC_PCIF->ctrl 0x%08x: only the three-byte FIFO mode (THREE_CH_EN) without "
                "DMA (RX_DMA) is modelled",
                ctrl);
    if (!c->pix) load_frame(c);
    unsigned oh = (unsigned)c->sreg[0xCC] << 8 | c->sreg[0xCD], ov = (unsigned)c->sreg[0xCE] << 8 | c->sreg[0xCF];
    /* ov7692.c's set_framesize programs the output height + 1 */
    if (!c->sknown[0xCD] || !c->sknown[0xCF] || c->w != oh || c->h + 1 != ov)
        vp_fail(
            v,
            "+fw_camera=%s is %ux%u, the sensor's output size is %ux%u (OV7692 OH 0x%x, OV 0x%x - 1, as set_framesize "
            "writes them)",
            c->ppm, c->w, c->h, oh, ov ? ov - 1 : 0, oh, ov);
    c->capturing = true, c->img_done = false;
    c->pos = c->count = c->head = 0;
    c->captures++;
}

/* ---- UART1 and the frames' checks ---------------------------------------------------------------------------- */
static void uart1_byte(vp_cam_t *c, uint8_t b)
{
    if (c->u1n == c->u1cap) {
        c->u1cap = c->u1cap ? 2 * c->u1cap : 4096;
        if (!(c->u1buf = realloc(c->u1buf, c->u1cap))) abort();
    }
    c->u1buf[c->u1n++] = b;
    c->u1_total++;
}

/* The image message of utils_send_img_to_pc: "*STR*", width, height (16 bits, big-endian), the format's length and
 * name, the image's length (32 bits), the pixels; they must be the frame's. */
static void check_uart1(vp_cam_t *c, unsigned frame)
{
    vp_t *v = c->v;
    const uint8_t *b = c->u1buf;
    size_t n = c->u1n, fl = n > 9 ? b[9] : 0, at = 10 + fl + 4;
    uint32_t w = n > 8 ? (uint32_t)b[5] << 8 | b[6] : 0, h = n > 8 ? (uint32_t)b[7] << 8 | b[8] : 0;
    uint32_t len = n >= at ? (uint32_t)b[at - 4] << 24 | (uint32_t)b[at - 3] << 16 | b[at - 2] << 8 | b[at - 1] : 0;
    if (n < at || memcmp(b, "*STR*", 5) || w != c->w || h != c->h || fl != 6 || memcmp(b + 10, "RGB888", 6) ||
        len != 3 * w * h || n != at + len)
        vp_fail(v,
                "frame %u: UART1 sent %zu bytes, not one image message of the %ux%u frame (*STR*, width, height, "
                "RGB888, length %u, pixels)",
                frame, n, c->w, c->h, 3 * c->w * c->h);
    if (memcmp(b + at, c->pix, len))
        vp_fail(v, "frame %u: the image the firmware sent on UART1 differs from the camera's frame %s", frame, c->ppm);
    if (c->uart1_path && *c->uart1_path && !c->u1 && !(c->u1 = fopen(c->uart1_path, "wb")))
        vp_fail(v, "+fw_uart_bin=%s: cannot write the file", c->uart1_path);
    if (c->u1 && fwrite(b, 1, n, c->u1) != n) vp_fail(v, "+fw_uart_bin=%s: write failed", c->uart1_path);
    sim_note(v->sim,
             "firmware UART1: frame %u: %zu bytes, the image message (*STR*, %ux%u RGB888, %u bytes) equals "
             "the camera's frame%s%s",
             frame, n, w, h, len, c->u1 ? "; written to " : "", c->u1 ? c->uart1_path : "");
    sim_count_check(v->sim);
    c->u1n = 0;
}

/* A frame's results, checked when the firmware polls PB1 after printing them. */
static void check_frame(vp_cam_t *c)
{
    vp_t *v = c->v;
    unsigned frame = ++c->checked;
    int best = -1, nout = 0;
    for (int i = 0; i < MAX_OUT && c->out_seen[i]; i++, nout++)
        if (best < 0 || c->out_val[i] > c->out_val[best]) best = i;
    if (c->u1n || c->captures) check_uart1(c, frame);
    if (c->known_class >= 0) {
        if (best < 0) vp_fail(v, "frame %u: the firmware printed no classification ([value] -> Class n: p%%)", frame);
        for (int i = 0; i < c->nknown; i++)
            if (i >= nout || c->out_val[i] != c->known[i])
                vp_fail(v, "frame %u: the firmware printed output %d of class %d, the known answer of %s is %d", frame,
                        i < nout ? c->out_val[i] : 0, i, c->ppm, c->known[i]);
        if (best != c->known_class)
            vp_fail(v, "frame %u: the firmware classified the frame as class %d, the known answer of %s is class %d",
                    frame, best, c->ppm, c->known_class);
        sim_count_check(v->sim);
    }
    if (best >= 0)
        sim_note(v->sim, "firmware: frame %u classified as class %d (output %d)%s", frame, best, c->out_val[best],
                 c->known_class >= 0 ? ": the known answer of the camera's frame (its outputs too)" : "");
    memset(c->out_seen, 0, sizeof c->out_seen);
}

void vp_cam_line(vp_cam_t *c, const char *line, size_t n)
{
    char buf[256];
    int val, cls, a, b;
    snprintf(buf, sizeof buf, "%.*s", (int)n, line);
    if (strstr(buf, "*** PASS ***")) c->passes++;
    if (sscanf(buf, " [%d] -> Class %d: %d.%d%%", &val, &cls, &a, &b) == 4 && cls >= 0 && cls < MAX_OUT)
        c->out_val[cls] = val, c->out_seen[cls] = true;
}

static uint32_t push_buttons(vp_cam_t *c, uint32_t v)
{
    vp_t *vp = c->v;
    if (c->ended) return v | 1u << PB1_PIN | 1u << PB2_PIN;
    if (!c->frames) vp_fail(vp, "+fw_frames=0: the firmware waits for PB1, and a run of no frame would check nothing");
    while (c->checked < c->passes) check_frame(c);
    bool pressed = c->passes < c->frames;
    if (!pressed) {
        sim_note(vp->sim,
                 "firmware: the run ends: the firmware polls PB1, released after %u frame(s) (+fw_frames=%llu), "
                 "%llu captured; UART1 sent %llu bytes",
                 c->passes, (unsigned long long)c->frames, (unsigned long long)c->captures,
                 (unsigned long long)c->u1_total);
        c->ended = true;
        vp->exited = true; /* the end of the firmware: vp_map.c stops the running core */
        vp->exit_status = 0;
    }
    return (v | 1u << PB1_PIN | 1u << PB2_PIN) & ~(pressed ? 1u << PB1_PIN : 0);
}

uint32_t vp_cam_pins(vp_cam_t *c, uint32_t addr, uint32_t v)
{
    if (addr == GPIO0_IN)
        return (v & ~(1u << SCL_PIN | 1u << SDA_PIN)) | (uint32_t)c->scl << SCL_PIN | (uint32_t)c->sda << SDA_PIN;
    if (addr == GPIO2_IN) return push_buttons(c, v);
    return v;
}

/* ---- the register accesses ------------------------------------------------------------------------------------ */
uint32_t vp_cam_read(vp_cam_t *c, uint32_t addr, unsigned size)
{
    size_t i = row(c, addr, size, false);
    uint32_t *r = &c->reg[i];
    switch (regs[i].kind) {
    case K_PT_ENABLE: return pt_enable(c, r);
    case K_PCIF_INTFL:
        pcif_fill(c);
        return (c->img_done ? 1u : 0) | (c->count == 32 ? 2u : 0) | (c->count >= pcif_thresh(c) ? 4u : 0) |
               (c->count ? 8u : 0);
    case K_PCIF_FIFO: {
        pcif_fill(c);
        if (!c->count) vp_fail(c->v, "read of MXC_PCIF->fifo_data with the camera FIFO empty");
        uint32_t w = c->fifo[c->head];
        c->head = (c->head + 1) % 32, c->count--;
        return w;
    }
    case K_U_CTRL: return *r | 1u << 19;       /* BCLKRDY */
    case K_U_STATUS: return 1u << 4 | 1u << 6; /* RX and TX FIFOs empty */
    case K_U_FIFO: vp_fail(c->v, "read of MXC_UART1->fifo: UART1's receiver is not modelled");
    default: return *r;
    }
}

void vp_cam_write(vp_cam_t *c, uint32_t addr, unsigned size, uint32_t value)
{
    size_t i = row(c, addr, size, true);
    uint32_t *r = &c->reg[i], old = *r;
    switch (regs[i].kind) {
    case K_W1C: *r &= ~value; return;
    case K_PT_ENABLE:
        pt_enable(c, r);
        old = *r;
        *r = value & 0xFu;
        for (unsigned n = 0; n < 4; n++)
            if ((*r & ~old) >> n & 1) pt_start(c, n);
        return;
    case K_PCIF_CTRL:
        *r = value;
        if (!(old & 3u) && (value & 3u)) pcif_start(c, value);
        if (!(value & 3u)) c->capturing = false;
        return;
    case K_PCIF_INTFL:
        if (value & 1u) c->img_done = false; /* the other flags are the FIFO's levels */
        return;
    case K_PCIF_FIFO: vp_fail(c->v, "write of 0x%x to MXC_PCIF->fifo_data, a receive FIFO", value);
    case K_U_FIFO: uart1_byte(c, (uint8_t)value); return;
    case K_U_STATUS: vp_fail(c->v, "write of 0x%x to MXC_UART1->status, a read-only register", value);
    default: *r = value; return;
    }
}
