// NE16 shared types: the decoded job configuration (spec ne16.md 2.2, 3.1) and the 6.2 legality check.
package ne16_pkg;
  import ne16_regs_pkg::*;

  localparam int unsigned NPORT = 9;         // lock-stepped 32-bit memory ports (D4)

  typedef struct packed {
    logic [31:0] weights, infeat, outfeat, scale, scale_shift, scale_bias;
    logic [31:0] in_d0, in_d1, out_d0, out_d1, out_d2, w_d0, w_d1, w_d2;
    logic [15:0] nb_ko, nb_ki, nb_ho, nb_wo;
    logic [15:0] rem_ko, rem_ki, rem_ho, rem_wo, rem_hi, rem_wi;
    logic [3:0]  pad_top, pad_right, pad_bottom, pad_left;
    logic [15:0] pad_value;
    logic [7:0]  mask_top, mask_right, mask_bottom, mask_left;
    logic [3:0]  qw;                          // 1..8
    logic        mode16, streamout, linear, strided, round, streamin, quant_rect, norm_shift, norm_bias;
    logic [1:0]  filter_mode, norm_bits, quant_bits;
    logic [4:0]  right_shift;
    logic signed [9:0] wmin;                  // D9
    logic        dw, is1x1;
    logic [5:0]  ko_sub;                      // 32 / 16
    logic [2:0]  f;                           // window side 5 / 3
    logic [2:0]  ob, sb;                      // bytes 1/2/4
    logic [5:0]  ki_full;                     // full Ki lanes: 16 bytes, linear 16/32 words
  } cfg_t;

  function automatic logic [2:0] bytes_of(input logic [1:0] code);
    return code == 2'd0 ? 3'd1 : code == 2'd1 ? 3'd2 : 3'd4;
  endfunction

  // The functions below read only some fields of their struct arguments.
  // verilator lint_off UNUSEDSIGNAL
  function automatic cfg_t decode(input job_regs_t r);
    cfg_t c;
    logic [31:0] cf, wo;
    cf = r[JOB_CONFIG0];
    wo = r[JOB_WEIGHT_OFFSET];
    c.weights = r[JOB_WEIGHTS_PTR];       c.infeat = r[JOB_INFEAT_PTR];
    c.outfeat = r[JOB_OUTFEAT_PTR];       c.scale = r[JOB_SCALE_PTR];
    c.scale_shift = r[JOB_SCALE_SHIFT_PTR]; c.scale_bias = r[JOB_SCALE_BIAS_PTR];
    c.in_d0 = r[JOB_INFEAT_D0_STRIDE];    c.in_d1 = r[JOB_INFEAT_D1_STRIDE];
    c.out_d0 = r[JOB_OUTFEAT_D0_STRIDE];  c.out_d1 = r[JOB_OUTFEAT_D1_STRIDE];
    c.out_d2 = r[JOB_OUTFEAT_D2_STRIDE];  c.w_d0 = r[JOB_WEIGHTS_D0_STRIDE];
    c.w_d1 = r[JOB_WEIGHTS_D1_STRIDE];    c.w_d2 = r[JOB_WEIGHTS_D2_STRIDE];
    c.rem_ko = r[JOB_SUBTILE_REM0][31:16]; c.rem_ki = r[JOB_SUBTILE_REM0][15:0];
    c.rem_ho = r[JOB_SUBTILE_REM1][31:16]; c.rem_wo = r[JOB_SUBTILE_REM1][15:0];
    c.rem_hi = r[JOB_SUBTILE_REM2][31:16]; c.rem_wi = r[JOB_SUBTILE_REM2][15:0];
    c.nb_ko = r[JOB_SUBTILE_NB0][31:16];  c.nb_ki = r[JOB_SUBTILE_NB0][15:0];
    c.nb_ho = r[JOB_SUBTILE_NB1][31:16];  c.nb_wo = r[JOB_SUBTILE_NB1][15:0];
    c.pad_top = r[JOB_PADDING][31:28];    c.pad_right = r[JOB_PADDING][27:24];
    c.pad_bottom = r[JOB_PADDING][23:20]; c.pad_left = r[JOB_PADDING][19:16];
    c.pad_value = r[JOB_PADDING][15:0];
    c.mask_top = r[JOB_FILTER_MASK][31:24];    c.mask_right = r[JOB_FILTER_MASK][23:16];
    c.mask_bottom = r[JOB_FILTER_MASK][15:8];  c.mask_left = r[JOB_FILTER_MASK][7:0];
    c.qw = {1'b0, cf[CONFIG0_QWM1_SHIFT +: 3]} + 4'd1;
    c.mode16 = cf[CONFIG0_MODE16_SHIFT];
    c.streamout = cf[CONFIG0_STREAMOUT_SHIFT];
    c.filter_mode = cf[CONFIG0_FILTER_MODE_SHIFT +: 2];
    c.linear = cf[CONFIG0_LINEAR_SHIFT];
    c.strided = cf[CONFIG0_STRIDED_2X2_SHIFT] & ~c.linear;
    c.round = cf[CONFIG0_ROUND_SHIFT];
    c.norm_bits = cf[CONFIG0_NORM_BITS_SHIFT +: 2];
    c.streamin = cf[CONFIG0_STREAMIN_SHIFT];
    c.right_shift = cf[CONFIG0_RIGHT_SHIFT_SHIFT +: 5];
    c.quant_bits = cf[CONFIG0_QUANT_BITS_SHIFT +: 2];
    c.quant_rect = cf[CONFIG0_QUANT_RECT_SHIFT];
    c.norm_shift = cf[CONFIG0_NORM_SHIFT_SHIFT];
    c.norm_bias = cf[CONFIG0_NORM_BIAS_SHIFT];
    if (cf[CONFIG0_WEIGHT_OFFS_SHIFT]) c.wmin = {wo[31], wo[31], wo[7:0]};
    else c.wmin = -(10'sd1 <<< (c.qw - 4'd1));
    c.dw = ~c.linear & (c.filter_mode == 2'd1);
    c.is1x1 = ~c.linear & (c.filter_mode == 2'd2);
    c.ko_sub = c.dw ? 6'd16 : 6'd32;
    c.f = c.is1x1 ? 3'd3 : 3'd5;
    c.ob = bytes_of(c.quant_bits);
    c.sb = bytes_of(c.norm_bits);
    c.ki_full = (c.linear && c.mode16) ? 6'd32 : 6'd16;
    return c;
  endfunction

  // 6.2: first failing code wins.
  function automatic logic [7:0] check(input cfg_t c);
    if (c.quant_bits == 2'd3) return 8'd1;
    if (c.streamout && c.norm_bits == 2'd3) return 8'd2;
    if (!c.linear && c.filter_mode == 2'd3) return 8'd3;
    if (c.nb_ko == 0 || c.nb_ho == 0 || c.nb_wo == 0 || (c.nb_ki == 0 && !c.dw)) return 8'd4;
    if (c.rem_ko > 16'(c.ko_sub)) return 8'd5;
    if (!c.dw && c.rem_ki > 16'(c.ki_full)) return 8'd5;
    if (!c.linear && (c.rem_ho > 3 || c.rem_wo > 3 || c.rem_hi > 16'(c.f) || c.rem_wi > 16'(c.f))) return 8'd5;
    if (c.streamin && c.quant_bits != 2'd2) return 8'd6;
    if (c.mode16 && c.dw) return 8'd7;
    return 8'd0;
  endfunction

  // Size of one (kom, im, jm, kim) iteration (4.1): channels of the Ko subtile, output and input window
  // extent, active Ki lanes. Every pipeline stage of the engine keeps its own loop indices and asks this.
  typedef struct packed {
    logic       last_ko, last_h, last_w, last_ki;
    logic [5:0] n_ko, lanes;
    logic [2:0] h_out, w_out, h_in, w_in;
  } geom_t;

  function automatic geom_t geom(input cfg_t c, input logic [15:0] kom, input logic [15:0] im,
                                 input logic [15:0] jm, input logic [15:0] kim);
    geom_t g;
    g.last_ko = kom == c.nb_ko - 16'd1;
    g.last_h  = im == c.nb_ho - 16'd1;
    g.last_w  = jm == c.nb_wo - 16'd1;
    g.last_ki = kim == (c.dw ? 16'd1 : c.nb_ki) - 16'd1;
    g.n_ko  = (g.last_ko && c.rem_ko != 0) ? c.rem_ko[5:0] : c.ko_sub;
    g.h_out = (g.last_h && c.rem_ho != 0) ? c.rem_ho[2:0] : 3'd3;
    g.w_out = (g.last_w && c.rem_wo != 0) ? c.rem_wo[2:0] : 3'd3;
    g.h_in  = (g.last_h && c.rem_hi != 0) ? c.rem_hi[2:0] : c.f;
    g.w_in  = (g.last_w && c.rem_wi != 0) ? c.rem_wi[2:0] : c.f;
    g.lanes = c.dw ? g.n_ko : ((g.last_ki && c.rem_ki != 0) ? c.rem_ki[5:0] : c.ki_full);
    return g;
  endfunction

  // Pixel p = 3i+j of an output subtile is computed and stored (4.1 "enabled pixels").
  function automatic logic pix_enabled(input cfg_t c, input logic [3:0] p, input logic [2:0] ho, input logic [2:0] wo);
    logic [1:0] i, j;
    i = p >= 4'd6 ? 2'd2 : p >= 4'd3 ? 2'd1 : 2'd0;
    j = 2'(p - 4'(3 * i));
    if (p >= 4'd9) return 1'b0;
    if (c.linear) return p == 4'd0;
    if (3'(i) >= ho || 3'(j) >= wo) return 1'b0;
    return !c.strided || ((i != 2'd1) && (j != 2'd1));
  endfunction

  // Byte address P of output pixel p of subtile (kom, im, jm) (3.3); streamin reads the same words (4.5).
  function automatic logic [31:0] pix_addr(input cfg_t c, input logic [15:0] kom, input logic [15:0] im,
                                           input logic [15:0] jm, input logic [3:0] p);
    logic [1:0] i, j;
    i = p >= 4'd6 ? 2'd2 : p >= 4'd3 ? 2'd1 : 2'd0;
    j = 2'(p - 4'(3 * i));
    return c.outfeat + 32'(kom) * 32'(c.ko_sub) * 32'(c.ob) + (32'(3 * 32'(im)) + 32'(i)) * c.out_d2 +
           (32'(3 * 32'(jm)) + 32'(j)) * c.out_d1;
  endfunction

  // Tap (fy, fx) of a 3x3 filter is masked by FILTER_MASK (4.3).
  function automatic logic tap_masked(input cfg_t c, input logic [1:0] fy, input logic [1:0] fx);
    return 8'(fy) < c.mask_top || 9'(fy) + 9'(c.mask_bottom) >= 9'd3 ||
           8'(fx) < c.mask_left || 9'(fx) + 9'(c.mask_right) >= 9'd3;
  endfunction

  // Normalisation/quantisation of one wrapped accumulator (4.4): exact product (D6), optional int32 bias
  // after an int32 wrap, shift with optional round-half-up (D5), clamp (D8). A function rather than a
  // module so that the engine evaluates it only in the cycles that store (simulation speed).
  function automatic logic [31:0] normquant(input cfg_t cf, input logic [31:0] acc, input logic [31:0] scale,
                                            input logic [31:0] bias, input logic [7:0] shift);
    logic signed [65:0] p, v, y, lo, hi, rnd;
    logic [31:0]        sum32, keep;
    logic [5:0]         sh, bits;
    bits = cf.ob == 3'd1 ? 6'd8 : cf.ob == 3'd2 ? 6'd16 : 6'd32;
    keep = cf.ob == 3'd1 ? 32'h0000_00FF : cf.ob == 3'd2 ? 32'h0000_FFFF : 32'hFFFF_FFFF;
    if (!cf.streamout) return acc & keep;
    p = $signed({{34{acc[31]}}, acc}) * $signed({34'd0, scale});
    sum32 = p[31:0] + bias;
    v = cf.norm_bias ? $signed({{34{sum32[31]}}, sum32}) : p;
    sh = cf.norm_shift ? shift[5:0] : {1'b0, cf.right_shift};
    rnd = (cf.round && sh != 6'd0) ? (66'sd1 <<< (sh - 6'd1)) : 66'sd0;
    y = (v + rnd) >>> sh;
    if (cf.quant_rect) begin
      lo = -(66'sd1 <<< (bits - 6'd1));
      hi = (66'sd1 <<< (bits - 6'd1)) - 66'sd1;
    end else begin
      lo = 66'sd0;
      hi = (66'sd1 <<< bits) - 66'sd1;
    end
    if (y < lo) y = lo;
    if (y > hi) y = hi;
    return y[31:0] & keep;
  endfunction

  // What a read brings back and where it goes (the engine's read-response routing, one per transaction).
  typedef enum logic [2:0] { T_X, T_W, T_SC, T_BI, T_SH, T_SIN } tkind_e;
  typedef struct packed {
    tkind_e     kind;
    logic [1:0] off;    // byte offset of the requested address in the 36-byte word
    logic [1:0] pad;    // T_X: 0 memory, 1 implicit zero, 2 explicit padding VALUE (4.2)
    logic       xb;     // T_X: window buffer
    logic [4:0] wb;     // T_W: ring plane of the segment's first plane
    logic signed [9:0] cpos;  // T_W: byte of the segment at the read's first byte (negative: before it)
    logic [5:0] idx;    // T_X: window entry; T_SC/T_BI: 32-byte chunk; T_SIN: output word
    logic [3:0] np;     // T_W: planes of the segment
    logic [3:0] pix;    // T_SIN: output pixel
    logic       last;   // T_X/T_W: the last read of its buffer fill
  } tag_t;
  // verilator lint_on UNUSEDSIGNAL
endpackage
