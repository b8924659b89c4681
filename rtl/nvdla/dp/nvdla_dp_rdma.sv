// Read client of a datapath engine: walks a cube (nvdla_dp_walk) and issues single-beat 8-byte reads to
// the MCIF, with a credit per FIFO slot so that every returning beat has room (the MCIF read-return path
// is shared: a client that could not accept its data would stall every other client). Data comes out in
// request order as 64-bit beats.
module nvdla_dp_rdma #(
  parameter int DEPTH = 16,
  parameter bit PIXEL_MAJOR = 1'b0     // 1: nvdla_dp_walk_px order (CDP)
) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        start,
  input  logic [31:0] base,
  input  logic [31:0] line_stride,
  input  logic [31:0] surf_stride,
  input  logic [12:0] width,
  input  logic [12:0] height,
  input  logic [9:0]  surfs,
  input  logic [1:0]  beats,
  input  logic        pack,
  output logic        busy,             // requests still to issue
  // MCIF read client
  output logic        rd_req_valid,
  input  logic        rd_req_ready,
  output logic [31:0] rd_req_addr,
  input  logic        rd_rsp_valid,
  output logic        rd_rsp_ready,
  input  logic [63:0] rd_rsp_data,
  // data beats
  output logic        dout_valid,
  input  logic        dout_ready,
  output logic [63:0] dout
);
  localparam int CW = $clog2(DEPTH + 1);
  logic          active, last, full, empty;
  logic [CW-1:0] credits, count;          // credits = beats requested and not yet popped

  if (PIXEL_MAJOR) begin : g_px
    nvdla_dp_walk_px u_walk (.clk, .rst_n, .start, .base, .line_stride, .surf_stride, .width, .height, .surfs,
                             .step(rd_req_valid && rd_req_ready), .active, .addr(rd_req_addr), .last);
    /* verilator lint_off UNUSED */
    wire unused_px = &{1'b0, beats, pack};
    /* verilator lint_on UNUSED */
  end else begin : g_cube
    nvdla_dp_walk u_walk (.clk, .rst_n, .start, .base, .line_stride, .surf_stride, .width, .height, .surfs,
                          .beats, .pack, .step(rd_req_valid && rd_req_ready), .active, .addr(rd_req_addr),
                          .last);
  end
  assign busy         = active;
  assign rd_req_valid = active && credits < CW'(DEPTH);
  assign rd_rsp_ready = !full;

  wire pop = dout_valid && dout_ready;
  sync_fifo #(.WIDTH(64), .DEPTH(DEPTH)) u_fifo (.clk, .rst_n, .push(rd_rsp_valid && !full), .wr_data(rd_rsp_data),
                                                 .pop, .rd_data(dout), .full, .empty, .count);
  assign dout_valid = !empty;

  wire issue = rd_req_valid && rd_req_ready;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) credits <= '0;
    else if (issue != pop) credits <= issue ? credits + 1'b1 : credits - 1'b1;
  end

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, last, count};
  /* verilator lint_on UNUSED */
endmodule
