// CSC data side: for each weight set (one step of the schedule: channel block cb, kernel row r, column s) it
// issues the stripe's output pixels, one a cycle, each as one CBUF data read or, outside the input, the pad
// value. A stripe (up to STRIPE consecutive output pixels of a kernel group, raster order) accumulates into one
// of CACC's two accumulator banks; a stripe starts only when its bank has been drained to SDP. A pixel waits
// until CDMA has written its input row. Steps follow each other without a bubble.
//  - Feature input: the atom of input (cb, y, x), y = oy*STRIDE_Y + r*DIL_Y - PAD_TOP,
//    x = ox*STRIDE_X + s*DIL_X - PAD_LEFT, at CBUF entry y*EPS + cb*W + x (nvdla_cdma_dat's layout).
//  - Image input: 8 bytes at byte ox*STRIDE_X*bpp + cb*8 of CBUF line y = oy*STRIDE_Y + r - PAD_TOP (CDMA stored
//    the left and right padding; rows outside the image are the pad value). With post-extension a step covers
//    y_ext kernel rows: one operation a row, each placing the row's C bytes in its segment of the atom (CACC
//    sums them: the same sum as one atom, as no 34-bit saturation can occur within a step).
module nvdla_csc
  import nvdla_conv_pkg::*;
(
  input  logic                clk,
  input  logic                rst_n,
  input  logic                start,
  input  logic                image,
  input  logic [2:0]          bpp,                // image: bytes a pixel
  input  logic [2:0]          y_ext,              // image: kernel rows a step (1, 2, 4)
  input  logic [7:0]          wch,                // image: bytes of a kernel row (C of the pre-extended kernel)
  input  logic [5:0]          kh,                 // R
  input  logic [13:0]         width, height,      // input W, H
  input  logic [14:0]         eps,                // CBUF entries a slice (line)
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
  // CBUF data read (image: and the next entry)
  output logic                rd_en,
  output logic                rd2_en,
  output logic [CBUF_AW-1:0]  rd_addr,
  // operation to CMAC, with the read data of the cycle after
  output logic                op_valid,
  output logic                op_pad,
  output logic [2:0]          op_shift,
  output logic [2:0]          op_seg_lo,
  output logic [3:0]          op_seg_n,
  output logic [PW-1:0]       op_pix,
  output logic                op_bank,
  output logic                op_first,
  output logic                op_last,
  output wset_t               op_w
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
  logic [2:0]  ri, rn;            // post-extension: row of the step, rows of the step
  logic [21:0] rem;               // pixels of the group not yet in a stripe
  pos_t        pos, origin;
  logic signed [20:0] ybias, xbias;   // row*dil_y - pad_top, s*dil_x - pad_left of the operation
  logic [27:0] cbw;                   // feature: cb * width; image: cb * 8

  wire post = image && y_ext != 3'd1;
  // the pixel of this cycle
  wire signed [20:0] y = $signed({1'b0, pos.yo}) + ybias, x = $signed({1'b0, pos.xo}) + xbias;
  wire pad     = y < 0 || y >= $signed({7'd0, height}) || (!image && (x < 0 || x >= $signed({7'd0, width})));
  wire row_in  = pad || $signed({7'd0, rows_done}) > y;
  wire fire    = act && row_in;
  wire last_px = p == np - 5'd1;
  wire step_end = fire && last_px && ri == rn - 3'd1;
  wire [31:0] boff = 32'(pos.xo) * 32'(bpp) + 32'(cbw);            // image: byte offset in the line
  wire [31:0] addr = 32'(y[13:0]) * 32'(eps) + (image ? boff >> 3 : 32'(cbw) + 32'(x[13:0]));
  assign rd_en   = fire && !pad;
  assign rd2_en  = rd_en && image;
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
    if (step_end && cur.stripe_last) org_next = cur.group_last ? '0 : pos_inc;
  end
  wire [21:0] rem_next = (step_end && cur.stripe_last) ? (cur.group_last ? out_pixels : rem - 22'(np)) : rem;

  // the next step: its stripe's bank must be free when it starts a stripe
  wire   free_now  = !act || step_end;
  assign set_take  = free_now && set_valid && (!set_step.stripe_first || !bank_busy[~bank]);
  assign stripe_start      = set_take && set_step.stripe_first;
  assign stripe_bank       = ~bank;
  assign stripe_np         = rem_next > 22'(STRIPE) ? 5'(STRIPE) : 5'(rem_next);
  assign stripe_layer_last = set_step.layer_last;

  // a step's rows (post-extension: y_ext, the last step the rest) and the bias of a row
  wire [5:0] step_row0 = post ? 6'(set_step.r * y_ext) : set_step.r;
  wire [5:0] rows_left = kh - step_row0;
  function automatic logic signed [20:0] row_bias(input logic [5:0] row);
    logic [5:0] d;
    d = image ? 6'd1 : dil_y;
    return 21'(row * d) - 21'(pad_top);   // image: CSC ignores its dilation
  endfunction

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {act, cur_w, cur, bank, np, p, ri, rn, rem, pos, origin, ybias, xbias, cbw} <= '0;
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
        if (last_px) begin
          if (step_end) act <= 1'b0;
          else begin                       // post-extension: the step's next row, the same pixels
            ri    <= ri + 3'd1;
            p     <= '0;
            pos   <= origin;
            ybias <= ybias + 21'd1;
          end
        end
      end
      if (set_take) begin
        act   <= 1'b1;
        cur   <= set_step;
        cur_w <= set_w;
        p     <= '0;
        ri    <= '0;
        rn    <= post ? (rows_left < 6'(y_ext) ? 3'(rows_left) : y_ext) : 3'd1;
        pos   <= org_next;
        ybias <= row_bias(step_row0);
        xbias <= image ? 21'd0 : 21'(set_step.s * dil_x) - 21'(pad_left);
        cbw   <= image ? 28'({set_step.cb, 3'd0}) : 28'(set_step.cb * width);
        if (set_step.stripe_first) begin
          bank <= ~bank;
          np   <= stripe_np;
        end
      end
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {op_valid, op_pad, op_shift, op_seg_lo, op_seg_n, op_pix, op_bank, op_first, op_last, op_w} <= '0;
    end else begin
      op_valid <= fire;
      if (fire) begin
        op_pad    <= pad;
        op_shift  <= image ? boff[2:0] : 3'd0;
        op_seg_lo <= post ? 3'(ri * wch[2:0]) : 3'd0;
        op_seg_n  <= post ? wch[3:0] : 4'd8;
        op_pix    <= p[PW-1:0];
        op_bank   <= bank;
        op_first  <= cur.stripe_first && ri == 3'd0;
        op_last   <= cur.stripe_last && step_end;
        op_w      <= cur_w;
      end
    end
  end

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, cur, addr[31:CBUF_AW], wch[7:4]};   // cur: only the stripe flags are used here
  /* verilator lint_on UNUSED */
endmodule
