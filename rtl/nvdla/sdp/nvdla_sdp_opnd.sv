// SDP operand DMA (BRDMA or NRDMA, spec nvdla_datapath.md 2.3): reads one operand group (8*bpe bytes =
// 1, 2 or 4 beats) per atom, per element or per kernel, and assembles it for the core.
module nvdla_sdp_opnd (
  input  logic         clk,
  input  logic         rst_n,
  input  logic         start,
  input  logic [31:0]  base,
  input  logic [31:0]  line_stride,
  input  logic [31:0]  surf_stride,
  input  logic [12:0]  width,
  input  logic [12:0]  height,
  input  logic [9:0]   surfs,
  input  logic [1:0]   beats,          // bpe - 1
  input  logic         pack,         // per-kernel, or W=H=1
  output logic         grp_valid,
  input  logic         grp_take,
  output logic [255:0] grp,
  // MCIF read client
  output logic         rd_req_valid,
  input  logic         rd_req_ready,
  output logic [31:0]  rd_req_addr,
  input  logic         rd_rsp_valid,
  output logic         rd_rsp_ready,
  input  logic [63:0]  rd_rsp_data
);
  logic        dv, busy;
  logic [63:0] d;
  logic [1:0]  nb;

  nvdla_dp_rdma #(.DEPTH(8)) u_rd (.clk, .rst_n, .start, .base, .line_stride, .surf_stride, .width, .height,
                                   .surfs, .beats, .pack, .busy, .rd_req_valid, .rd_req_ready, .rd_req_addr,
                                   .rd_rsp_valid, .rd_rsp_ready, .rd_rsp_data, .dout_valid(dv),
                                   .dout_ready(!grp_valid), .dout(d));
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      grp_valid <= 1'b0;
      nb        <= '0;
      grp       <= '0;
    end else begin
      if (start) begin
        grp_valid <= 1'b0;
        nb        <= '0;
      end else if (grp_take) grp_valid <= 1'b0;
      else if (!grp_valid && dv) begin
        grp[nb*64 +: 64] <= d;
        nb <= nb == beats ? 2'd0 : nb + 2'd1;
        if (nb == beats) grp_valid <= 1'b1;
      end
    end
  end
  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, busy};
  /* verilator lint_on UNUSED */
endmodule
