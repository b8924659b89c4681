// CDP with CDP_RDMA, nv_small INT8 (spec nvdla_datapath.md 4). The RDMA (id 3) reads the cube
// pixel-major (every surface of a pixel in turn) so that the LRN window can cross surfaces; the core
// (nvdla_cdp_core) produces one element per cycle; the write DMA (id 3) writes the atoms back in the same
// order. The cube size is CDP_RDMA's (CDP has no copy). Done after the B response of the last write;
// CDP_RDMA completes with it.
module nvdla_cdp
  import nvdla_regs_pkg::*;
(
  input  logic        clk,
  input  logic        rst_n,
  input  cdp_d_t      cfg,
  input  cdp_s_t      scfg,
  input  cdp_rdma_d_t rcfg,
  input  logic        op_en,
  input  logic        rdma_op_en,
  output logic        done,
  output logic        rdma_done,
  output cdp_res_t    res,
  // LUT read ports
  output logic [6:0]  le_idx,
  input  logic [15:0] le_d0,
  input  logic [15:0] le_d1,
  output logic [8:0]  lo_idx,
  input  logic [15:0] lo_d0,
  input  logic [15:0] lo_d1,
  // MCIF read and write clients
  output logic        rd_req_valid,
  input  logic        rd_req_ready,
  output logic [31:0] rd_req_addr,
  input  logic        rd_rsp_valid,
  output logic        rd_rsp_ready,
  input  logic [63:0] rd_rsp_data,
  output logic        wr_req_valid,
  input  logic        wr_req_ready,
  output logic [31:0] wr_req_addr,
  output logic [63:0] wr_req_data,
  input  logic        wr_ack
);
  typedef enum logic [1:0] {IDLE, RUN, FIN} state_t;
  state_t state;
  logic   wdma_done;
  wire    start = state == IDLE && op_en && rdma_op_en;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) state <= IDLE;
    else case (state)
      IDLE:    if (start) state <= RUN;
      RUN:     if (wdma_done) state <= FIN;
      default: state <= IDLE;               // FIN: the done pulse
    endcase
  end
  assign done      = state == FIN;
  assign rdma_done = done;

  logic        in_valid, in_ready, rd_busy, out_valid, out_ready;
  logic [63:0] in_data, out_data;
  logic [31:0] rd_addr, wr_addr;
  nvdla_dp_rdma #(.DEPTH(8), .PIXEL_MAJOR(1'b1)) u_rdma (
    .clk, .rst_n, .start, .base(rcfg.src_base_addr_low), .line_stride(rcfg.src_line_stride),
    .surf_stride(rcfg.src_surface_stride), .width(rcfg.width), .height(rcfg.height),
    .surfs(rcfg.channel[12:3]), .beats(2'd0), .pack(1'b0), .busy(rd_busy),
    .rd_req_valid, .rd_req_ready, .rd_req_addr(rd_addr), .rd_rsp_valid, .rd_rsp_ready, .rd_rsp_data,
    .dout_valid(in_valid), .dout_ready(in_ready), .dout(in_data));
  assign rd_req_addr = {rd_addr[31:3], 3'd0};     // the MCIF aligns down (illegal unaligned settings)

  nvdla_cdp_core u_core (
    .clk, .rst_n, .start, .cfg, .scfg, .c_m1(rcfg.channel), .in_valid, .in_ready, .in_data,
    .le_idx, .le_d0, .le_d1, .lo_idx, .lo_d0, .lo_d1, .out_valid, .out_ready, .out_data);

  nvdla_dp_wdma #(.PIXEL_MAJOR(1'b1)) u_wdma (
    .clk, .rst_n, .start, .nowrite(1'b0), .base(cfg.dst_base_addr_low), .line_stride(cfg.dst_line_stride),
    .surf_stride(cfg.dst_surface_stride), .width(rcfg.width), .height(rcfg.height),
    .surfs(rcfg.channel[12:3]), .pack(1'b0), .done(wdma_done), .din_valid(out_valid), .din_ready(out_ready),
    .din(out_data), .wr_req_valid, .wr_req_ready, .wr_req_addr(wr_addr), .wr_req_data, .wr_ack);
  assign wr_req_addr = {wr_addr[31:3], 3'd0};

  assign res = '0;                          // perf/status counters are informational, not modelled

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, rd_busy, rd_addr[2:0], wr_addr[2:0], rcfg};
  /* verilator lint_on UNUSED */
endmodule
