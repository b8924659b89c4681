// CSC data side: for each weight set (one step of the schedule: channel block cb, kernel row r, column s) it
// issues the stripe's output pixels, one a cycle, each as one CBUF data read (the atom of input (cb, y, x),
// y = oy*STRIDE_Y + r*DIL_Y - PAD_TOP, x = ox*STRIDE_X + s*DIL_X - PAD_LEFT) or, outside the input, the pad
// value. A pixel waits until CDMA has written its input row. A stripe (up to STRIPE consecutive output pixels of
// a kernel group, raster order) accumulates into one of CACC's two accumulator banks; a stripe starts only when
// its bank has been drained to SDP. Steps follow each other without a bubble.
module nvdla_csc
  import nvdla_conv_pkg::*;
(
  input  logic                clk,
  input  logic                rst_n,
  input  logic                start,
  input  logic [13:0]         width, height,      // input W, H
  input  logic [14:0]         eps,                // CBUF entries a slice
  input  logic [3:0]          stride_x, stride_y,
  input  logic [5:0]          dil_x, dil_y,
  input  logic [4:0]          pad_left, pad_top,
  input  logic [13:0]         out_w,
  input  logic [21:0]         out_pixels,         // out_w x out_h
  input  logic [13:0]         rows_done,          // input rows CDMA has written
  // weight sets (nvdla_csc_wt)
  input  logic                set_valid,
  output logic                set_take,
  input  wset_t               set_w,
  input  wstep_t              set_step,
  // CACC's accumulator banks
  input  logic [1:0]          bank_busy,
  output logic                stripe_start,       // a stripe begins on bank stripe_bank
  output logic                stripe_bank,
  output logic [4:0]          stripe_np,          // its pixels
  output logic                stripe_layer_last,
  // CBUF data read
  output logic                rd_en,
  output logic [CBUF_AW-1:0]  rd_addr,
  // operation to CMAC, with the read data of the cycle after
  output logic                op_valid,
  output logic                op_pad,
  output logic [PW-1:0]       op_pix,
  output logic                op_bank,
  output logic                op_first,
  output logic                op_last,
  output wset_t               op_w,
  output logic                busy
);
  typedef struct packed {
    logic [13:0] ox, oy;
    logic [19:0] xo, yo;          // ox * stride_x, oy * stride_y
  } pos_t;

  logic        act;               // a step is being issued
  wset_t       cur_w;
  wstep_t      cur;
  logic        bank;
  logic [4:0]  np, p;
  logic [21:0] rem;               // pixels of the group not yet in a stripe
  pos_t        pos, origin;
  logic signed [20:0] ybias, xbias;   // r*dil_y - pad_top, s*dil_x - pad_left of the step
  logic [27:0] cbw;                   // cb * width

  // the pixel of this cycle
  wire signed [20:0] y = $signed({1'b0, pos.yo}) + ybias, x = $signed({1'b0, pos.xo}) + xbias;
  wire pad     = y < 0 || x < 0 || y >= $signed({7'd0, height}) || x >= $signed({7'd0, width});
  wire row_in  = pad || $signed({7'd0, rows_done}) > y;
  wire fire    = act && row_in;
  wire last_px = p == np - 5'd1;
  wire [31:0] addr = 32'(y[13:0]) * 32'(eps) + 32'(cbw) + 32'(x[13:0]);
  assign rd_en   = fire && !pad;
  assign rd_addr = addr[CBUF_AW-1:0];

  // the position after this pixel, and the stripe origin after this step
  pos_t pos_inc, org_next;
  always_comb begin
    pos_inc = pos;
    if (pos.ox == out_w - 14'd1) begin
      pos_inc.ox = '0;
      pos_inc.xo = '0;
      pos_inc.oy = pos.oy + 14'd1;
      pos_inc.yo = pos.yo + 20'(stride_y);
    end else begin
      pos_inc.ox = pos.ox + 14'd1;
      pos_inc.xo = pos.xo + 20'(stride_x);
    end
    org_next = origin;
    if (fire && last_px && cur.stripe_last) org_next = cur.group_last ? '0 : pos_inc;
  end
  wire [21:0] rem_next = (fire && last_px && cur.stripe_last) ? (cur.group_last ? out_pixels : rem - 22'(np)) : rem;

  // the next step: its stripe's bank must be free when it starts a stripe
  wire   free_now  = !act || (fire && last_px);
  assign set_take  = free_now && set_valid && (!set_step.stripe_first || !bank_busy[~bank]);
  assign stripe_start      = set_take && set_step.stripe_first;
  assign stripe_bank       = ~bank;
  assign stripe_np         = rem_next > 22'(STRIPE) ? 5'(STRIPE) : 5'(rem_next);
  assign stripe_layer_last = set_step.layer_last;
  assign busy = act;
  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, cur, addr[31:CBUF_AW]};   // cur: only the stripe flags are used here
  /* verilator lint_on UNUSED */

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {act, cur_w, cur, bank, np, p, rem, pos, origin, ybias, xbias, cbw} <= '0;
    end else if (start) begin
      act    <= 1'b0;
      bank   <= 1'b1;            // the first stripe takes bank 0
      rem    <= out_pixels;
      origin <= '0;
    end else begin
      rem    <= rem_next;
      origin <= org_next;
      if (fire) begin
        p   <= p + 5'd1;
        pos <= pos_inc;
        if (last_px) act <= 1'b0;
      end
      if (set_take) begin
        act   <= 1'b1;
        cur   <= set_step;
        cur_w <= set_w;
        p     <= '0;
        pos   <= org_next;
        ybias <= 21'(set_step.r * dil_y) - 21'(pad_top);
        xbias <= 21'(set_step.s * dil_x) - 21'(pad_left);
        cbw   <= 28'(set_step.cb * width);
        if (set_step.stripe_first) begin
          bank <= ~bank;
          np   <= stripe_np;
        end
      end
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {op_valid, op_pad, op_pix, op_bank, op_first, op_last, op_w} <= '0;
    end else begin
      op_valid <= fire;
      if (fire) begin
        op_pad   <= pad;
        op_pix   <= p[PW-1:0];
        op_bank  <= bank;
        op_first <= cur.stripe_first;
        op_last  <= cur.stripe_last && last_px;
        op_w     <= cur_w;
      end
    end
  end
endmodule
