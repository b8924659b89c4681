// NE16 top (spec ne16.md 1.1): APB4 control plane, two job contexts, engine, and the 9 lock-stepped
// 32-bit HWPE-Mem ports that carry one 36-byte transaction per handshake (D4, rules M1-M7).
module ne16_top
  import ne16_pkg::*;
  import ne16_regs_pkg::*;
(
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             psel_i,
  input  logic             penable_i,
  input  logic             pwrite_i,
  input  logic [31:0]      paddr_i,
  input  logic [31:0]      pwdata_i,
  input  logic [3:0]       pstrb_i,
  input  logic [2:0]       pprot_i,
  output logic             pready_o,
  output logic             pslverr_o,
  output logic [31:0]      prdata_o,
  output logic [8:0]       tcdm_req_o,
  input  logic [8:0]       tcdm_gnt_i,
  output logic [8:0][31:0] tcdm_add_o,
  output logic [8:0]       tcdm_wen_o,
  output logic [8:0][3:0]  tcdm_be_o,
  output logic [8:0][31:0] tcdm_data_o,
  input  logic [8:0][31:0] tcdm_r_data_i,
  input  logic [8:0]       tcdm_r_valid_i,
  output logic             evt_done_o,
  output logic             busy_o,
  output logic [7:0]       sw_evt_o
);
  logic        start, clear, done;
  logic [7:0]  err;
  job_regs_t   job_regs;
  logic        req, wen;
  logic [31:0] add;
  logic [35:0] be;
  logic [287:0] wdata, rdata;

  ne16_ctrl i_ctrl (
    .clk_i, .rst_ni, .psel_i, .penable_i, .pwrite_i, .paddr_i, .pwdata_i, .pstrb_i,
    .pready_o, .pslverr_o, .prdata_o,
    .start_o(start), .job_regs_o(job_regs), .clear_o(clear), .done_i(done), .err_i(err),
    .evt_done_o, .busy_o, .sw_evt_o
  );

  ne16_engine i_engine (
    .clk_i, .rst_ni, .clear_i(clear), .start_i(start), .regs_i(job_regs), .done_o(done), .err_o(err),
    .req_o(req), .add_o(add), .wen_o(wen), .be_o(be), .wdata_o(wdata),
    .gnt_i(tcdm_gnt_i[0]), .r_valid_i(tcdm_r_valid_i[0]), .r_data_i(rdata)
  );

  for (genvar i = 0; i < NPORT; i++) begin : g_port
    assign tcdm_req_o[i] = req;
    assign tcdm_add_o[i] = add + 32'(4 * i);
    assign tcdm_wen_o[i] = wen;
    assign tcdm_be_o[i] = be[4*i +: 4];
    assign tcdm_data_o[i] = wdata[32*i +: 32];
    assign rdata[32*i +: 32] = tcdm_r_data_i[i];
  end

  // All ports are granted together (M2); only port 0's handshake bits are used.
  logic unused;
  assign unused = ^{pprot_i, tcdm_gnt_i[8:1], tcdm_r_valid_i[8:1]};
endmodule
