// CDMA weight fetch: D_WEIGHT_BYTES bytes from D_WEIGHT_ADDR (the format's padding included, as nv_small
// fetches it) into CBUF weight entries 0, 1, ... in order, one 8-byte entry a request. entries_done lets CSC
// read a weight entry as soon as it is written.
module nvdla_cdma_wt
  import nvdla_conv_pkg::*;
(
  input  logic                clk,
  input  logic                rst_n,
  input  logic                start,
  input  logic [31:0]         base,
  input  logic [CBUF_AW:0]    entries,        // ceil(D_WEIGHT_BYTES / 8)
  output logic                done,           // all entries written (level until the next start)
  output logic [CBUF_AW:0]    entries_done,
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
  logic [CBUF_AW:0] issued, total;
  logic [31:0]      addr;
  logic             active;                 // requests left to issue

  assign rd_req_valid = active;
  assign rd_req_addr  = addr;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {issued, total, addr, active, entries_done} <= '0;
    end else if (start) begin
      issued <= '0;
      total <= entries;
      addr <= base;
      active <= entries != '0;
      entries_done <= '0;
    end else begin
      if (rd_req_valid && rd_req_ready) begin
        issued <= issued + 1'b1;
        addr <= addr + 32'd8;
        if (issued + 1'b1 == total) active <= 1'b0;
      end
      if (rd_rsp_valid) entries_done <= entries_done + 1'b1;
    end
  end
  assign done         = !active && entries_done == total;
  assign rd_rsp_ready = 1'b1;
  assign cbuf_wr_en   = rd_rsp_valid;
  assign cbuf_wr_addr = entries_done[CBUF_AW-1:0];
  assign cbuf_wr_data = rd_rsp_data;
endmodule
