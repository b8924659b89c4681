// CDMA feature fetch (direct convolution): reads the input cube slice by slice (line y of every 8-channel
// surface, W atoms each) over the DBB, one 8-byte atom per request, and writes it into the CBUF data banks in
// arrival order, so that slice y occupies entries y*EPS .. y*EPS+EPS-1 (surface-major inside the slice,
// EPS = W x surfaces = D_ENTRY_PER_SLICE + 1). rows_done counts the complete slices: CSC starts on a row as
// soon as it is in (fetch and compute overlap). Read data is always accepted, as the shared MCIF return path
// requires. With CVT_EN every byte goes through CDMA's input converter on its way to the CBUF, as nv_small's
// does for feature data too (NV_NVDLA_CDMA_cvt.v: cvt_wr_en includes dc2cvt_dat_wr_en; the direct path's
// info_pd has mean 0 and uint 0, NV_NVDLA_CDMA_dc.v:2751-2752): sat8(round((int8 - CVT_OFFSET) x scale >> truncate)).
module nvdla_cdma_dat
  import nvdla_conv_pkg::*;
  import nvdla_dp_pkg::*;
(
  input  logic                clk,
  input  logic                rst_n,
  input  logic                start,
  input  logic [31:0]         base,
  input  logic [31:0]         line_stride,
  input  logic [31:0]         surf_stride,
  input  logic [13:0]         width,          // atoms a line
  input  logic [13:0]         height,         // lines
  input  logic [10:0]         surfs,          // 8-channel surfaces
  input  logic [14:0]         eps,            // CBUF entries a slice (width x surfs)
  input  logic                cvt_en,
  input  logic [5:0]          truncate,
  input  logic [15:0]         offset, scale,
  output logic                done,           // every slice is in the CBUF (level until the next start)
  output logic [13:0]         rows_done,
  // MCIF read client
  output logic                rd_req_valid,
  input  logic                rd_req_ready,
  output logic [31:0]         rd_req_addr,
  input  logic                rd_rsp_valid,
  output logic                rd_rsp_ready,
  input  logic [63:0]         rd_rsp_data,
  // CBUF data write
  output logic                cbuf_wr_en,
  output logic [CBUF_AW-1:0]  cbuf_wr_addr,
  output logic [63:0]         cbuf_wr_data
);
  logic        active;
  logic [13:0] x, y;
  logic [10:0] sf;
  logic [31:0] line_addr, surf_addr;
  logic [14:0] in_row;
  logic [CBUF_AW-1:0] wr_ptr;

  wire step = rd_req_valid && rd_req_ready;
  wire x_end = x == width - 14'd1, sf_end = sf == surfs - 11'd1, y_end = y == height - 14'd1;
  assign rd_req_valid = active;
  assign rd_req_addr  = surf_addr + {15'd0, x, 3'd0};

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      active <= 1'b0;
      {x, y, sf, line_addr, surf_addr} <= '0;
    end else if (start) begin
      active <= 1'b1;
      {x, y, sf} <= '0;
      line_addr <= base;
      surf_addr <= base;
    end else if (step) begin
      x <= x_end ? 14'd0 : x + 14'd1;
      if (x_end) begin
        sf <= sf_end ? 11'd0 : sf + 11'd1;
        surf_addr <= sf_end ? line_addr + line_stride : surf_addr + surf_stride;
        if (sf_end) begin
          y <= y + 14'd1;
          line_addr <= line_addr + line_stride;
          if (y_end) active <= 1'b0;
        end
      end
    end
  end

  // responses, in request order: CBUF entries in order, slices counted
  assign rd_rsp_ready = 1'b1;
  assign cbuf_wr_en   = rd_rsp_valid;
  assign cbuf_wr_addr = wr_ptr;
  always_comb
    for (int b = 0; b < 8; b++) begin
      logic signed [63:0] d;
      d = 64'($signed(rd_rsp_data[b*8 +: 8])) - 64'($signed(offset));
      cbuf_wr_data[b*8 +: 8] = cvt_en ? 8'(sat(rsr(d * 64'($signed(scale)), truncate, 34, 17), 8)) : rd_rsp_data[b*8 +: 8];
    end
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {wr_ptr, in_row, rows_done} <= '0;
    end else if (start) begin
      {wr_ptr, in_row, rows_done} <= '0;
    end else if (rd_rsp_valid) begin
      wr_ptr <= wr_ptr + 1'b1;
      in_row <= in_row == eps - 15'd1 ? 15'd0 : in_row + 15'd1;
      if (in_row == eps - 15'd1) rows_done <= rows_done + 14'd1;
    end
  end
  assign done = rows_done == height;
endmodule
