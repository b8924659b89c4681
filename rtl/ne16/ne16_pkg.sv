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
    c.qw = {1'b0, cf[CONFIG0_QWM1_LSB +: 3]} + 4'd1;
    c.mode16 = cf[CONFIG0_MODE16_LSB];
    c.streamout = cf[CONFIG0_STREAMOUT_LSB];
    c.filter_mode = cf[CONFIG0_FILTER_MODE_LSB +: 2];
    c.linear = cf[CONFIG0_LINEAR_LSB];
    c.strided = cf[CONFIG0_STRIDED_2X2_LSB] & ~c.linear;
    c.round = cf[CONFIG0_ROUND_LSB];
    c.norm_bits = cf[CONFIG0_NORM_BITS_LSB +: 2];
    c.streamin = cf[CONFIG0_STREAMIN_LSB];
    c.right_shift = cf[CONFIG0_RIGHT_SHIFT_LSB +: 5];
    c.quant_bits = cf[CONFIG0_QUANT_BITS_LSB +: 2];
    c.quant_rect = cf[CONFIG0_QUANT_RECT_LSB];
    c.norm_shift = cf[CONFIG0_NORM_SHIFT_LSB];
    c.norm_bias = cf[CONFIG0_NORM_BIAS_LSB];
    if (cf[CONFIG0_WEIGHT_OFFS_LSB]) c.wmin = {wo[31], wo[31], wo[7:0]};
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
  // verilator lint_on UNUSEDSIGNAL
endpackage
