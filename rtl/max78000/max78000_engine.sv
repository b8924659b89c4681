// max78000_engine: layer sequencer and datapath of the MAX78000 CNN (spec sections 3 and 4).
//
// All 64 processors work in parallel, one input channel each (max78000_proc). Per output slot K and
// output pixel k the engine steps through input passes e, kernel taps (ky,kx) and pool-window positions
// (dy,dx), one step per cycle in a two-stage pipeline:
//   stage 0: address generation: each of the 16 data memories reads the word its processors need, each
//            quadrant's 16 MRAMs read the weight word of (K, e, tap) (D32);
//   stage 1: each processor pools its lane in flight and, on the window's last step, multiplies by its
//            weight; each quadrant adds its 16 products to its partial sum.
// After the pixel's last step the writing quadrants store total = own partial + bias + the partials
// of the quadrants in cnnsi_en (D23, D35, D36) in the order 3, 2, 1, 0, so quadrant 0 wins (D41).
// Loop bounds (geometry, passes, slots) come from the lowest-numbered writing quadrant; every
// quadrant uses its own read pointer, CHW/HWC mode, weights, enables, bias and output registers.
// Limitations (M3): element-wise operands, pass-through, deconvolution, streaming/FIFO input.
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
  // MRAM: one word address per quadrant, 64 read data
  output logic [11:0] mr_addr [4],
  input  logic [71:0] mr_rdata [64],
  // BRAM: one address per quadrant
  output logic [8:0]  br_addr [4],
  input  logic [7:0]  br_rdata [4]
);
  typedef enum logic [2:0] { S_IDLE, S_INIT, S_ISSUE, S_DRAIN, S_WRITE, S_LEND, S_DONE } state_e;
  state_e state;

  lparams_t lp [4];
  lparams_t L;                          // lead quadrant's parameters (loop bounds)
  logic [1:0] lq, master, wq;
  logic [4:0] next_layer;

  // loop counters
  logic [15:0] K, P;
  logic [9:0]  j;
  logic [10:0] oy, ox;
  logic [21:0] k;
  logic [8:0]  e;
  logic [3:0]  ky, kx;
  logic [4:0]  dy, dx;

  // ---------------- stage 0: address generation ----------------
  logic last_dx, last_dy, last_win, last_kx, last_ky, last_e;
  logic signed [12:0] iy, ix;
  logic in_img;
  logic [15:0] n;
  logic [3:0] tt;
  logic [12:0] word_q [4];
  logic [1:0]  lane_n;
  logic [3:0]  slot_q [4];
  logic [2:0]  bit_q [4];

  always_comb begin
    last_dx = dx == L.pw - 5'd1;
    last_dy = dy == L.ph - 5'd1;
    last_win = last_dx && last_dy;
    last_kx = kx == L.kw - 4'd1;
    last_ky = ky == L.kh - 4'd1;
    last_e = e == L.x - 9'd1;
    iy = 13'(oy) + 13'(ky) - 13'(L.rpad);
    ix = 13'(ox) + 13'(kx) - 13'(L.cpad);
    in_img = iy >= 0 && iy < 13'(L.h_p) && ix >= 0 && ix < 13'(L.w_p);
    n = 16'((32'(iy) * 32'(L.st) + 32'(dy)) * 32'(L.w_in) + 32'(ix) * 32'(L.st) + 32'(dx));
    lane_n = n[1:0];
    tt = 4'(ky * L.kw + kx);
    for (int q = 0; q < 4; q++) begin
      logic [31:0] a, b;
      if (lp[q].chw) word_q[q] = 13'(32'(lp[q].rptr) + 32'(n[15:2]) * 32'(L.x) + 32'(e));
      else           word_q[q] = 13'(32'(lp[q].rptr) + 32'(n) * 32'(L.x) + 32'(e));
      a = 32'(lp[q].msad) + (32'(K) * 32'(L.x) + 32'(e)) * 32'(lp[q].qb);                 // D32
      b = (a >> 3) * 32'(L.t) + 32'(lp[q].osad) + 32'(L.t) - 32'd1 - 32'(tt);
      mr_addr[q] = (b / 32'd9 < 32'd4096) ? 12'(b / 32'd9) : 12'hFFF;
      slot_q[q] = 4'(b % 32'd9);
      bit_q[q] = a[2:0];
      br_addr[q] = 9'(32'(lp[q].bsad) + 32'(K));                                               // D26
    end
    for (int g = 0; g < 16; g++) dm_raddr[g] = word_q[g / 4];
  end
  assign dm_re = busy;

  // ---------------- stage 1: pooling, products, partial sums ----------------
  logic       v1, first1, last1, in_img1;
  logic [1:0] lane1;
  logic [3:0] slot1 [4];
  logic [2:0] bit1 [4];
  logic signed [15:0] prod [64];
  logic signed [39:0] acc [4];
  logic signed [39:0] qsum [4];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      v1 <= 1'b0; first1 <= 1'b0; last1 <= 1'b0; in_img1 <= 1'b0; lane1 <= '0;
      for (int q = 0; q < 4; q++) begin slot1[q] <= '0; bit1[q] <= '0; end
    end else begin
      v1 <= state == S_ISSUE;
      first1 <= dx == 5'd0 && dy == 5'd0;
      last1 <= last_win;
      in_img1 <= in_img;
      lane1 <= lane_n;
      for (int q = 0; q < 4; q++) begin slot1[q] <= slot_q[q]; bit1[q] <= bit_q[q]; end
    end
  end

  for (genvar p = 0; p < 64; p++) begin : g_proc
    localparam int Q = p / 16;
    localparam int I = p % 16;
    localparam int G = p / 4;
    logic [7:0] byte_in, wbyte;
    always_comb begin
      byte_in = lp[Q].chw ? dm_rdata[G][8*lane1 +: 8] : dm_rdata[G][8*(p%4) +: 8];
      if (!in_img1) byte_in = 8'd0;
      wbyte = (slot1[Q] < 4'd9) ? mr_rdata[p][8*slot1[Q] +: 8] : 8'd0;
    end
    max78000_proc u_proc (
      .clk, .rst_n, .valid(v1), .first(first1), .last(last1), .val(byte_in),
      .maxpool(lp[Q].maxpool), .poolrnd(lp[Q].poolrnd), .npool(lp[Q].npool),
      .wbyte, .wbit(bit1[Q]), .qb(lp[Q].qb), .en(lp[Q].mask_en[I]), .prod(prod[p])
    );
  end

  always_comb
    for (int q = 0; q < 4; q++) begin
      qsum[q] = '0;
      for (int i = 0; i < 16; i++) qsum[q] = qsum[q] + 40'(prod[16*q + i]);
    end

  // ---------------- output: totals and writes ----------------
  logic signed [39:0] part [4];
  logic signed [39:0] total;
  logic signed [7:0]  out8;
  logic [16:0] ptr;
  always_comb begin
    for (int q = 0; q < 4; q++)
      part[q] = acc[q] + (lp[q].bias_en ? 40'($signed(br_rdata[q])) * 40'sd128 : 40'sd0);       // D35
    total = part[wq];
    for (int t = 0; t < 4; t++)
      if (t != 32'(wq) && lp[wq].cnnsi[t]) total = total + part[t];                                // D23
    out8 = out_stage(total, lp[wq].shift, lp[wq].oabs, lp[wq].relu);
    if (lp[wq].bigdwrt)                                                                            // D40
      ptr = 17'(32'(lp[wq].wbase) + 32'd4 * 32'(k) * 32'(lp[wq].inc1) + 32'(P) * 32'(lp[wq].choff)
                + 32'(j[9:2]) * 32'(lp[wq].moff) + 32'(j[1:0]));
    else
      ptr = 17'(32'(lp[wq].wbase) + 32'(k) * 32'(lp[wq].inc1) + 32'(P) * 32'(lp[wq].choff)
                + 32'(j[9:2]) * 32'(lp[wq].moff));
    dm_we = state == S_WRITE && lp[wq].writes;
    dm_wg = ptr[16:13];
    dm_waddr = ptr[12:0];
    dm_wdata = lp[wq].bigdwrt ? total[31:0] : {4{out8}};                                           // D38
    dm_wbe = lp[wq].bigdwrt ? 4'hF : 4'(1 << j[1:0]);
  end

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

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= S_IDLE; layer <= '0; next_layer <= '0; master <= '0; lq <= '0; wq <= '0; done <= 1'b0;
      K <= '0; P <= '0; j <= '0; oy <= '0; ox <= '0; k <= '0; e <= '0; ky <= '0; kx <= '0; dy <= '0; dx <= '0;
      cycles <= '0;
      for (int q = 0; q < 4; q++) begin lp[q] <= '0; acc[q] <= '0; end
    end else begin
      done <= 1'b0;
      if (busy) cycles <= cycles + 32'd1;
      if (v1) for (int q = 0; q < 4; q++) acc[q] <= acc[q] + qsum[q];
      case (state)
        S_IDLE:
          if (start) begin
            master <= start_q;
            layer <= oneshot ? (next_layer > lcnt ? 5'd0 : next_layer) : 5'd0;
            cycles <= '0;
            state <= S_INIT;
          end
        S_INIT: begin
          for (int q = 0; q < 4; q++) begin lp[q] <= lp_in[q]; acc[q] <= '0; end
          lq <= lead;
          K <= '0; P <= '0; j <= '0; oy <= '0; ox <= '0; k <= '0;
          e <= '0; ky <= '0; kx <= '0; dy <= '0; dx <= '0;
          state <= (any_writer && lp_in[lead].valid) ? S_ISSUE : S_LEND;
        end
        S_ISSUE: begin
          if (!last_dx) dx <= dx + 5'd1;
          else begin
            dx <= '0;
            if (!last_dy) dy <= dy + 5'd1;
            else begin
              dy <= '0;
              if (!last_kx) kx <= kx + 4'd1;
              else begin
                kx <= '0;
                if (!last_ky) ky <= ky + 4'd1;
                else begin
                  ky <= '0;
                  if (!last_e) e <= e + 9'd1;
                  else begin e <= '0; state <= S_DRAIN; end
                end
              end
            end
          end
        end
        S_DRAIN: begin wq <= 2'd3; state <= S_WRITE; end
        S_WRITE: begin
          if (wq != 2'd0) wq <= wq - 2'd1;
          else begin
            for (int q = 0; q < 4; q++) acc[q] <= '0;
            state <= S_ISSUE;
            if (ox != L.w_out - 11'd1) begin ox <= ox + 11'd1; k <= k + 22'd1; end
            else begin
              ox <= '0;
              if (oy != L.h_out - 11'd1) begin oy <= oy + 11'd1; k <= k + 22'd1; end
              else begin
                oy <= '0; k <= '0;
                if (K != L.nk - 16'd1) begin
                  K <= K + 16'd1;
                  if (j != L.s - 10'd1) j <= j + 10'd1;
                  else begin j <= '0; P <= P + 16'd1; end
                end else state <= S_LEND;
              end
            end
          end
        end
        S_LEND: begin
          if (oneshot) begin
            next_layer <= (layer >= lcnt) ? 5'd0 : layer + 5'd1;
            state <= S_DONE;
          end else if (layer >= lcnt) begin
            next_layer <= '0;
            state <= S_DONE;
          end else if (!cnn_en[master]) begin          // stop: abort after this layer, no interrupt
            next_layer <= '0;
            state <= S_IDLE;
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
