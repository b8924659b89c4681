// CDP LRN core (spec nvdla_datapath.md 4.2-4.6), one element per cycle. Input atoms arrive pixel-major
// (for each pixel: surfaces 0..S-1), are converted on the way in (pad lanes forced to 0), and each element
// k of the current atom sees the converted lanes of the previous, current and next atom of its pixel, so
// the channel window (up to +-4) crosses surface boundaries with zeros beyond channel 0 and 8S.
// Pipeline: E0 square sum -> E1 LE/LO index -> E2 table selection and LUT read -> E3 interpolation ->
// E4 multiplier and output converter -> atoms to the output queue (same pixel-major order).
module nvdla_cdp_core
  import nvdla_regs_pkg::*;
  import nvdla_cdp_pkg::*;
(
  input  logic        clk,
  input  logic        rst_n,
  input  logic        start,
  input  cdp_d_t      cfg,
  input  cdp_s_t      scfg,
  input  logic [12:0] c_m1,           // channels - 1 (CDP_RDMA cube)
  input  logic        in_valid,
  output logic        in_ready,
  input  logic [63:0] in_data,
  // LUT read ports (entries idx and idx+1 of each table)
  output logic [6:0]  le_idx,
  input  logic [15:0] le_d0,
  input  logic [15:0] le_d1,
  output logic [8:0]  lo_idx,
  input  logic [15:0] lo_d0,
  input  logic [15:0] lo_d1,
  output logic        out_valid,
  input  logic        out_ready,
  output logic [63:0] out_data
);
  typedef logic signed [8:0] v9_t;
  wire [9:0] surfs_m1 = c_m1[12:3];

  // ------------------------------------------------------------------ input: convert, pad lanes to 0
  logic [9:0]       hs;                 // surface index of the head atom (in_data)
  logic [7:0][8:0]  head;
  always_comb
    for (int l = 0; l < 8; l++)
      head[l] = {hs, 3'(l)} <= c_m1 ? icvt(in_data[l*8 +: 8], cfg.datin_offset[7:0], cfg.datin_scale,
                                            cfg.datin_shifter) : 9'd0;

  // ------------------------------------------------------------------ E0: window, square sum
  logic             cur_valid, adv, issue, load;
  logic [7:0][8:0]  prev, cur;
  logic [9:0]       s;
  logic [2:0]       lane;
  wire              last_s = s == surfs_m1;

  assign issue    = adv && cur_valid && (last_s || in_valid);
  assign load     = in_valid && (!cur_valid || (issue && lane == 3'd7));
  assign in_ready = load;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {cur_valid, prev, cur, s, lane, hs} <= '0;
    end else if (start) begin
      {cur_valid, s, lane, hs} <= '0;
    end else begin
      if (issue) lane <= lane + 3'd1;
      if (load) begin
        cur_valid <= 1'b1;
        cur       <= head;
        prev      <= hs == 10'd0 ? '0 : cur;
        s         <= hs;
        hs        <= hs == surfs_m1 ? 10'd0 : hs + 10'd1;
      end else if (issue && lane == 3'd7) cur_valid <= 1'b0;
    end
  end

  logic signed [63:0] x0;
  v9_t                vk0;
  always_comb begin
    logic [23:0][8:0] win;
    int r;
    win = {last_s ? 72'd0 : head, cur, prev};
    r   = int'(cfg.normalz_len) + 1;
    vk0 = signed'(win[8 + int'(lane)]);
    x0  = '0;
    if (cfg.sqsum_bypass) x0 = 64'(vk0);
    else
      for (int j = -4; j <= 4; j++)
        if (j >= -r && j <= r) x0 = x0 + 64'(signed'(win[8 + int'(lane) + j])) * 64'(signed'(win[8 + int'(lane) + j]));
  end

  // ------------------------------------------------------------------ E1..E4 pipeline registers
  logic               v1, v2, v3, v4;
  logic [2:0]         l1, l2, l3, l4;
  logic signed [21:0] x1, x2;
  v9_t                k1, k2, k3, k4;
  lstate_t            le_st2, lo_st2;
  logic [6:0]         le_i2;
  logic [8:0]         lo_i2;
  logic [15:0]        le_f2, lo_f2;
  logic signed [15:0] y4;
  logic [55:0]        acc;
  logic               q_full, q_empty;
  logic [2:0]         q_cnt;

  assign adv = !(v4 && l4 == 3'd7 && q_full);

  // E1 -> E2: index computation
  lstate_t     le_st, lo_st;
  logic [6:0]  le_i;
  logic [8:0]  lo_i;
  logic [15:0] le_f, lo_f;
  always_comb begin
    le_index(64'(x1), scfg.lut_le_start_low[21:0], scfg.lut_le_function, scfg.lut_le_index_offset,
             scfg.lut_le_index_select[5:0], le_st, le_i, le_f);
    lo_index(64'(x1), scfg.lut_lo_start_low[21:0], scfg.lut_lo_index_select[5:0], lo_st, lo_i, lo_f);
  end

  // E2 -> E3: table selection (4.5), LUT read, interpolation operands (4.6)
  logic               use_lo;
  logic signed [15:0] pd;
  logic signed [39:0] in0, in1;
  logic signed [16:0] scl;
  logic signed [5:0]  shf;
  wire signed [39:0] le_start = 40'(sx({26'd0, scfg.lut_le_start_high, scfg.lut_le_start_low}, 38));
  wire signed [39:0] le_end   = 40'(sx({26'd0, scfg.lut_le_end_high, scfg.lut_le_end_low}, 38));
  wire signed [39:0] lo_start = 40'(sx({26'd0, scfg.lut_lo_start_high, scfg.lut_lo_start_low}, 38));
  wire signed [39:0] lo_end   = 40'(sx({26'd0, scfg.lut_lo_end_high, scfg.lut_lo_end_low}, 38));
  // EXPONENT mode: le_start + 2^offset, 39-bit wrap (offset[7] set or >= 39 adds nothing)
  wire [6:0]         offk     = scfg.lut_le_index_offset[6:0];
  wire signed [39:0] le_min   = scfg.lut_le_function ? le_start
                              : 40'(sx(64'(le_start) + ((scfg.lut_le_index_offset[7] || offk >= 7'd39) ? 64'd0
                                                         : (64'd1 << offk)), 39));
  // The LUT read addresses come from E2's registers alone. They stay out of the always_comb below, which
  // reads the LUT's data: in one block, index -> LUT -> data -> block is a combinational cycle for Verilator
  // (UNOPTFLAT) whenever it cannot split the block, e.g. in the --coverage build.
  assign le_idx = le_st2 == HIT ? le_i2 : le_st2 == UFLOW ? 7'd0 : 7'd64;
  assign lo_idx = lo_st2 == HIT ? lo_i2 : lo_st2 == UFLOW ? 9'd0 : 9'd256;
  always_comb begin
    if (le_st2 == HIT && lo_st2 == HIT) use_lo = scfg.lut_hybrid_priority;
    else if ((le_st2 == UFLOW && lo_st2 == OFLOW) || (le_st2 == OFLOW && lo_st2 == UFLOW))
      use_lo = scfg.lut_hybrid_priority;
    else if (le_st2 == HIT) use_lo = 1'b0;
    else if (lo_st2 == HIT) use_lo = 1'b1;
    else if (le_st2 == UFLOW) use_lo = scfg.lut_uflow_priority;
    else use_lo = scfg.lut_oflow_priority;
    if (!use_lo) begin
      pd = signed'(le_d0);
      case (le_st2)
        HIT: begin
          in0 = 40'(signed'(le_d0));
          in1 = 40'(signed'(le_d1));
          scl = signed'({1'b0, le_f2});
          shf = 6'sd16;
        end
        UFLOW: begin
          in0 = le_min;
          in1 = 40'(x2);
          scl = 17'(signed'(scfg.lut_le_slope_uflow_scale));
          shf = 6'(signed'(scfg.lut_le_slope_uflow_shift));
        end
        default: begin
          in0 = le_end;
          in1 = 40'(x2);
          scl = 17'(signed'(scfg.lut_le_slope_oflow_scale));
          shf = 6'(signed'(scfg.lut_le_slope_oflow_shift));
        end
      endcase
    end else begin
      pd = signed'(lo_d0);
      case (lo_st2)
        HIT: begin
          in0 = 40'(signed'(lo_d0));
          in1 = 40'(signed'(lo_d1));
          scl = signed'({1'b0, lo_f2});
          shf = 6'sd16;
        end
        UFLOW: begin
          in0 = lo_start;
          in1 = 40'(x2);
          scl = 17'(signed'(scfg.lut_lo_slope_uflow_scale));
          shf = 6'(signed'(scfg.lut_lo_slope_uflow_shift));
        end
        default: begin
          in0 = lo_end;
          in1 = 40'(x2);
          scl = 17'(signed'(scfg.lut_lo_slope_oflow_scale));
          shf = 6'(signed'(scfg.lut_lo_slope_oflow_shift));
        end
      endcase
    end
  end

  logic signed [15:0] pd3;
  logic signed [39:0] in0_3, in1_3;
  logic signed [16:0] scl3;
  logic signed [5:0]  shf3;

  wire signed [24:0] m4 = cfg.mul_bypass ? 25'(y4) : 25'(y4) * 25'(k4);
  wire [7:0]         b4 = ocvt(m4, cfg.datout_offset[24:0], cfg.datout_scale, cfg.datout_shifter);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {v1, v2, v3, v4, l1, l2, l3, l4} <= '0;
      {x1, x2, k1, k2, k3, k4, le_st2, lo_st2, le_i2, lo_i2, le_f2, lo_f2, y4, acc} <= '0;
      {pd3, in0_3, in1_3, scl3, shf3} <= '0;
    end else if (start) begin
      {v1, v2, v3, v4} <= '0;
    end else if (adv) begin
      v1 <= issue;           l1 <= lane;  x1 <= 22'(x0); k1 <= vk0;
      v2 <= v1;              l2 <= l1;    x2 <= x1;      k2 <= k1;
      le_st2 <= le_st; lo_st2 <= lo_st; le_i2 <= le_i; lo_i2 <= lo_i; le_f2 <= le_f; lo_f2 <= lo_f;
      v3 <= v2;              l3 <= l2;    k3 <= k2;
      pd3 <= pd; in0_3 <= in0; in1_3 <= in1; scl3 <= scl; shf3 <= shf;
      v4 <= v3;              l4 <= l3;    k4 <= k3;
      y4 <= interp(pd3, in0_3, in1_3, scl3, shf3);
      if (v4 && l4 != 3'd7) acc[l4*8 +: 8] <= b4;
    end
  end

  // ------------------------------------------------------------------ output atoms
  sync_fifo #(.WIDTH(64), .DEPTH(4)) u_outq (.clk, .rst_n, .push(adv && v4 && l4 == 3'd7), .wr_data({b4, acc}),
                                             .pop(out_valid && out_ready), .rd_data(out_data), .full(q_full),
                                             .empty(q_empty), .count(q_cnt));
  assign out_valid = !q_empty;

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, q_cnt, le_d1, lo_d1, cfg, scfg};
  /* verilator lint_on UNUSED */
endmodule
