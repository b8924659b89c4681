// PDP pooling core (spec nvdla_datapath.md 3.2-3.3). One pass = one output-column partition of every
// surface. Coordinates are padded: u = x + pad_left, v = y + pad_top. The pass walks surfaces, rows v
// and columns u of the partition; one atom (8 lanes in parallel) per cycle.
//   * A shift register keeps the newest 8 columns of the row; when u ends a horizontal window (u = ox*sw +
//     kw - 1) the row result r of that window is reduced from it (cal1d).
//   * Output rows still open keep per-column accumulators in a line buffer of 8 slots (oy mod 8) x 128
//     columns; each row result is folded into every open slot containing the row (cal2d).
//   * When row v is the last of output row oy's window, its columns are finished (pad rows, reciprocals)
//     and leave in cube order. Bottom pad rows are visited only at window ends; every row start costs a
//     cycle (A_ROW), taken only while the pipeline advances (it clears the shift register stage B reads).
// Stages: A (walk, shift register), B (row result, line-buffer read-modify-write), C (finish, output queue).
module nvdla_pdp_core
  import nvdla_pdp_pkg::*;
(
  input  logic             clk,
  input  logic             rst_n,
  input  logic             start,          // begin a pass; the inputs below hold still during it
  input  logic [1:0]       method,
  input  logic [3:0]       kw_m1,
  input  logic [3:0]       kh_m1,
  input  logic [3:0]       sw_m1,
  input  logic [3:0]       sh_m1,
  input  logic [2:0]       pad_l,
  input  logic [2:0]       pad_t,
  input  logic [2:0]       pad_b,
  input  logic [12:0]      wi_m1,
  input  logic [12:0]      hi_m1,
  input  logic [12:0]      ho_m1,
  input  logic [9:0]       surfs_m1,
  input  logic [13:0]      u_first,        // partition: first u (start of its first window)
  input  logic [13:0]      u_last,         // partition: last u (end of its last window)
  input  logic [16:0]      recip_w,
  input  logic [16:0]      recip_h,
  input  logic [6:0][18:0] pv,             // PAD_VALUE_1..7
  output logic             busy,
  input  logic             in_valid,
  output logic             in_ready,
  input  logic [63:0]      in_data,
  output logic             out_valid,
  input  logic             out_ready,
  output logic [63:0]      out_data
);
  wire [3:0]  kw = kw_m1 + 4'd1, kh = kh_m1 + 4'd1, sw = sw_m1 + 4'd1;
  wire [13:0] v_last = 14'(hi_m1) + 14'(pad_t) + 14'(pad_b);

  // ------------------------------------------------------------------ stage A: walk
  typedef enum logic [1:0] {A_IDLE, A_ROW, A_COL} ast_t;
  ast_t        st;
  logic [9:0]  s;
  logic [13:0] v, u, ue;
  logic [12:0] oxl, noy;
  logic [3:0]  vm;
  logic [7:0]  open;
  logic [7:0][3:0] rows, nreal;
  // the current row's view of the slots (set by A_ROW)
  logic        r_real;
  logic [7:0]  r_acc, r_fresh;
  logic        r_fin;
  logic [2:0]  r_fin_k;
  logic [3:0]  r_nh;
  // shift register of the newest 8 columns
  logic [7:0]       sr_real;
  logic [7:0][63:0] sr_data;
  logic             adv;

  wire col_real = r_real && u >= 14'(pad_l) && (u - 14'(pad_l)) <= 14'(wi_m1);
  wire step     = st == A_COL && adv && (!col_real || in_valid);
  wire wend     = u == ue;
  assign in_ready = st == A_COL && adv && col_real;
  assign busy     = st != A_IDLE;

  // row bookkeeping for A_ROW (combinational): which slots open, accumulate, finish
  logic [7:0]      n_open, n_acc, n_fresh, n_finm;
  logic [7:0][3:0] n_rows, n_nreal;
  logic            n_real, opening;
  always_comb begin
    n_real  = v >= 14'(pad_t) && v <= 14'(hi_m1) + 14'(pad_t);
    opening = vm == 4'd0 && noy <= ho_m1;
    for (int k = 0; k < 8; k++) begin
      n_open[k]  = open[k];
      n_rows[k]  = rows[k];
      n_nreal[k] = nreal[k];
      n_fresh[k] = nreal[k] == 4'd0;
      if (opening && noy[2:0] == 3'(k)) begin
        n_open[k]  = 1'b1;
        n_rows[k]  = 4'd0;
        n_nreal[k] = 4'd0;
        n_fresh[k] = 1'b1;
      end
      if (n_open[k]) begin
        n_rows[k]  = n_rows[k] + 4'd1;
        n_nreal[k] = n_nreal[k] + 4'(n_real);
      end
      n_acc[k]  = n_open[k] && n_real;
      n_finm[k] = n_open[k] && n_rows[k] == kh;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      st <= A_IDLE;
      {s, v, u, ue, oxl, noy, vm, open, rows, nreal} <= '0;
      {r_real, r_acc, r_fresh, r_fin, r_fin_k, r_nh} <= '0;
      sr_real <= '0;
    end else begin
      case (st)
        A_IDLE: if (start) begin
          st <= A_ROW;
          {s, v, vm, noy, open} <= '0;
        end
        A_ROW: if (adv) begin            // stage B may still need the shift register of the last row
          open    <= n_open & ~n_finm;
          rows    <= n_rows;
          nreal   <= n_nreal;
          r_real  <= n_real;
          r_acc   <= n_acc;
          r_fresh <= n_fresh;
          r_fin   <= |n_finm;
          r_fin_k <= '0;
          r_nh    <= '0;
          for (int k = 0; k < 8; k++) if (n_finm[k]) begin
            r_fin_k <= 3'(k);
            r_nh    <= kh - n_nreal[k];
          end
          if (opening) noy <= noy + 13'd1;
          sr_real <= '0;
          oxl     <= '0;
          ue      <= u_first + 14'(kw_m1);
          u       <= n_real ? u_first : u_first + 14'(kw_m1);
          if (n_real || |n_finm) st <= A_COL;
          else next_row();
        end
        A_COL: if (step) begin
          sr_real <= {sr_real[6:0], col_real};
          if (wend) begin
            ue  <= ue + 14'(sw);
            oxl <= oxl + 13'd1;
          end
          if (u == u_last) next_row();
          else u <= r_real ? u + 14'd1 : ue + 14'(sw);     // pad rows: window ends only
        end
        default: st <= A_IDLE;
      endcase
    end
  end

  // advance to the next row, the next surface, or finish the pass
  task automatic next_row();
    if (v == v_last) begin
      if (s == surfs_m1) st <= A_IDLE;
      else begin
        st <= A_ROW;
        s  <= s + 10'd1;
        {v, vm, noy, open} <= '0;
      end
    end else begin
      st <= A_ROW;
      v  <= v + 14'd1;
      vm <= vm == sh_m1 ? 4'd0 : vm + 4'd1;
    end
  endtask

  always_ff @(posedge clk) if (step) sr_data <= {sr_data[6:0], in_data};     // data needs no reset

  // ------------------------------------------------------------------ stage B: row result, line buffer
  logic        b_valid, b_real, b_fin;
  logic [7:0]  b_acc, b_fresh;
  logic [2:0]  b_fin_k;
  logic [3:0]  b_nh;
  logic [6:0]  b_ox;
  logic [111:0] lb [8][128];             // [slot][column] -> 8 lanes x 14 bits

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {b_valid, b_real, b_fin, b_acc, b_fresh, b_fin_k, b_nh, b_ox} <= '0;
    end else if (adv) begin
      b_valid <= step && wend;
      b_real  <= r_real;
      b_fin   <= r_fin;
      b_acc   <= r_acc;
      b_fresh <= r_fresh;
      b_fin_k <= r_fin_k;
      b_nh    <= r_nh;
      b_ox    <= oxl[6:0];                  // partitions are at most 128 wide (spec 3.2 MaxW)
    end
  end

  logic [7:0][13:0]      hr;               // row result per lane
  logic [7:0][7:0][13:0] nv;               // new accumulator per slot, lane
  logic [111:0]          fin_v;
  always_comb begin
    logic [7:0][7:0] col;
    for (int l = 0; l < 8; l++) begin
      for (int j = 0; j < 8; j++) col[j] = sr_data[j][l*8 +: 8];
      hr[l] = row_reduce(col, sr_real, kw, method, pv);
    end
    for (int k = 0; k < 8; k++) begin
      logic [111:0] rd;
      rd = lb[k][b_ox];
      for (int l = 0; l < 8; l++)
        nv[k][l] = b_acc[k] ? col_combine(signed'(rd[l*14 +: 14]), signed'(hr[l]), b_fresh[k], method)
                            : rd[l*14 +: 14];
    end
    fin_v = nv[b_fin_k];
  end

  always_ff @(posedge clk) begin
    if (adv && b_valid)
      for (int k = 0; k < 8; k++)
        if (b_acc[k] && !(b_fin && b_fin_k == 3'(k))) lb[k][b_ox] <= nv[k];
  end

  // ------------------------------------------------------------------ stage C: finish, output queue
  logic         c_valid;
  logic [111:0] c_acc;
  logic [3:0]   c_nh;
  logic         q_full, q_empty;
  logic [2:0]   q_cnt;
  logic [63:0]  c_out;

  assign adv = !c_valid || !q_full;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      c_valid <= 1'b0;
      c_acc   <= '0;
      c_nh    <= '0;
    end else if (adv) begin
      c_valid <= b_valid && b_fin;
      c_acc   <= fin_v;
      c_nh    <= b_nh;
    end
  end
  always_comb
    for (int l = 0; l < 8; l++)
      c_out[l*8 +: 8] = finish(signed'(c_acc[l*14 +: 14]), c_nh, kw, method, pv, recip_w, recip_h);

  sync_fifo #(.WIDTH(64), .DEPTH(4)) u_outq (.clk, .rst_n, .push(c_valid && !q_full), .wr_data(c_out),
                                             .pop(out_valid && out_ready), .rd_data(out_data), .full(q_full),
                                             .empty(q_empty), .count(q_cnt));
  assign out_valid = !q_empty;

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, q_cnt, b_real};
  /* verilator lint_on UNUSED */
endmodule
