/* nv_full SDP's Y (EW) LUT at INT (golden/nvdla/sdp_lut.c) and the table choice CDP shares (nv_lut_select.h), on
 * values worked by hand from the RTL's table store (NV_NVDLA_SDP_reg.v, NV_NVDLA_SDP_CORE_Y_lut.v) and cmod's
 * hls/sdp/sdp_y_idx.cpp, sdp_y_inp.cpp and hls_wrapper/sdp_hls_wrapper.cpp: sdp_random_lut's prediction shares the
 * model's arithmetic, so these pin each rule independently of both. */
#include "nv_lut_select.h"
#include "sdp_lut.h"
#include "unit.h"
#include <string.h>

enum { WRITE = 1u << 17, LO = 1u << 16 };

static void test_store(unit_t *u)
{
    sdp_lut_t t;
    memset(&t, 0, sizeof t);
    sdp_lut_cfg_write(&t, WRITE | 63);
    sdp_lut_data_write(&t, 0x11111), sdp_lut_data_write(&t, 0xFFFF), sdp_lut_data_write(&t, 7);
    CHECK_EQ(t.le[63], 0x1111);       /* the data's low 16 bits */
    CHECK_EQ(t.le[64], (uint64_t)-1); /* signed */
    CHECK_EQ(t.addr, 66);             /* the pointer runs past the table: entry 65 is dropped */
    sdp_lut_cfg_write(&t, WRITE | LO | 1023);
    sdp_lut_data_write(&t, 5), sdp_lut_data_write(&t, 6);
    CHECK_EQ(t.lo[0], 6);          /* 1023 is dropped, the 10-bit pointer wraps to 0 */
    sdp_lut_cfg_write(&t, LO | 0); /* ACCESS_TYPE read: a data write stores nothing but advances */
    sdp_lut_data_write(&t, 9);
    CHECK_EQ(t.lo[0], 6);
    CHECK_EQ(t.addr, 1);
    sdp_lut_data_read(&t);
    CHECK_EQ(t.addr, 2);
}

/* A table whose entry i is 10 i (LE) or -i (LO), both linear with select 0 and the given starts. */
static void ramp(sdp_lut_t *t, sdp_lut_cfg_t *c)
{
    memset(t, 0, sizeof *t);
    for (int i = 0; i < SDP_LUT_LE_N; i++) t->le[i] = (int16_t)(10 * i);
    for (int i = 0; i < SDP_LUT_LO_N; i++) t->lo[i] = (int16_t)-i;
    *c = (sdp_lut_cfg_t){.le_linear = true,
                         .le_start = 0,
                         .le_end = 64,
                         .lo_start = -100,
                         .lo_end = 156,
                         .slopes.le_uflow_scale = 1,
                         .slopes.le_oflow_scale = 1,
                         .slopes.lo_uflow_scale = 1,
                         .slopes.lo_oflow_scale = 1};
}

static void test_interp(unit_t *u)
{
    sdp_lut_t t;
    sdp_lut_cfg_t c;
    ramp(&t, &c);
    c.le_index_select = 2, c.lo_start = 1000;   /* LO underflows below 1000: LE answers alone */
    CHECK_EQ(sdp_lut_int(&c, &t, 9, NULL), 23); /* index 2, fraction 1/4: 20 + 10 / 4 = 22.5, half away from zero */
    t.le[2] = 0, t.le[3] = 2;
    CHECK_EQ(sdp_lut_int(&c, &t, 9, NULL), 1); /* 0.5: half away from zero */
    t.le[3] = -2;
    CHECK_EQ(sdp_lut_int(&c, &t, 9, NULL), (uint64_t)-1);
    c.le_linear = false, c.le_index_offset = 2, t.le[1] = 10, t.le[2] = 20;
    CHECK_EQ(sdp_lut_int(&c, &t, 12, NULL), 15); /* exponent: log2(12) = 3, index 1, fraction (12 - 8) / 8 */
}

static void test_flow(unit_t *u)
{
    sdp_lut_t t;
    sdp_lut_cfg_t c;
    ramp(&t, &c);
    c.lo_start = 1000, c.le_linear = false, c.le_index_offset = 2, t.le[0] = 50;
    c.slopes.le_uflow_scale = 8, c.slopes.le_uflow_shift = 2;
    CHECK_EQ(sdp_lut_int(&c, &t, 3, NULL), 48); /* log2(3) = 1 < 2: under; 50 + ((3 - (0 + 2^2)) * 8 >> 2) */
    CHECK_EQ(sdp_lut_int(&c, &t, 0, NULL), 42); /* x == start underflows */
    CHECK_EQ(sdp_lut_int(&c, &t, 6, NULL), 30); /* log2(6) = 2 = offset: a hit, index 0, fraction 1/2: (50 + 10) / 2 */
    c.le_index_offset = -1;
    CHECK_EQ(sdp_lut_int(&c, &t, -3, NULL), 44); /* no bias for an offset <= 0: 50 + (-3 * 8 >> 2) */
    c.le_linear = true, c.le_end = 60, c.slopes.le_oflow_scale = 1;
    sdp_lut_out_t o;
    CHECK_EQ(sdp_lut_int(&c, &t, 64, &o), 644); /* index 64, the last entry: over, le[64] + (64 - LE_END) */
    CHECK_EQ(o.le, NV_LUT_OFLOW);
    c.slopes.le_oflow_scale = 3, c.slopes.le_oflow_shift = -2, c.le_end = 64;
    CHECK_EQ(sdp_lut_int(&c, &t, 70, NULL), 640 + 72); /* over: le[64] + ((70 - 64) * 3 << 2) */
    c.slopes.le_oflow_shift = 1;
    CHECK_EQ(sdp_lut_int(&c, &t, 65, NULL), 642); /* 3 / 2 = 1.5 -> 2 */
    c.slopes.le_oflow_scale = 32767, c.slopes.le_oflow_shift = -16;
    CHECK_EQ(sdp_lut_int(&c, &t, INT32_MAX, NULL), INT32_MAX); /* the slope and the sum saturate to 32 bits */
}

static void test_priorities(unit_t *u)
{
    sdp_lut_t t;
    sdp_lut_cfg_t c;
    ramp(&t, &c); /* LE hits 1..63, LO hits -99..155 */
    sdp_lut_out_t o;
    CHECK_EQ(sdp_lut_int(&c, &t, 0, &o), (uint64_t)-100); /* x == LE start: LE under, LO hits: LO (not hybrid's LE) */
    CHECK_EQ(o.le, NV_LUT_UFLOW);
    CHECK_EQ(sdp_lut_int(&c, &t, 10, &o), 100); /* both hit, hybrid 0: LE */
    CHECK_EQ(sdp_lut_outcome(&o), SDP_LUT_BOTH_LE);
    c.hybrid_lo = true;
    CHECK_EQ(sdp_lut_int(&c, &t, 10, &o), (uint64_t)-110); /* hybrid 1: LO index 110 */
    CHECK_EQ(sdp_lut_outcome(&o), SDP_LUT_BOTH_LO);
    CHECK_EQ(sdp_lut_int(&c, &t, 100, &o), (uint64_t)-200); /* LE over, LO hits: LO whatever the priorities */
    CHECK_EQ(sdp_lut_outcome(&o), SDP_LUT_LO_ONLY);
    c.lo_start = 30;
    CHECK_EQ(sdp_lut_int(&c, &t, 20, &o), 200); /* LO under, LE hits: LE */
    CHECK_EQ(sdp_lut_outcome(&o), SDP_LUT_LE_ONLY);
    c.lo_start = -100, c.uflow_lo = true;
    CHECK_EQ(sdp_lut_int(&c, &t, -200, &o), (uint64_t)-100); /* both under, priority LO: lo[0] + (-200 + 100) */
    CHECK_EQ(sdp_lut_outcome(&o), SDP_LUT_UFLOW_LO);
    c.uflow_lo = false;
    CHECK_EQ(sdp_lut_int(&c, &t, -200, &o), (uint64_t)-200); /* LE: le[0] + (-200 - 0) */
    c.oflow_lo = true;
    CHECK_EQ(sdp_lut_int(&c, &t, 1000, &o), (uint64_t)(-256 + 844)); /* both over, LO: lo[256] + (1000 - 156) */
    CHECK_EQ(sdp_lut_outcome(&o), SDP_LUT_OFLOW_LO);
    c.le_start = 500, c.hybrid_lo = false;                 /* x = 450: LE under, LO over: the hybrid priority */
    CHECK_EQ(sdp_lut_int(&c, &t, 450, &o), (uint64_t)-50); /* le[0] + (450 - 500) */
    CHECK_EQ(sdp_lut_outcome(&o), SDP_LUT_MIXED_LE);
}

/* The shared choice, every case: CDP's nv_small rule (spec §4.5) written out as a table. */
static void test_select(unit_t *u)
{
    enum { H = NV_LUT_HIT, U = NV_LUT_UFLOW, O = NV_LUT_OFLOW };
    static const struct {
        int le, lo;
        char who; /* 'L' LE, 'O' LO, 'u' uflow priority, 'o' oflow priority, 'h' hybrid priority */
    } rule[] = {{H, H, 'h'}, {H, U, 'L'}, {H, O, 'L'}, {U, H, 'O'}, {O, H, 'O'},
                {U, U, 'u'}, {O, O, 'o'}, {U, O, 'h'}, {O, U, 'h'}};
    for (size_t i = 0; i < sizeof rule / sizeof *rule; i++)
        for (unsigned p = 0; p < 8; p++) {
            const bool ul = p & 1, ol = p & 2, hl = p & 4;
            const bool want = rule[i].who == 'L'   ? false
                              : rule[i].who == 'O' ? true
                              : rule[i].who == 'u' ? ul
                              : rule[i].who == 'o' ? ol
                                                   : hl;
            CHECK_EQ(nv_lut_use_lo((nv_lut_state_t)rule[i].le, (nv_lut_state_t)rule[i].lo, ul, ol, hl), want);
        }
}

static void test_refusal(unit_t *u)
{
    sdp_lut_cfg_t c = {.le_linear = true, .le_index_select = 31, .lo_index_select = 0};
    CHECK(sdp_lut_refusal(&c) == NULL, "select 31");
    c.lo_index_select = -1;
    CHECK(sdp_lut_refusal(&c) != NULL, "a negative select");
    c = (sdp_lut_cfg_t){.le_linear = false, .le_index_select = -100, .le_index_offset = 32};
    CHECK(sdp_lut_refusal(&c) != NULL, "offset 32"); /* exponent: the select is unused, the offset's bias undefined */
    c.le_index_offset = -128;
    CHECK(sdp_lut_refusal(&c) == NULL, "offset -128");
}

int main(void)
{
    unit_t u = {.name = "test_nvdla_sdp_lut"};
    UNIT_RUN(&u, test_store);
    UNIT_RUN(&u, test_interp);
    UNIT_RUN(&u, test_flow);
    UNIT_RUN(&u, test_priorities);
    UNIT_RUN(&u, test_select);
    UNIT_RUN(&u, test_refusal);
    return unit_done(&u);
}
