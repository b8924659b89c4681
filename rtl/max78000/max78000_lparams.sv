// max78000_lparams: decodes one quadrant's layer-y registers into the parameters of spec 3.4/3.5
// (geometry D17/D19/D18, passes, slots D31, enables D36, output D25). Combinational; the engine
// latches the result at the start of each layer, so the dividers here are off the per-cycle path.
module max78000_lparams
  import max78000_pkg::*;
  import max78000_regs_pkg::*;
(
  input  logic [31:0] lr [16],     // RCNT .. POST of the layer
  input  logic [31:0] lctrl1,
  input  logic [31:0] ctrl,
  input  logic [31:0] fbuf,        // FBUF of this layer (0 beyond stream 7)
  input  logic [31:0] fbuf_next,   // FBUF of the next layer
  output lparams_t    p
);
  logic [31:0] rcnt, ccnt, oned, lc0, post, en, mcnt;
  logic        cpad_only, gpool, pool, oned_en;
  logic [3:0]  width;
  logic [15:0] mmax, span;
  logic [7:0]  x;
  logic [3:0]  qb;
  logic signed [12:0] hin, win, hp, wp, hout, wout, hup, wup;
  logic [8:0]  xpch;

  always_comb begin
    rcnt = lr[0]; ccnt = lr[1]; oned = lr[2]; lc0 = lr[11]; mcnt = lr[12]; en = lr[14]; post = lr[15];
    p = '0;
    cpad_only = lc0[LCTRL0_CPAD_ONLY_SHIFT];
    p.rpad = cpad_only ? 2'd0 : rcnt[17:16];
    p.cpad = ccnt[17:16];
    hin = 13'(rcnt[9:0]) + 13'sd1 - 13'(2 * p.rpad);
    win = 13'(ccnt[9:0]) + 13'sd1 - 13'(2 * p.cpad);
    gpool = ctrl[CTRL_POOL_EN_SHIFT];
    pool = gpool | lc0[LCTRL0_POOL_EN_SHIFT];
    p.maxpool = (gpool & ctrl[CTRL_CALCMAX_SHIFT]) | lc0[LCTRL0_MAXPL_EN_SHIFT];
    p.poolrnd = ctrl[CTRL_POOLRND_SHIFT];
    p.ph = pool ? 5'(lr[3][3:0]) + 5'd1 : 5'd1;
    p.pw = pool ? 5'(lr[4][3:0]) + 5'd1 : 5'd1;
    p.npool = 9'(p.ph) * 9'(p.pw);
    p.st = 5'(lr[5][3:0]) + 5'd1;
    // Deconvolution (3.5): rmax/cmax describe the 2x up-sampled plane; memory holds half of it, which is
    // what the pool phase reads (as its "input plane"); the taps see it up-sampled (h_up x w_up).
    p.deconv = post[POST_DECONV_EN_SHIFT];
    if (p.deconv) begin
      hin = hin >>> 1;
      win = win >>> 1;
    end
    hp = (hin >= 13'(p.ph)) ? (hin - 13'(p.ph)) / 13'(p.st) + 13'sd1 : 13'sd0;
    wp = (win >= 13'(p.pw)) ? (win - 13'(p.pw)) / 13'(p.st) + 13'sd1 : 13'sd0;
    hup = p.deconv ? 13'(rcnt[9:0]) + 13'sd1 - 13'(2 * p.rpad) : hp;
    wup = p.deconv ? 13'(ccnt[9:0]) + 13'sd1 - 13'(2 * p.cpad) : wp;
    // Element-wise and pass-through (3.11). Pass-through: timeslot writes (ts_en, no mask enabled) of a
    // 1x1 pass-through (onexone_en) or of an element-wise layer without convolution (ai8xize sets ts_en alone
    // there). It has no kernel and no padding: one output per pooled pixel, whatever ONED's width says.
    p.nop = oned[ONED_EWISE_EN_SHIFT] ? 5'(oned[21:18]) + 5'd1 : 5'd1;
    p.prepool = oned[ONED_EWISE_EN_SHIFT] & oned[ONED_PREPOOL_SHIFT];
    p.efunc = oned[15:14];
    p.passthru = post[POST_TS_EN_SHIFT] && en[31:16] == 16'd0
                 && (post[POST_ONEXONE_EN_SHIFT] || (oned[ONED_EWISE_EN_SHIFT] && !oned[ONED_CONV2D_EN_SHIFT]));
    if (p.passthru) begin p.rpad = 2'd0; p.cpad = 2'd0; end
    p.toff = lr[7][16:0];
    // Streaming circular buffers (2.4) with CTRL.stream_en and lilbuf
    p.roll = (ctrl[CTRL_STREAM_EN_SHIFT] && ctrl[CTRL_LILBUF_SHIFT]) ? fbuf[16:0] : 17'd0;
    p.roll_next = (ctrl[CTRL_STREAM_EN_SHIFT] && ctrl[CTRL_LILBUF_SHIFT]) ? fbuf_next[16:0] : 17'd0;
    oned_en = oned[ONED_ONED_EN_SHIFT];
    width = oned[11:8];
    if (p.passthru) begin
      p.t = 4'd1; p.kh = 4'd1; p.kw = 4'd1;
    end else if (oned_en) begin
      p.t = width; p.kh = width; p.kw = 4'd1;
    end else if (width == 4'd1) begin
      p.t = 4'd1; p.kh = 4'd1; p.kw = 4'd1;
    end else begin
      p.t = 4'd9; p.kh = 4'd3; p.kw = 4'd3;
    end
    p.osad = oned[7:4];
    hout = hup + 13'(2 * p.rpad) - 13'(p.kh) + 13'sd1;
    wout = wup + 13'(2 * p.cpad) - 13'(p.kw) + 13'sd1;
    p.h_in = hin[10:0]; p.w_in = win[10:0]; p.h_p = hp[10:0]; p.w_p = wp[10:0];
    p.h_up = hup[10:0]; p.w_up = wup[10:0];
    p.h_out = hout[10:0]; p.w_out = wout[10:0];
    case (post[23:22])
      2'd0: qb = 4'd8;
      2'd1: qb = 4'd1;
      2'd2: qb = 4'd2;
      default: qb = 4'd4;
    endcase
    p.qb = qb;
    x = {(post[POST_FLATTEN_EN_SHIFT] ? post[21:18] : 4'd0), lctrl1[3:0]};
    p.x = 9'(x) + 9'd1;
    p.msad = mcnt[31:16];
    mmax = mcnt[15:0];
    span = mmax - p.msad;
    p.nk = (mmax >= p.msad) ? 16'(((32'(span) / 32'(qb)) + 32'd1) / 32'(p.x)) : 16'd0;
    xpch = lctrl1[16:8];
    p.s = 10'(32'(xpch) / 32'(qb)) + 10'd1;
    p.chw = lc0[LCTRL0_PARALLEL_SHIFT] | ctrl[CTRL_BIGDATA_SHIFT];
    p.relu = lc0[LCTRL0_ACT_EN_SHIFT];
    p.oabs = post[POST_OUT_ABS_SHIFT];
    p.bigdwrt = lc0[LCTRL0_BIGDWRT_SHIFT];
    p.bias_en = post[POST_BPTR_EN_SHIFT];
    p.bsad = post[11:0];
    p.mask_en = en[31:16];
    p.pro_en = en[15:0];
    p.cnnsi = lc0[15:12];
    p.writes = (en[15:0] != 16'd0) || (lc0[15:12] != 4'd0);
    p.shift = post[POST_SCALE_SHFT_SHIFT] ? -6'(post[16:13]) : 6'(post[16:13]);
    p.wbase = lr[6][16:0];
    p.moff = lr[8][16:0];
    p.choff = lr[9][16:0];
    p.rptr = lr[10][12:0];
    p.inc1 = 5'(lctrl1[7:4]) + 5'd1;
    p.valid = hp > 0 && wp > 0 && hout > 0 && wout > 0 && p.t != 4'd0 && (p.nk != 16'd0 || p.passthru);
  end

  // Bits read only by other fields' decoders or stored-only (TPTR, TOFF, ewise, M3 controls).
  wire unused = ^{rcnt[31:18], rcnt[15:10], ccnt[31:18], ccnt[15:10], oned[31:22], oned[3:0], lc0[31:16],
                  lc0[10], lc0[5:0], post[31:29], post[27:26], post[17], lr[3][31:4], lr[4][31:4], lr[5][31:4], lr[6][31:17],
                  lr[7][31:17], lr[8][31:17], lr[9][31:17], lr[10][31:13], lr[13], lctrl1[31:17], ctrl, fbuf[31:17], fbuf_next[31:17]};
endmodule
