// CDMA image input (D_DATAIN_FORMAT = pixel): turns a pitch-linear pixel surface into CBUF lines, one line a
// slice (EPS entries), as nv_small does (facts and RTL lines in golden/nvdla/conv_image.h): a line is pad_left +
// width + pad_right pixels of bpp bytes, the padding pixels being PAD_VALUE[7:0]; each pixel's bytes reordered
// to R,G,B,A (Y,U,V,A) and, with CVT_EN, converted: sat8(round((pixel - op) x scale >> truncate)), op the
// mean of the byte's channel (MEAN_FORMAT) or CVT_OFFSET. Formats: 1 byte (R8), 4 bytes packed, and semi-planar
// YUV 4:4:4 (Y from the first plane, the UV pair from the second). One pixel a cycle.
// Memory: each line's beats (8 bytes, aligned; the first skips the PIXEL_X_OFFSET pixels) go into a byte queue
// per plane; semi-planar requests alternate between the planes so that neither queue starves the other. Read
// data is always accepted: a request is issued only when its queue has room for it.
module nvdla_cdma_img
  import nvdla_conv_pkg::*;
  import nvdla_dp_pkg::*;
(
  input  logic                clk,
  input  logic                rst_n,
  input  logic                start,
  input  logic [31:0]         base, line_stride, uv_base, uv_stride,
  input  logic [13:0]         width, height,
  input  logic [2:0]          bpp,            // 1, 3 (semi-planar) or 4
  input  logic [7:0]          order,          // 4 x 2 bits: pixel byte of CBUF byte b (semi: UV byte + 1)
  input  logic [4:0]          x_offset,
  input  logic [4:0]          pad_left,
  input  logic [5:0]          pad_right,
  input  logic [7:0]          pad_value,
  input  logic                cvt_en, mean_en, is_signed,
  input  logic [5:0]          truncate,
  input  logic [15:0]         offset, scale,
  input  logic [63:0]         means,          // RY, GU, BV, AX (16 bits each, RY lowest)
  output logic                done,
  output logic [13:0]         rows_done,
  output logic                rd_req_valid,
  input  logic                rd_req_ready,
  output logic [31:0]         rd_req_addr,
  input  logic                rd_rsp_valid,
  output logic                rd_rsp_ready,
  input  logic [63:0]         rd_rsp_data,
  output logic                cbuf_wr_en,
  output logic [CBUF_AW-1:0]  cbuf_wr_addr,
  output logic [63:0]         cbuf_wr_data
);
  localparam int QB = 32;                     // bytes a plane queue
  wire semi = bpp == 3'd3;

  // ------------------------------------------------------------------ requests
  // a line's byte span in each plane: [s, e); beats cover [0, e) (s < 8: the offset lies in the first atom)
  wire [16:0] p_s = semi ? 17'(x_offset) : 17'(x_offset) * 17'(bpp);
  wire [16:0] p_e = semi ? 17'(x_offset) + 17'(width) : (17'(x_offset) + 17'(width)) * 17'(bpp);
  wire [16:0] u_s = 17'(x_offset) << 1;
  wire [16:0] u_e = (17'(x_offset) + 17'(width)) << 1;
  wire [13:0] p_n = 14'((p_e + 17'd7) >> 3), u_n = semi ? 14'((u_e + 17'd7) >> 3) : 14'd0;

  logic        rq_on;
  logic [13:0] ry, pi, ui;
  logic [31:0] p_line, u_line;
  logic [5:0]  p_cnt, u_cnt;                  // bytes queued
  logic [2:0]  p_fly, u_fly;                  // beats requested, not yet returned
  wire p_room = 7'(p_cnt) + 7'({p_fly, 3'd0}) + 7'd8 <= 7'(QB);
  wire u_room = 7'(u_cnt) + 7'({u_fly, 3'd0}) + 7'd8 <= 7'(QB);
  // semi-planar: the UV plane is 2 bytes a pixel, so it gets the request while it covers fewer pixels
  wire want_u = semi && ui != u_n && (pi == p_n || {1'b0, ui, 2'b00} < {pi, 3'b000});
  wire want_p = !want_u && pi != p_n;
  assign rd_req_valid = rq_on && (want_u ? u_room : want_p && p_room);
  assign rd_req_addr  = want_u ? u_line + {15'd0, ui, 3'd0} : p_line + {15'd0, pi, 3'd0};
  wire issue = rd_req_valid && rd_req_ready;

  // each request's plane and the bytes of its beat that belong to the line
  typedef struct packed { logic uv; logic [2:0] lo; logic [3:0] hi; } tag_t;
  function automatic tag_t beat_tag(input logic uv, input logic [13:0] i, input logic [2:0] s, input logic [16:0] e);
    logic [16:0] b;
    b = {i, 3'd0};
    return '{uv: uv, lo: i == 0 ? s : 3'd0, hi: e - b >= 17'd8 ? 4'd8 : 4'(e - b)};
  endfunction
  tag_t tag_in, tag_out;
  assign tag_in = want_u ? beat_tag(1'b1, ui, u_s[2:0], u_e) : beat_tag(1'b0, pi, p_s[2:0], p_e);
  logic tq_full, tq_empty;
  logic [4:0] tq_count;
  sync_fifo #(.WIDTH($bits(tag_t)), .DEPTH(16)) u_tags (.clk, .rst_n, .push(issue), .wr_data(tag_in),
                                                         .pop(rd_rsp_valid), .rd_data(tag_out), .full(tq_full),
                                                         .empty(tq_empty), .count(tq_count));

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {rq_on, ry, pi, ui, p_line, u_line} <= '0;
    end else if (start) begin
      rq_on <= 1'b1;
      {ry, pi, ui} <= '0;
      p_line <= base;
      u_line <= uv_base;
    end else if (issue) begin
      if (want_u) ui <= ui + 14'd1;
      else        pi <= pi + 14'd1;
      if ((want_u ? ui + 14'd1 == u_n && pi == p_n : pi + 14'd1 == p_n && ui == u_n)) begin   // line requested
        {pi, ui} <= '0;
        ry <= ry + 14'd1;
        p_line <= p_line + line_stride;
        u_line <= u_line + uv_stride;
        if (ry == height - 14'd1) rq_on <= 1'b0;
      end
    end
  end

  // ------------------------------------------------------------------ plane queues
  logic [QB*8-1:0] p_q, u_q;
  logic            px_take;                   // the pixel stage takes a real pixel this cycle
  wire  [5:0]      p_pop = px_take ? (semi ? 6'd1 : 6'(bpp)) : 6'd0;
  wire  [5:0]      u_pop = px_take && semi ? 6'd2 : 6'd0;
  wire  [3:0]      nbytes = tag_out.hi - 4'(tag_out.lo);
  wire  [63:0]     beat = rd_rsp_data >> {tag_out.lo, 3'd0};
  wire  [63:0]     beat_m = nbytes == 4'd8 ? beat : beat & ((64'd1 << {nbytes, 3'd0}) - 64'd1);
  assign rd_rsp_ready = 1'b1;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {p_q, u_q, p_cnt, u_cnt, p_fly, u_fly} <= '0;
    end else if (start) begin
      {p_q, u_q, p_cnt, u_cnt, p_fly, u_fly} <= '0;
    end else begin
      logic [QB*8-1:0] pq, uq;
      logic [5:0]      pc, uc;
      pq = p_q >> {p_pop, 3'd0};
      uq = u_q >> {u_pop, 3'd0};
      pc = p_cnt - p_pop;
      uc = u_cnt - u_pop;
      if (rd_rsp_valid && !tag_out.uv) begin
        pq = pq | ({{(QB*8-64){1'b0}}, beat_m} << {pc, 3'd0});
        pc = pc + 6'(nbytes);
      end
      if (rd_rsp_valid && tag_out.uv) begin
        uq = uq | ({{(QB*8-64){1'b0}}, beat_m} << {uc, 3'd0});
        uc = uc + 6'(nbytes);
      end
      p_q <= pq;
      u_q <= uq;
      p_cnt <= pc;
      u_cnt <= uc;
      p_fly <= p_fly + 3'(issue && !want_u) - 3'(rd_rsp_valid && !tag_out.uv);
      u_fly <= u_fly + 3'(issue && want_u) - 3'(rd_rsp_valid && tag_out.uv);
    end
  end

  // ------------------------------------------------------------------ pixels
  logic        px_on, flush;
  logic [13:0] py;
  logic [14:0] px;                            // pixel of the padded line
  logic [127:0] e_buf;
  logic [4:0]  e_n;                           // bytes in e_buf
  wire [14:0] line_px = 15'(pad_left) + 15'(width) + 15'(pad_right);
  wire        is_pad  = px < 15'(pad_left) || px >= 15'(pad_left) + 15'(width);
  wire        have    = semi ? p_cnt >= 6'd1 && u_cnt >= 6'd2 : p_cnt >= 6'(bpp);
  wire        room    = e_n <= 5'd12;
  wire        px_go   = px_on && !flush && room && (is_pad || have);
  assign px_take = px_go && !is_pad;

  function automatic logic [7:0] cvt(input logic [7:0] v, input logic [15:0] op);
    logic signed [63:0] d;
    d = (is_signed ? 64'($signed(v)) : 64'(v)) - 64'($signed(op));
    return 8'(sat(rsr(d * 64'($signed(scale)), truncate, 34, 17), 8));
  endfunction

  logic [31:0] pix;                           // this pixel's CBUF bytes
  always_comb begin
    pix = '0;
    for (int b = 0; b < 4; b++) begin
      logic [7:0] v;
      logic [1:0] o;
      o = order[b*2 +: 2];
      v = !semi ? p_q[int'(o)*8 +: 8] : (b == 0 ? p_q[7:0] : u_q[(int'(o) - 1)*8 +: 8]);
      if (b < int'(bpp))
        pix[b*8 +: 8] = is_pad ? pad_value : (cvt_en ? cvt(v, mean_en ? means[(bpp == 3'd1 ? 0 : b)*16 +: 16] : offset) : v);
    end
  end

  // entries: 8 bytes a CBUF write; a line's last entry is zero-filled
  wire        wr_full  = e_n >= 5'd8;
  wire        wr_tail  = flush && !wr_full && e_n != 5'd0;
  assign cbuf_wr_en   = wr_full || wr_tail;
  assign cbuf_wr_data = wr_full ? e_buf[63:0] : e_buf[63:0] & ((64'd1 << {e_n, 3'd0}) - 64'd1);
  // the entry buffer after this cycle's write (out) and pixel (in)
  logic [127:0] e_buf_next;
  logic [4:0]   e_n_next;
  always_comb begin
    e_buf_next = cbuf_wr_en ? e_buf >> 64 : e_buf;
    e_n_next   = cbuf_wr_en ? (wr_full ? e_n - 5'd8 : 5'd0) : e_n;
    if (px_go) begin
      e_buf_next = e_buf_next | ({96'd0, pix} << {e_n_next, 3'd0});
      e_n_next   = e_n_next + 5'(bpp);
    end
  end
  wire line_in = flush && e_n_next == 5'd0;   // the line's last entry is written this cycle

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {px_on, flush, py, px, e_buf, e_n, cbuf_wr_addr, rows_done} <= '0;
    end else if (start) begin
      {flush, py, px, e_buf, e_n, cbuf_wr_addr, rows_done} <= '0;
      px_on <= 1'b1;
    end else begin
      e_buf <= e_buf_next;
      e_n   <= e_n_next;
      if (cbuf_wr_en) cbuf_wr_addr <= cbuf_wr_addr + 1'b1;
      if (px_go) begin
        px <= px + 15'd1;
        if (px == line_px - 15'd1) flush <= 1'b1;
      end
      if (line_in) begin
        flush <= 1'b0;
        px <= '0;
        py <= py + 14'd1;
        rows_done <= rows_done + 14'd1;
        if (py == height - 14'd1) px_on <= 1'b0;
      end
    end
  end
  assign done = rows_done == height;

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, tq_full, tq_empty, tq_count, p_s[16:3], u_s[16:3]};   // s < 8: x offset in the first atom
  /* verilator lint_on UNUSED */
endmodule
