// CDMA weight fetch: D_WEIGHT_BYTES bytes from D_WEIGHT_ADDR (the format's padding included, as nv_small
// fetches it) into the CBUF weight ring, one 8-byte entry a request, weight entry e of the layer at ring entry
// e mod ring. Weights larger than the ring stream through it: a request for entry e is issued only once
// e < rls_base + ring, rls_base being the first entry CSC has not released (it releases a kernel group when its
// last stripe is done), so a write never lands on a weight CSC still needs. entries_done lets CSC read a weight
// entry as soon as it is written.
module nvdla_cdma_wt
  import nvdla_conv_pkg::*;
(
  input  logic                clk,
  input  logic                rst_n,
  input  logic                start,
  input  logic [31:0]         base,
  input  logic [WT_CW-1:0]    entries,        // ceil(D_WEIGHT_BYTES / 8)
  input  logic [CBUF_AW:0]    ring,           // weight ring entries: (WEIGHT_BANK + 1) x 512
  input  logic [WT_CW-1:0]    rls_base,       // entries below it are released by CSC
  output logic                done,           // all entries written (level until the next start)
  output logic [WT_CW-1:0]    entries_done,
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
  logic [WT_CW-1:0]   issued, total;
  logic [CBUF_AW-1:0] waddr;                  // ring entry of the next write
  logic [31:0]        addr;
  logic               active;                 // requests left to issue

  wire room = {1'b0, issued} < {1'b0, rls_base} + (WT_CW+1)'(ring);
  assign rd_req_valid = active && room;
  assign rd_req_addr  = addr;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {issued, total, waddr, addr, active, entries_done} <= '0;
    end else if (start) begin
      issued <= '0;
      total <= entries;
      waddr <= '0;
      addr <= base;
      active <= entries != '0;
      entries_done <= '0;
    end else begin
      if (rd_req_valid && rd_req_ready) begin
        issued <= issued + 1'b1;
        addr <= addr + 32'd8;
        if (issued + 1'b1 == total) active <= 1'b0;
      end
      if (rd_rsp_valid) begin
        entries_done <= entries_done + 1'b1;
        waddr <= {1'b0, waddr} + 1'b1 == ring ? '0 : waddr + 1'b1;
      end
    end
  end
  assign done         = !active && entries_done == total;
  assign rd_rsp_ready = 1'b1;
  assign cbuf_wr_en   = rd_rsp_valid;
  assign cbuf_wr_addr = waddr;
  assign cbuf_wr_data = rd_rsp_data;
endmodule
