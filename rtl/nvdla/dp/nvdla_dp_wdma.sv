// Write client of a datapath engine: takes output atoms in cube order, writes each at its walker address
// (single-beat, whole atom) and counts the B acks. done = every atom of the cube consumed and every write
// acknowledged (the engines raise their interrupt after the B response of the last write). With
// nowrite=1 (SDP output streamed on the fly to PDP) atoms are consumed without memory traffic.
module nvdla_dp_wdma #(
  parameter bit PIXEL_MAJOR = 1'b0     // 1: nvdla_dp_walk_px order (CDP)
) (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        start,
  input  logic        nowrite,
  input  logic [31:0] base,
  input  logic [31:0] line_stride,
  input  logic [31:0] surf_stride,
  input  logic [12:0] width,
  input  logic [12:0] height,
  input  logic [9:0]  surfs,
  input  logic        pack,
  output logic        done,              // one-cycle pulse
  // atoms
  input  logic        din_valid,
  output logic        din_ready,
  input  logic [63:0] din,
  // MCIF write client
  output logic        wr_req_valid,
  input  logic        wr_req_ready,
  output logic [31:0] wr_req_addr,
  output logic [63:0] wr_req_data,
  input  logic        wr_ack
);
  logic        active, last, nw, finishing;
  logic [31:0] outstanding;

  wire take = din_valid && din_ready;
  if (PIXEL_MAJOR) begin : g_px
    nvdla_dp_walk_px u_walk (.clk, .rst_n, .start, .base, .line_stride, .surf_stride, .width, .height, .surfs,
                             .step(take), .active, .addr(wr_req_addr), .last);
    /* verilator lint_off UNUSED */
    wire unused_px = &{1'b0, pack};
    /* verilator lint_on UNUSED */
  end else begin : g_cube
    nvdla_dp_walk u_walk (.clk, .rst_n, .start, .base, .line_stride, .surf_stride, .width, .height, .surfs,
                          .beats(2'd0), .pack, .step(take), .active, .addr(wr_req_addr), .last);
  end
  assign wr_req_valid = active && din_valid && !nw;
  assign din_ready    = active && (nw || wr_req_ready);
  assign wr_req_data  = din;

  wire issue = wr_req_valid && wr_req_ready;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      outstanding <= '0;
      nw          <= 1'b0;
      finishing   <= 1'b0;
      done        <= 1'b0;
    end else begin
      done <= 1'b0;
      if (start) nw <= nowrite;
      if (issue != wr_ack) outstanding <= issue ? outstanding + 1 : outstanding - 1;
      if (take && last) finishing <= 1'b1;
      if (finishing && outstanding == 0 && !done) begin
        finishing <= 1'b0;
        done      <= 1'b1;
      end
    end
  end
endmodule
