// max78000_engine: layer sequencer and datapath of the MAX78000 CNN (spec sections 3 and 4).
//
// All 64 processors work in parallel, one input channel each (max78000_proc). A layer runs in two phases,
// each a two-stage pipeline (stage 0: addresses, stage 1: the RAMs' registered data):
//  1. pool phase: for each pooled pixel (py,px) and input pass e, every processor pools its lane over the
//     window (dy,dx), one data-memory word per memory per step, and stores the pooled byte in the pooled-
//     plane buffer `pb` at (py*W_p + px)*X + e (one 64-byte row per window: all processors at once).
//     Each window is thus pooled once per layer instead of once per tap and output slot.
//  2. conv phase: per output slot K, output pixel (oy,ox) and input pass e, one step: pb's nine read ports
//     give every processor the pooled bytes of all taps (0 outside [0,H_p) x [0,W_p), spec 3.7), each
//     quadrant's MRAMs read the two words that hold the taps of (K, e) (D32: T slots from B0, which may
//     cross a word), each processor adds its tap products and each quadrant its 16 processors' sums.
//     On the last pass the writing quadrants' totals (own partial + bias + the partials of the quadrants
//     in cnnsi_en, D23, D35, D36) go to a write buffer that stores them in the order 3, 2, 1, 0 (quadrant
//     0 wins, D41) while the next pixel computes. A write that a lower quadrant's write of the same pixel
//     overwrites completely (same pointer, lanes covered) is skipped: nothing reads the data memories in
//     the conv phase, so it can never be seen. The pipeline stalls only when a pixel ends while more than
//     one write is still queued.
// The pool phase finishes its reads before the layer's first write, as D27's snapshot model assumes.
// Loop bounds (geometry, passes, slots) come from the lowest-numbered writing quadrant; every quadrant
// uses its own read pointer, CHW/HWC mode, weights, enables, bias and output registers.
// Limitations (M3): element-wise operands, pass-through, deconvolution, streaming/FIFO input. The pooled
// plane of a layer (H_p*W_p*X bytes per processor) must fit the buffer's PB_DEPTH rows, which hold any
// plane the data memories hold without word-address wrap-around (HWC: 8192 bytes; CHW: 32768).
// At most 9 taps: ONED.oned_width above 9 is undefined (D18).
module max78000_engine
  import max78000_pkg::*;
(
  input  logic        clk,
  input  logic        rst_n,
  // control
  input  logic        start,           // a start event (D42) of quadrant `start_q`
  input  logic [1:0]  start_q,
  input  logic [3:0]  cnn_en,          // CTRL.cnn_en of each quadrant (stop: master cleared)
  input  logic [4:0]  lcnt,            // LCNT_MAX of the master
  input  logic        oneshot,         // CTRL.oneshot of the master
  output logic [4:0]  layer,           // current layer: selects the registers decoded into lp_in
  input  lparams_t    lp_in [4],
  output logic        busy,
  output logic        done,            // one-cycle pulse: run (or oneshot layer) complete
  output logic [31:0] cycles,          // cycles of the last run
  // data memories: read port per memory, one shared write port
  output logic        dm_re,
  output logic [12:0] dm_raddr [16],
  input  logic [31:0] dm_rdata [16],
  output logic        dm_we,
  output logic [3:0]  dm_wg,
  output logic [12:0] dm_waddr,
  output logic [31:0] dm_wdata,
  output logic [3:0]  dm_wbe,
  // MRAM: two word addresses per quadrant (a kernel's taps may cross a word), 64 x 2 read data
  output logic        mr_re,
  output logic [11:0] mr_addr [4][2],
  input  logic [71:0] mr_rdata [64][2],
  // BRAM: one address per quadrant
  output logic        br_re,
  output logic [8:0]  br_addr [4],
  input  logic [7:0]  br_rdata [4],
  // FIFO input (D46): quadrants whose layer-0 input arrives through their FIFO, words delivered, IFRM
  input  logic [3:0]  fifo_feed,
  input  logic [19:0] fifo_cnt [4],
  input  logic [19:0] ifrm [4],
  // FIFO words for layer 0's logical input frame (streaming, 2.4): word fifo_cnt[k] of memory 4k
  input  logic [3:0]  fifo_lw,
  input  logic [31:0] fifo_data [4],
  // qupac with the fast FIFO (ai8xize --fast-fifo-quad): every quadrant holds layer 0's input and a quarter of
  // its kernels; local slot K of quadrant q goes to lane q of slot 4K's word (pass 4K / S, slot 4K % S + q; no
  // quadrant sums another's; docs/max78000.md)
  input  logic        quad
);
  typedef enum logic [3:0] { S_IDLE, S_INIT, S_POOL, S_PDRAIN, S_CONV, S_CDRAIN, S_LEND, S_DONE, S_PASS, S_PWR
  } state_e;
  state_e state;

  localparam int PBW = 16;             // pooled-plane buffer address width
  localparam int LW = 16;              // logical-frame words per memory and bank (streaming)
  localparam int PB_DEPTH = 1 << PBW;  // rows (bytes per processor), see the header

  lparams_t lp [4];
  lparams_t L;                          // lead quadrant's parameters (loop bounds)
  logic [1:0] lq, master;
  logic [4:0] next_layer;

  // loop counters. Pool phase: py, px, e, dy, dx (dx innermost), pwa = buffer row of (py, px, e).
  // Conv phase: K, oy, ox, e (e innermost); k = oy*W_out + ox, P/j = output pass/slot of K.
  logic [15:0] K, P;
  logic [9:0]  j;
  logic [10:0] oy, ox, py, px;
  logic [21:0] k;
  logic [8:0]  e;
  logic [4:0]  dy, dx, o;
  logic [PBW-1:0] pwa;

  logic stall;                          // conv stage 1 must hold: a pixel ends, the write buffer is full
  logic issue;                          // conv stage 0 steps

  // ---------------- pool phase, stage 0: data-memory addresses ----------------
  logic last_dx, last_dy, last_win, last_o, last_grp, last_e, last_px, last_py;
  logic [15:0] n;
  logic [12:0] word_q [4];
  logic [31:0] woff [4];                // word offset from RPTR_BASE
  // streaming logical frames (2.4): two banks per memory, written by layers y (bank y&1) and read by y+1
  logic [LW:0]  lg_raddr [16], lg_waddr [16];
  logic [31:0]  lg_rdata [16], lg_wdata [16];
  logic         lg_we [16];
  logic [3:0]   lg_wbe [16];
  logic [16:0]  lg_n [2][16];           // words in each bank of memory g (0: no logical frame)
  logic [15:0]  lg_use, lg_zero, lg_use1, lg_zero1;
  logic        pstall;                  // layer 0 waits for a FIFO word that has not arrived yet

  always_comb begin
    last_dx = dx == L.pw - 5'd1;
    last_dy = dy == L.ph - 5'd1;
    last_win = last_dx && last_dy;
    last_o = o == L.nop - 5'd1;
    last_grp = last_win && last_o;       // a pooled (and combined) value is complete
    last_e = e == L.x - 9'd1;
    last_px = px == L.w_p - 11'd1;
    last_py = py == L.h_p - 11'd1;
    n = 16'((32'(py) * 32'(L.st) + 32'(dy)) * 32'(L.w_in) + 32'(px) * 32'(L.st) + 32'(dx));
    pstall = 1'b0;
    for (int q = 0; q < 4; q++) begin
      // 3.2: HWC operands interleave per (pixel, pass); CHW words carry no operand index
      woff[q] = lp[q].chw ? 32'(n[15:2]) * 32'(L.x) + 32'(e) : (32'(n) * 32'(L.x) + 32'(e)) * 32'(L.nop) + 32'(o);
      // a circular input buffer (2.4) wraps at FBUF in memory; its logical frame is read when there is one
      word_q[q] = 13'(32'(lp[q].rptr) + (lp[q].roll != 17'd0 ? woff[q] % 32'(lp[q].roll) : woff[q]));
      if (fifo_feed[q] && layer == 5'd0 && woff[q] >= 32'(fifo_cnt[q]) && woff[q] < 32'(ifrm[q])) pstall = 1'b1;
    end
    for (int g = 0; g < 16; g++) begin
      lg_use[g] = lp[g / 4].roll != 17'd0 && lg_n[~layer[0]][g] != 17'd0;
      lg_zero[g] = woff[g / 4] >= 32'(lg_n[~layer[0]][g]);
      lg_raddr[g] = {~layer[0], woff[g / 4][LW-1:0]};
    end
    for (int g = 0; g < 16; g++) dm_raddr[g] = word_q[g / 4];
  end
  wire pstep = state == S_POOL && !pstall;
  logic fifo_wait;                      // a FIFO still owes layer 0 words (the golden model runs once all came)
  always_comb begin
    fifo_wait = 1'b0;
    for (int q = 0; q < 4; q++) if (fifo_feed[q] && layer == 5'd0 && fifo_cnt[q] < ifrm[q]) fifo_wait = 1'b1;
  end
  assign dm_re = pstep;

  // ---------------- pool phase, stage 1: pooling, buffer write ----------------
  logic           pv1, pfirst1, plast1, ofirst1, olast1;
  logic [1:0]     lane1;
  logic [PBW-1:0] pwa1;
  logic [511:0]   pb_wdata;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pv1 <= 1'b0; pfirst1 <= 1'b0; plast1 <= 1'b0; ofirst1 <= 1'b0; olast1 <= 1'b0; lane1 <= '0; pwa1 <= '0;
      lg_use1 <= '0; lg_zero1 <= '0;
    end else begin
      pv1 <= pstep;
      pfirst1 <= dx == 5'd0 && dy == 5'd0;
      plast1 <= last_win;
      ofirst1 <= o == 5'd0;
      lg_use1 <= lg_use;
      lg_zero1 <= lg_zero;
      olast1 <= last_o;
      lane1 <= n[1:0];
      pwa1 <= pwa;
    end
  end

  // ---------------- conv phase, stage 0: buffer and MRAM addresses ----------------
  logic [PBW-1:0] pb_raddr [9];
  logic [511:0]   pb_rdata [9];
  logic [8:0]     tval;                 // tap t exists and lies inside the pooled plane
  logic [3:0]     r0_q [4];             // slot of B0 (D32)
  logic [2:0]     bit_q [4];
  logic last_ox, last_oy, last_k;

  always_comb begin
    last_ox = ox == L.w_out - 11'd1;
    last_oy = oy == L.h_out - 11'd1;
    last_k = K == L.nk - 16'd1;
    for (int t = 0; t < 9; t++) begin
      logic [3:0] ky, kx;
      logic signed [12:0] iy, ix;
      ky = (L.kw == 4'd1) ? 4'(t) : 4'(t / 3);        // 1-D (T x 1) and 1x1, or 3x3 (D18)
      kx = (L.kw == 4'd1) ? 4'd0 : 4'(t % 3);
      iy = 13'(oy) + 13'(ky) - 13'(L.rpad);
      ix = 13'(ox) + 13'(kx) - 13'(L.cpad);
      // deconvolution: the up-sampled plane holds the stored pixels at even positions, zeros elsewhere
      tval[t] = 4'(t) < L.t && iy >= 0 && iy < 13'(L.h_up) && ix >= 0 && ix < 13'(L.w_up)
                && !(L.deconv && (iy[0] || ix[0]));
      if (L.deconv) begin iy = iy >>> 1; ix = ix >>> 1; end
      pb_raddr[t] = tval[t] ? PBW'((32'(iy) * 32'(L.w_p) + 32'(ix)) * 32'(L.x) + 32'(e)) : '0;
    end
    for (int q = 0; q < 4; q++) begin
      logic [31:0] a, b0, w0;
      a = 32'(lp[q].msad) + (32'(K) * 32'(L.x) + 32'(e)) * 32'(lp[q].qb);                 // D32
      b0 = (a >> 3) * 32'(L.t) + 32'(lp[q].osad);       // tap t is slot B0 + T-1-t
      w0 = b0 / 32'd9;
      mr_addr[q][0] = (w0 < 32'd4096) ? 12'(w0) : 12'hFFF;
      mr_addr[q][1] = (w0 + 32'd1 < 32'd4096) ? 12'(w0 + 32'd1) : 12'hFFF;
      r0_q[q] = 4'(b0 % 32'd9);
      bit_q[q] = a[2:0];
      br_addr[q] = 9'(32'(lp[q].bsad) + 32'(K));                                               // D26
    end
  end
  assign mr_re = issue;
  assign br_re = issue;

  max78000_ram_mr #(.DEPTH(PB_DEPTH), .NB(64), .NR(9), .AW(PBW)) u_pb (
    .clk, .rst_n, .re(issue || state == S_PASS), .raddr(pb_raddr), .rdata(pb_rdata),
    .we(pv1 && plast1 && olast1), .waddr(pwa1), .wdata(pb_wdata), .wbe({64{1'b1}})
  );

  // ---------------- conv phase, stage 1: products, partial sums ----------------
  logic        cv1, clast1;
  logic [8:0]  tval1;
  logic [3:0]  r01 [4];
  logic [2:0]  bit1 [4];
  logic [21:0] k1;
  logic [9:0]  j1;
  logic [15:0] P1, K1;
  logic signed [19:0] prod [64];
  logic signed [39:0] acc [4];
  logic signed [39:0] qsum [4];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cv1 <= 1'b0; clast1 <= 1'b0; tval1 <= '0; k1 <= '0; j1 <= '0; P1 <= '0; K1 <= '0;
      for (int q = 0; q < 4; q++) begin r01[q] <= '0; bit1[q] <= '0; end
    end else if (!stall) begin
      cv1 <= issue;
      clast1 <= last_e;
      tval1 <= tval;
      k1 <= k; j1 <= j; P1 <= P; K1 <= K;
      for (int q = 0; q < 4; q++) begin r01[q] <= r0_q[q]; bit1[q] <= bit_q[q]; end
    end
  end

  for (genvar p = 0; p < 64; p++) begin : g_proc
    localparam int Q = p / 16;
    localparam int I = p % 16;
    localparam int G = p / 4;
    logic [7:0] byte_in;
    logic [31:0] din;
    logic [7:0] x [9];
    logic [7:0] wbyte [9];
    logic signed [7:0] xp;
    always_comb begin
      din = !lg_use1[G] ? dm_rdata[G] : lg_zero1[G] ? 32'd0 : lg_rdata[G];
      byte_in = lp[Q].chw ? din[8*lane1 +: 8] : din[8*(p%4) +: 8];
      for (int t = 0; t < 9; t++) begin
        logic [4:0] off;
        off = 5'(r01[Q]) + 5'(L.t) - 5'd1 - 5'(t);      // slot of tap t counted from word B0/9
        x[t] = tval1[t] ? pb_rdata[t][8*p +: 8] : 8'd0;
        if (4'(t) >= L.t) wbyte[t] = 8'd0;
        else if (off < 5'd9) wbyte[t] = mr_rdata[p][0][8*off +: 8];
        else wbyte[t] = mr_rdata[p][1][8*(off - 5'd9) +: 8];
      end
    end
    assign pb_wdata[8*p +: 8] = xp;
    max78000_proc u_proc (
      .clk, .rst_n, .pvalid(pv1), .first(pfirst1), .val(byte_in),
      .maxpool(lp[Q].maxpool), .poolrnd(lp[Q].poolrnd), .npool(lp[Q].npool), .ofirst(ofirst1), .olast(olast1),
      .wlast(plast1), .prepool(L.prepool), .efunc(lp[Q].efunc), .xp,
      .cvalid(cv1), .x, .wbyte, .wbit(bit1[Q]), .qb(lp[Q].qb), .en(lp[Q].mask_en[I]), .prod(prod[p])
    );
  end

  always_comb
    for (int q = 0; q < 4; q++) begin
      qsum[q] = '0;
      for (int i = 0; i < 16; i++) qsum[q] = qsum[q] + 40'(prod[16*q + i]);
    end

  // ---------------- output: totals, write buffer ----------------
  logic signed [39:0] part [4];
  logic signed [39:0] total [4];
  logic [16:0] ptr [4];
  logic [31:0] woffs [4];               // offset from the write base (3.10), the logical-frame word
  logic [31:0] wdata [4];
  logic [3:0]  wbe [4];
  logic [3:0]  wnew;                    // quadrants whose write of the ending pixel is visible
  logic [3:0]  wb_pend, wb_left;
  logic [16:0] wb_ptr [4];
  logic [LW-1:0] wb_off [4];
  logic [3:0]  wb_lw;
  logic [31:0] wb_data [4];
  logic [3:0]  wb_be [4];
  logic [1:0]  ws;
  logic [15:0] Pq [4];                  // output pass and slot of each quadrant's value (differ only with quad)
  logic [9:0]  jq [4];

  always_comb begin
    for (int q = 0; q < 4; q++) begin
      logic [31:0] g;
      g = 32'd4 * 32'(K1);
      Pq[q] = (quad && layer == 5'd0) ? 16'(g / 32'(L.s)) : P1;
      jq[q] = (quad && layer == 5'd0) ? 10'(g % 32'(L.s) + 32'(q)) : j1;
    end
    for (int q = 0; q < 4; q++)
      part[q] = acc[q] + qsum[q] + (lp[q].bias_en ? 40'($signed(br_rdata[q])) * 40'sd128 : 40'sd0);  // D35
    for (int q = 0; q < 4; q++) begin
      total[q] = part[q];
      for (int t = 0; t < 4; t++)
        if (t != q && lp[q].cnnsi[t]) total[q] = total[q] + part[t];                              // D23
      if (lp[q].bigdwrt)                                                                           // D40
        woffs[q] = 32'd4 * 32'(k1) * 32'(lp[q].inc1) + 32'(Pq[q]) * 32'(lp[q].choff) + 32'(jq[q][1:0]);
      else
        woffs[q] = 32'(k1) * 32'(lp[q].inc1) + 32'(Pq[q]) * 32'(lp[q].choff);
      ptr[q] = wptr(17'(32'(lp[q].wbase) + 32'(jq[q][9:2]) * 32'(lp[q].moff)), woffs[q], lp[q].roll_next);
      wdata[q] = lp[q].bigdwrt ? total[q][31:0]                                                   // D38
                               : {4{out_stage(total[q], lp[q].shift, lp[q].oabs, lp[q].relu)}};
      wbe[q] = lp[q].bigdwrt ? 4'hF : 4'(1 << jq[q][1:0]);
    end
    // D41: a lower writing quadrant stores later; a write it fully overwrites is dropped.
    for (int q = 0; q < 4; q++) begin
      wnew[q] = lp[q].writes;
      for (int u = 0; u < q; u++)
        if (lp[u].writes && ptr[u] == ptr[q] && (wbe[q] & ~wbe[u]) == 4'd0) wnew[q] = 1'b0;
    end
    // the buffer stores its highest pending quadrant this cycle
    ws = 2'd0;
    for (int q = 0; q < 4; q++) if (wb_pend[q]) ws = 2'(q);
    wb_left = wb_pend & ~(4'd1 << ws);
    stall = cv1 && clast1 && wb_left != 4'd0;
    dm_we = wb_pend != 4'd0;
    dm_wg = wb_ptr[ws][16:13];
    dm_waddr = wb_ptr[ws][12:0];
    dm_wdata = wb_data[ws];
    dm_wbe = wb_be[ws];
    lw = wb_lw[ws];
    loff = wb_off[ws];
    if (state == S_PWR) begin          // the conv write buffer is empty in pass-through layers
      dm_we = pt_pend != 16'd0;
      dm_wg = pt_ptr[16:13];
      dm_waddr = pt_ptr[12:0];
      dm_wdata = pt_data;
      dm_wbe = pt_be;
      lw = lp[pt_g[3:2]].roll_next != 17'd0;
      loff = pt_off[LW-1:0];
    end
  end

  // the logical frame of a layer whose writes wrap (streaming), and FIFO words for layer 0's
  always_comb begin
    for (int g = 0; g < 16; g++) begin
      lg_we[g] = dm_we && lw && dm_wg == 4'(g);
      lg_waddr[g] = {layer[0], loff};
      lg_wdata[g] = dm_wdata;
      lg_wbe[g] = dm_wbe;
      if (g % 4 == 0 && fifo_lw[g / 4]) begin     // the drain never writes a memory the engine writes
        lg_we[g] = 1'b1;
        lg_waddr[g] = {1'b1, fifo_cnt[g / 4][LW-1:0]};
        lg_wdata[g] = fifo_data[g / 4];
        lg_wbe[g] = 4'hF;
      end
    end
  end

  // Physical write pointer (3.10): base + offset; when the next layer reads a circular buffer (2.4) the
  // offset wraps at its FBUF inside the base's memory (ai8x-synthesis apbaccess.py).
  function automatic logic [16:0] wptr(input logic [16:0] base, input logic [31:0] off, input logic [16:0] roll);
    if (roll == 17'd0) return 17'(32'(base) + off);
    return {base[16:13], 13'(32'(base) + off % 32'(roll))};
  endfunction

  logic          lw;
  logic [LW-1:0] loff;
  for (genvar g = 0; g < 16; g++) begin : g_lg
    logic [LW:0]  ra [1];
    logic [31:0]  rd [1];
    assign ra[0] = lg_raddr[g];
    assign lg_rdata[g] = rd[0];
    max78000_ram_mr #(.DEPTH(2 << LW), .NB(4), .NR(1), .AW(LW + 1)) u_lg (
      .clk, .rst_n, .re(pstep), .raddr(ra), .rdata(rd), .we(lg_we[g]), .waddr(lg_waddr[g]), .wdata(lg_wdata[g]),
      .wbe(lg_wbe[g])
    );
  end
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) begin
      for (int b = 0; b < 2; b++) for (int g = 0; g < 16; g++) lg_n[b][g] <= '0;
    end else if (state == S_IDLE && start && (!oneshot || next_layer > lcnt || next_layer == 5'd0)) begin
      for (int b = 0; b < 2; b++) for (int g = 0; g < 16; g++) lg_n[b][g] <= '0;   // a new run
    end else if (state == S_INIT) begin
      for (int g = 0; g < 16; g++) lg_n[layer[0]][g] <= '0;                        // this layer's output frame
    end else begin
      for (int g = 0; g < 16; g++)
        if (lg_we[g] && 17'(lg_waddr[g][LW-1:0]) >= lg_n[lg_waddr[g][LW]][g])
          lg_n[lg_waddr[g][LW]][g] <= 17'(lg_waddr[g][LW-1:0]) + 17'd1;
    end

  // ---------------- pass-through writes (3.11) ----------------
  // Per pixel k and pass e, the enabled processors of a quadrant are packed: the j-th one writes its pooled
  // (or combined) byte to lane j&3 of timeslot t = j>>2, word WPTR_BASE + t*WPTR_TOFF + (k*X + e)*(wptr_inc+1)
  // (as ai8x-synthesis lays the channels out; the golden model since max-m3 3dd55c8). One word (timeslot) per
  // cycle, quadrant 3 first so that quadrant 0 wins (D41).
  logic [15:0] pt_grp, pt_pend, pt_left;
  logic [3:0]  pt_g;
  logic [16:0] pt_ptr;
  logic [31:0] pt_off;
  logic [31:0] pt_data;
  logic [3:0]  pt_be;
  logic [3:0]  pt_sel [4][16];          // the j-th enabled processor of quadrant q
  logic [4:0]  pt_n [4];                // enabled processors of quadrant q
  always_comb begin
    logic [1:0] q, t;
    for (int u = 0; u < 4; u++) begin
      pt_n[u] = '0;
      for (int jj = 0; jj < 16; jj++) pt_sel[u][jj] = '0;
      for (int i = 0; i < 16; i++)
        if (lp[u].pro_en[i]) begin pt_sel[u][pt_n[u][3:0]] = 4'(i); pt_n[u] = pt_n[u] + 5'd1; end
    end
    for (int g = 0; g < 16; g++) pt_grp[g] = lp[g / 4].passthru && 5'(4 * (g % 4)) < pt_n[g / 4];
    pt_g = '0;
    for (int g = 0; g < 16; g++) if (pt_pend[g]) pt_g = 4'(g);
    pt_left = pt_pend & ~(16'd1 << pt_g);
    q = pt_g[3:2];
    t = pt_g[1:0];
    pt_off = (32'(k) * 32'(L.x) + 32'(e)) * 32'(lp[q].inc1);
    pt_ptr = wptr(17'(32'(lp[q].wbase) + 32'(t) * 32'(lp[q].toff)), pt_off, lp[q].roll_next);
    for (int l = 0; l < 4; l++) begin
      pt_data[8 * l +: 8] = tval[0] ? pb_rdata[0][8 * (16 * 32'(q) + 32'(pt_sel[q][{t, 2'(l)}])) +: 8] : 8'd0;
      pt_be[l] = 5'({t, 2'(l)}) < pt_n[q];
    end
  end
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) pt_pend <= '0;
    else if (state == S_PASS) pt_pend <= pt_grp;
    else if (state == S_PWR) pt_pend <= pt_left;

  // 8-bit output stage (spec 3.9): round half up by 2^(7-s), clamp, abs or ReLU (D39).
  function automatic logic signed [7:0] out_stage(input logic signed [39:0] t, input logic signed [5:0] s,
                                                  input logic oabs, input logic relu);
    logic signed [6:0] kk;
    logic signed [47:0] v;
    kk = 7'sd7 - 7'(s);
    if (kk > 0) v = (48'(t) + (48'sd1 <<< (kk - 7'sd1))) >>> kk;
    else        v = 48'(t) <<< (-kk);
    if (v > 48'sd127) v = 48'sd127;
    if (v < -48'sd128) v = -48'sd128;
    if (oabs) v = (v < 0) ? ((v == -48'sd128) ? 48'sd127 : -v) : v;
    else if (relu && v < 0) v = 48'sd0;
    return 8'(v);
  endfunction

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      wb_pend <= '0;
      wb_lw <= '0;
      for (int q = 0; q < 4; q++) begin
        acc[q] <= '0; wb_ptr[q] <= '0; wb_data[q] <= '0; wb_be[q] <= '0; wb_off[q] <= '0;
      end
    end else if (cv1 && !stall) begin
      for (int q = 0; q < 4; q++) acc[q] <= clast1 ? 40'sd0 : acc[q] + qsum[q];
      if (clast1) begin
        wb_pend <= wnew;
        for (int q = 0; q < 4; q++) begin
          wb_ptr[q] <= ptr[q]; wb_data[q] <= wdata[q]; wb_be[q] <= wbe[q]; wb_off[q] <= woffs[q][LW-1:0];
          wb_lw[q] <= lp[q].roll_next != 17'd0;
        end
      end else wb_pend <= wb_left;
    end else wb_pend <= wb_left;
  end

  // ---------------- sequencer ----------------
  logic [1:0] lead;
  logic       any_writer;
  always_comb begin
    lead = 2'd0; any_writer = 1'b0;
    for (int q = 3; q >= 0; q--) if (lp_in[q].writes) begin lead = 2'(q); any_writer = 1'b1; end
  end
  assign L = lp[lq];
  wire unused_l = ^L;   // the lead quadrant supplies only the loop bounds
  assign busy = state != S_IDLE;
  assign issue = state == S_CONV && !stall;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= S_IDLE; layer <= '0; next_layer <= '0; master <= '0; lq <= '0; done <= 1'b0;
      K <= '0; P <= '0; j <= '0; oy <= '0; ox <= '0; py <= '0; px <= '0; k <= '0; e <= '0; dy <= '0; dx <= '0;
      o <= '0;
      pwa <= '0; cycles <= '0;
      for (int q = 0; q < 4; q++) lp[q] <= '0;
    end else begin
      done <= 1'b0;
      if (busy) cycles <= cycles + 32'd1;
      case (state)
        S_IDLE:
          if (start) begin
            master <= start_q;
            layer <= oneshot ? (next_layer > lcnt ? 5'd0 : next_layer) : 5'd0;
            cycles <= '0;
            state <= S_INIT;
          end
        S_INIT: begin
          for (int q = 0; q < 4; q++) lp[q] <= lp_in[q];
          lq <= lead;
          K <= '0; P <= '0; j <= '0; oy <= '0; ox <= '0; py <= '0; px <= '0; k <= '0;
          e <= '0; dy <= '0; dx <= '0; o <= '0; pwa <= '0;
          state <= (any_writer && lp_in[lead].valid) ? S_POOL : S_LEND;
        end
        S_POOL: if (pstep) begin
          // element-wise operand o: outside the window with prepool (pool each operand), inside otherwise
          if (L.prepool) begin
            if (!last_dx) dx <= dx + 5'd1;
            else begin
              dx <= '0;
              if (!last_dy) dy <= dy + 5'd1;
              else begin dy <= '0; if (!last_o) o <= o + 5'd1; else o <= '0; end
            end
          end else begin
            if (!last_o) o <= o + 5'd1;
            else begin
              o <= '0;
              if (!last_dx) dx <= dx + 5'd1;
              else begin dx <= '0; if (!last_dy) dy <= dy + 5'd1; else dy <= '0; end
            end
          end
          if (last_grp) begin
            pwa <= pwa + PBW'(1);
            if (!last_e) e <= e + 9'd1;
            else begin
              e <= '0;
              if (!last_px) px <= px + 11'd1;
              else begin
                px <= '0;
                if (!last_py) py <= py + 11'd1;
                else state <= S_PDRAIN;
              end
            end
          end
        end
        S_PDRAIN: state <= L.passthru ? S_PASS : S_CONV;   // the last window's buffer write lands this cycle
        S_PASS: state <= S_PWR;          // pooled bytes of (oy, ox, e) are read
        S_PWR:
          if (pt_left == 16'd0) begin    // the last group of this pixel and pass is written now
            state <= S_PASS;
            if (!last_e) e <= e + 9'd1;
            else begin
              e <= '0;
              if (!last_ox) begin ox <= ox + 11'd1; k <= k + 22'd1; end
              else begin
                ox <= '0;
                if (!last_oy) begin oy <= oy + 11'd1; k <= k + 22'd1; end
                else state <= S_LEND;
              end
            end
          end
        S_CONV:
          if (!stall) begin
            if (!last_e) e <= e + 9'd1;
            else begin
              e <= '0;
              if (!last_ox) begin ox <= ox + 11'd1; k <= k + 22'd1; end
              else begin
                ox <= '0;
                if (!last_oy) begin oy <= oy + 11'd1; k <= k + 22'd1; end
                else begin
                  oy <= '0; k <= '0;
                  if (!last_k) begin
                    K <= K + 16'd1;
                    if (j != L.s - 10'd1) j <= j + 10'd1;
                    else begin j <= '0; P <= P + 16'd1; end
                  end else state <= S_CDRAIN;
                end
              end
            end
          end
        S_CDRAIN: if (!cv1 && wb_pend == 4'd0) state <= S_LEND;   // the layer's last write has landed
        S_LEND: if (!fifo_wait) begin    // layer 0 of a FIFO run ends once every IFRM word has arrived
          if (!cnn_en[master]) begin                   // stop (spec 4): after this layer, even the last or a
            next_layer <= '0;                          // oneshot one, no interrupt; the next start is layer 0
            state <= S_IDLE;
          end else if (oneshot) begin
            next_layer <= (layer >= lcnt) ? 5'd0 : layer + 5'd1;
            state <= S_DONE;
          end else if (layer >= lcnt) begin
            next_layer <= '0;
            state <= S_DONE;
          end else begin
            layer <= layer + 5'd1;
            state <= S_INIT;
          end
        end
        S_DONE: begin done <= 1'b1; state <= S_IDLE; end
        default: state <= S_IDLE;
      endcase
    end
  end
endmodule
