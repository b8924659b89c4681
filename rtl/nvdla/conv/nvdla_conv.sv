// The convolution pipeline of nv_small, INT8, feature or image input: CDMA (input and weight fetch) -> CBUF ->
// CSC (schedule, padding, strides, dilation) -> CMAC (8 x 8 MACs) -> CACC (accumulation, truncation, output to
// SDP on the fly). A layer runs when CDMA, CSC, CMAC_A, CMAC_B and CACC all have their CONSUMER group enabled
// (any enable order); its configuration is those groups' live registers. Fetch and compute overlap: CSC uses an
// input row or a weight entry as soon as CDMA has written it. All five units complete together when CACC has
// handed the last output to SDP and both fetches are done; CDMA_DAT / CDMA_WT raise their interrupts when each
// fetch ends, CACC when the layer ends.
module nvdla_conv
  import nvdla_regs_pkg::*;
  import nvdla_conv_pkg::*;
(
  input  logic        clk,
  input  logic        rst_n,
  input  cdma_d_t     cdma,
  input  csc_d_t      csc,
  input  cacc_d_t     cacc,
  input  logic        op_en,            // every unit's CONSUMER group enabled
  output logic        done,             // one cycle: completes CDMA, CSC, CMAC_A, CMAC_B, CACC
  output logic        dat_done,         // one cycle: the feature fetch ended
  output logic        wt_done,          // one cycle: the weight fetch ended
  output logic        cacc_done,        // one cycle: the last output went to SDP
  output logic [31:0] sat_count,        // CACC D_OUT_SATURATION of the layer (valid with done)
  // to SDP on the fly
  output logic        fly_valid,
  output logic [31:0] fly_data,
  input  logic        fly_ready,
  output logic        fly_last,         // the layer's last element (nv_small: cacc2sdp_pd[33], layer end)
  // MCIF read clients: [0] CDMA_DAT, [1] CDMA_WT
  output logic [1:0]        rd_req_valid,
  input  logic [1:0]        rd_req_ready,
  output logic [1:0][31:0]  rd_req_addr,
  input  logic [1:0]        rd_rsp_valid,
  output logic [1:0]        rd_rsp_ready,
  input  logic [1:0][63:0]  rd_rsp_data
);
  // ------------------------------------------------------------------ layer geometry (live CONSUMER registers)
  wire [13:0] in_w    = 14'(csc.datain_width_ext) + 14'd1;
  wire [13:0] in_h    = 14'(csc.datain_height_ext) + 14'd1;
  wire        image   = cdma.datain_format;
  // the kernel's channels: the input's (feature) or a pre-extended kernel row's bytes (image)
  wire [13:0] in_c    = 14'(csc.weight_channel_ext) + 14'd1;
  wire [10:0] cblocks = 11'((in_c + 14'd7) >> 3);
  wire [3:0]  c_last  = 4'(in_c - {cblocks - 11'd1, 3'd0});
  wire [13:0] kernels = 14'(csc.weight_kernel) + 14'd1;
  wire [10:0] groups  = 11'((kernels + 14'd7) >> 3);
  wire [5:0]  kh      = 6'(csc.weight_height_ext) + 6'd1;
  wire [5:0]  kw      = 6'(csc.weight_width_ext) + 6'd1;
  wire [23:0] rsc     = 24'(kh * kw) * 24'(in_c);
  // image post-extension: y_ext kernel rows a step, in_c bytes each (one atom)
  wire [2:0]  y_ext   = image ? 3'd1 << csc.y_extension : 3'd1;
  wire        post    = y_ext != 3'd1;
  wire [5:0]  steps   = post ? 6'((kh + 6'(y_ext) - 6'd1) >> csc.y_extension) : kh;
  wire [3:0]  cn_full = 4'(in_c * 14'(y_ext));
  wire [5:0]  rows_last = kh - 6'((steps - 6'd1) * 6'(y_ext));
  wire [3:0]  cn_last = 4'(in_c * 14'(rows_last));
  // image pixel formats (golden/nvdla/conv_image.c conv_image_format): bytes a pixel and byte order
  logic [2:0] bpp;
  logic [7:0] order;          // CBUF byte b of a pixel = pixel byte order[2b+1:2b]
  always_comb begin
    bpp = 3'd4;
    order = {2'd3, 2'd2, 2'd1, 2'd0};
    case (cdma.pixel_format)
      6'h00: bpp = 3'd1;                                         // R8
      6'h0d, 6'h11, 6'h1a: order = {2'd3, 2'd0, 2'd1, 2'd2};     // A8R8G8B8, X8R8G8B8, A8Y8U8V8
      6'h0e, 6'h12, 6'h1b: order = {2'd0, 2'd3, 2'd2, 2'd1};     // B8G8R8A8, B8G8R8X8, V8U8Y8A8
      6'h0f, 6'h13: order = {2'd0, 2'd1, 2'd2, 2'd3};            // R8G8B8A8, R8G8B8X8
      6'h1c: begin bpp = 3'd3; order = {2'd3, 2'd1, 2'd2, 2'd0}; end   // Y8___U8V8_N444: the pair swapped
      6'h1d: bpp = 3'd3;                                         // Y8___V8U8_N444
      default: ;                                                 // A8B8G8R8, X8B8G8R8 (others: not modelled)
    endcase
  end
  wire [14:0] eps     = 15'(csc.entries) + 15'd1;
  wire [21:0] out_px  = 22'(csc.atomics) + 22'd1;
  wire [17:0] stripes = 18'((out_px + 22'(STRIPE - 1)) >> PW);
  wire [WT_CW-1:0] wt_entries = WT_CW'((33'(cdma.weight_bytes) + 33'd7) >> 3);
  wire [CBUF_AW:0] wt_ring    = {6'(cdma.weight_bank) + 6'd1, 9'd0};     // weight ring entries (banks x 512)

  // ------------------------------------------------------------------ control
  typedef enum logic [1:0] {IDLE, RUN, FIN} state_t;
  state_t state;
  logic   start, layer_end, dat_fin, wt_fin, dat_seen, wt_seen, acc_seen;
  assign start = state == IDLE && op_en;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state <= IDLE;
      {dat_seen, wt_seen, acc_seen} <= '0;
    end else begin
      case (state)
        IDLE: if (start) begin
          state <= RUN;
          {dat_seen, wt_seen, acc_seen} <= '0;
        end
        RUN: begin
          if (dat_fin) dat_seen <= 1'b1;
          if (wt_fin)  wt_seen <= 1'b1;
          if (layer_end) acc_seen <= 1'b1;
          if (dat_seen && wt_seen && acc_seen) state <= FIN;
        end
        default: state <= IDLE;              // FIN: the done pulse; op_en updates before IDLE
      endcase
    end
  end
  assign done      = state == FIN;
  assign dat_done  = state == RUN && dat_fin && !dat_seen;
  assign wt_done   = state == RUN && wt_fin && !wt_seen;
  assign cacc_done = state == RUN && layer_end;

  // ------------------------------------------------------------------ CDMA
  logic                dwr_en, wwr_en, drd_en, drd2_en, wrd_en;
  logic [CBUF_AW-1:0]  dwr_addr, wwr_addr, drd_addr, wrd_addr;
  logic [63:0]         dwr_data, wwr_data, drd_data, drd2_data, wrd_data;
  logic [13:0]         rows_done;
  logic [WT_CW-1:0]    wt_avail, wt_rls_base;

  logic               f_done, i_done, f_wr_en, i_wr_en;
  logic [13:0]        f_rows, i_rows;
  logic [CBUF_AW-1:0] f_wr_addr, i_wr_addr;
  logic [63:0]        f_wr_data, i_wr_data;
  logic               f_req_valid, i_req_valid, f_rsp_ready, i_rsp_ready;
  logic [31:0]        f_req_addr, i_req_addr;
  nvdla_cdma_dat u_cdma_dat (
    .clk, .rst_n, .start(start && !image), .base({cdma.datain_addr_low_0[31:3], 3'd0}), .line_stride({cdma.line_stride[31:3], 3'd0}),
    .surf_stride({cdma.surf_stride[31:3], 3'd0}), .width(in_w), .height(in_h), .surfs(cblocks), .eps,
    .cvt_en(cdma.cvt_en), .truncate(cdma.cvt_truncate), .offset(cdma.cvt_offset), .scale(cdma.cvt_scale),
    .done(f_done), .rows_done(f_rows),
    .rd_req_valid(f_req_valid), .rd_req_ready(rd_req_ready[0] && !image), .rd_req_addr(f_req_addr),
    .rd_rsp_valid(rd_rsp_valid[0] && !image), .rd_rsp_ready(f_rsp_ready), .rd_rsp_data(rd_rsp_data[0]),
    .cbuf_wr_en(f_wr_en), .cbuf_wr_addr(f_wr_addr), .cbuf_wr_data(f_wr_data));

  nvdla_cdma_img u_cdma_img (
    .clk, .rst_n, .start(start && image), .base({cdma.datain_addr_low_0[31:3], 3'd0}),
    .line_stride({cdma.line_stride[31:3], 3'd0}), .uv_base({cdma.datain_addr_low_1[31:3], 3'd0}),
    .uv_stride({cdma.uv_line_stride[31:3], 3'd0}), .width(14'(cdma.datain_width) + 14'd1),
    .height(14'(cdma.datain_height) + 14'd1), .bpp, .order, .x_offset(cdma.pixel_x_offset),
    .pad_left(cdma.pad_left), .pad_right(cdma.pad_right), .pad_value(cdma.pad_value[7:0]), .cvt_en(cdma.cvt_en),
    .mean_en(cdma.mean_format), .is_signed(cdma.pixel_sign_override), .truncate(cdma.cvt_truncate),
    .offset(cdma.cvt_offset), .scale(cdma.cvt_scale), .means({cdma.mean_ax, cdma.mean_bv, cdma.mean_gu, cdma.mean_ry}),
    .done(i_done), .rows_done(i_rows),
    .rd_req_valid(i_req_valid), .rd_req_ready(rd_req_ready[0] && image), .rd_req_addr(i_req_addr),
    .rd_rsp_valid(rd_rsp_valid[0] && image), .rd_rsp_ready(i_rsp_ready), .rd_rsp_data(rd_rsp_data[0]),
    .cbuf_wr_en(i_wr_en), .cbuf_wr_addr(i_wr_addr), .cbuf_wr_data(i_wr_data));

  assign rd_req_valid[0] = image ? i_req_valid : f_req_valid;
  assign rd_req_addr[0]  = image ? i_req_addr : f_req_addr;
  assign rd_rsp_ready[0] = image ? i_rsp_ready : f_rsp_ready;
  assign dat_fin   = image ? i_done : f_done;
  assign rows_done = image ? i_rows : f_rows;
  assign dwr_en    = image ? i_wr_en : f_wr_en;
  assign dwr_addr  = image ? i_wr_addr : f_wr_addr;
  assign dwr_data  = image ? i_wr_data : f_wr_data;

  nvdla_cdma_wt u_cdma_wt (
    .clk, .rst_n, .start, .base({cdma.weight_addr_low[31:3], 3'd0}), .entries(wt_entries), .ring(wt_ring),
    .rls_base(wt_rls_base), .done(wt_fin), .entries_done(wt_avail),
    .rd_req_valid(rd_req_valid[1]), .rd_req_ready(rd_req_ready[1]), .rd_req_addr(rd_req_addr[1]),
    .rd_rsp_valid(rd_rsp_valid[1]), .rd_rsp_ready(rd_rsp_ready[1]), .rd_rsp_data(rd_rsp_data[1]),
    .cbuf_wr_en(wwr_en), .cbuf_wr_addr(wwr_addr), .cbuf_wr_data(wwr_data));

  // ------------------------------------------------------------------ CBUF
  nvdla_cbuf u_cbuf (
    .clk, .data_bank(cdma.data_bank), .dwr_en, .dwr_addr, .dwr_data, .wwr_en, .wwr_addr, .wwr_data,
    .drd_en, .drd_addr, .drd_data, .drd2_en, .drd2_data, .wrd_en, .wrd_addr, .wrd_data);

  // ------------------------------------------------------------------ CSC
  logic   set_valid, set_take;
  wset_t  set_w;
  wstep_t set_step;
  nvdla_csc_wt u_csc_wt (
    .clk, .rst_n, .start, .kernels, .groups, .cblocks, .c_last, .kh(steps), .kw, .row_cn(post), .cn_full, .cn_last,
    .rsc, .stripes, .wt_avail, .ring(wt_ring), .rls_base(wt_rls_base),
    .rd_en(wrd_en), .rd_addr(wrd_addr), .rd_data(wrd_data),
    .set_valid, .set_take, .set_w, .set_step);

  logic          stripe_start, stripe_bank, stripe_layer_last;
  logic [4:0]    stripe_np;
  logic [1:0]    bank_busy;
  logic          op_valid, op_pad, op_bank, op_first, op_last;
  logic [2:0]    op_shift, op_seg_lo;
  logic [3:0]    op_seg_n;
  logic [PW-1:0] op_pix;
  wset_t         op_w;
  nvdla_csc u_csc (
    .clk, .rst_n, .start, .image, .bpp, .y_ext, .wch(8'(in_c)), .kh, .width(in_w), .height(in_h), .eps,
    .stride_x(4'(csc.conv_x_stride_ext) + 4'd1), .stride_y(4'(csc.conv_y_stride_ext) + 4'd1),
    .dil_x(6'(csc.x_dilation_ext) + 6'd1), .dil_y(6'(csc.y_dilation_ext) + 6'd1),
    .pad_left(csc.pad_left), .pad_top(csc.pad_top), .out_w(14'(csc.dataout_width) + 14'd1), .out_pixels(out_px),
    .rows_done, .set_valid, .set_take, .set_w, .set_step, .bank_busy,
    .stripe_start, .stripe_bank, .stripe_np, .stripe_layer_last,
    .rd_en(drd_en), .rd2_en(drd2_en), .rd_addr(drd_addr), .op_valid, .op_pad, .op_shift, .op_seg_lo, .op_seg_n, .op_pix, .op_bank, .op_first, .op_last, .op_w);

  // ------------------------------------------------------------------ CMAC, CACC
  logic             mac_valid, mac_bank, mac_first, mac_last;
  psum_t [ATOM-1:0] mac_sum;
  logic [PW-1:0]    mac_pix;
  nvdla_cmac u_cmac (
    .clk, .rst_n, .pad_value(csc.pad_value[7:0]), .in_valid(op_valid), .in_pad(op_pad), .in_data(drd_data), .in_data2(drd2_data),
    .in_shift(op_shift), .in_seg_lo(op_seg_lo), .in_seg_n(op_seg_n),
    .in_w(op_w), .in_pix(op_pix), .in_bank(op_bank), .in_first(op_first), .in_last(op_last),
    .out_valid(mac_valid), .out_sum(mac_sum), .out_pix(mac_pix), .out_bank(mac_bank), .out_first(mac_first),
    .out_last(mac_last));

  nvdla_cacc u_cacc (
    .clk, .rst_n, .start, .truncate(cacc.clip_truncate), .stripe_start, .stripe_bank, .stripe_np,
    .stripe_layer_last, .bank_busy, .in_valid(mac_valid), .in_sum(mac_sum), .in_pix(mac_pix), .in_bank(mac_bank),
    .in_first(mac_first), .in_last(mac_last), .fly_valid, .fly_data, .fly_ready, .fly_last, .layer_done(layer_end),
    .sat_count);

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, cdma, csc, cacc};
  /* verilator lint_on UNUSED */
endmodule
