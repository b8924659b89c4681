// NE16 testbench top: ne16_top and one DPI call per interface per cycle, in a fixed order inside one
// always block (events, then APB, then TCDM: the C side relies on it, see ne16_tb.c). Bus-model outputs
// are registered here (nonblocking), so the DUT sees them as flops. clk and rst_n come from the C++ kernel.
`ifndef DUT_TOP
`define DUT_TOP ne16_top
`endif
module tb_ne16 (
    input logic clk,
    input logic rst_n
);
  import "DPI-C" function void ne16_evt_tick(input bit evt_done, input bit busy, input byte unsigned sw_evt);
  import "DPI-C" function void ne16_apb_tick(
      input bit pready, input bit pslverr, input int unsigned prdata,
      output bit psel, output bit penable, output bit pwrite, output int unsigned paddr,
      output int unsigned pwdata, output byte unsigned pstrb);
  import "DPI-C" function void ne16_tcdm_tick(
      input shortint unsigned req, input shortint unsigned wen, input longint unsigned be,
      input bit [287:0] add, input bit [287:0] wdata,
      output shortint unsigned gnt, output shortint unsigned r_valid, output bit [287:0] r_data);

  // APB
  logic        psel, penable, pwrite, pready, pslverr;
  logic [31:0] paddr, pwdata, prdata;
  logic [3:0]  pstrb;
  // TCDM, 9 lock-stepped ports
  logic [8:0]       tcdm_req, tcdm_gnt, tcdm_gnt_offer, tcdm_wen, tcdm_r_valid;
  logic [8:0][31:0] tcdm_add, tcdm_data, tcdm_r_data;
  logic [8:0][3:0]  tcdm_be;
  // events
  logic        evt_done, busy;
  logic [7:0]  sw_evt;

  // The DUT's top module comes from its description (tb/ne16/duts/*.dut, `top`).
  `DUT_TOP dut (
      .clk_i         (clk),
      .rst_ni        (rst_n),
      .psel_i        (psel),
      .penable_i     (penable),
      .pwrite_i      (pwrite),
      .paddr_i       (paddr),
      .pwdata_i      (pwdata),
      .pstrb_i       (pstrb),
      .pprot_i       (3'b000),
      .pready_o      (pready),
      .pslverr_o     (pslverr),
      .prdata_o      (prdata),
      .tcdm_req_o    (tcdm_req),
      .tcdm_gnt_i    (tcdm_gnt),
      .tcdm_add_o    (tcdm_add),
      .tcdm_wen_o    (tcdm_wen),
      .tcdm_be_o     (tcdm_be),
      .tcdm_data_o   (tcdm_data),
      .tcdm_r_data_i (tcdm_r_data),
      .tcdm_r_valid_i(tcdm_r_valid),
      .evt_done_o    (evt_done),
      .busy_o        (busy),
      .sw_evt_o      (sw_evt)
  );

  // The memory's grant offer (ne16_tcdm_tick) reaches a port only while it requests: HWPE-Mem lets gnt
  // depend combinationally on req, and PULP's streamers rely on "no gnt without req" (hci/rtl/core/
  // hci_core_fifo.sv:163 pops a request on gnt alone); a handshake is req && gnt either way.
  assign tcdm_gnt = tcdm_gnt_offer & tcdm_req;

  // DUT-side assertions of spec 6.3 (the C models check the same rules from their side).
  ne16_tb_checks checks (.*);

  always @(posedge clk) begin : bfm
    bit p_sel, p_en, p_wr;
    int unsigned p_addr, p_wdata;
    byte unsigned p_strb;
    shortint unsigned g, v;
    bit [287:0] rd;
    ne16_evt_tick(evt_done, busy, sw_evt);
    ne16_apb_tick(pready, pslverr, prdata, p_sel, p_en, p_wr, p_addr, p_wdata, p_strb);
    ne16_tcdm_tick({7'd0, tcdm_req}, {7'd0, tcdm_wen}, {28'd0, tcdm_be}, tcdm_add, tcdm_data, g, v, rd);
    psel         <= p_sel;
    penable      <= p_en;
    pwrite       <= p_wr;
    paddr        <= p_addr;
    pwdata       <= p_wdata;
    pstrb        <= p_strb[3:0];
    tcdm_gnt_offer <= g[8:0];
    tcdm_r_valid <= v[8:0];
    tcdm_r_data  <= rd;
  end
endmodule
