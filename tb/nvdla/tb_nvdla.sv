// NVDLA testbench top: the DUT and one DPI call per interface per cycle. Bus models are C state machines
// (dpi/); they sample DUT outputs at the rising edge and their outputs are registered here (nonblocking),
// so the DUT sees them as flops. clk and rst_n are driven by the C++ kernel.
`ifndef DUT_TOP
`define DUT_TOP NV_nvdla
`endif
module tb_nvdla (
    input logic clk,
    // The DUT resets asynchronously on rst_n, the bench's monitors sample it on clk: both by design
    // (Verilator 5.049 on warns, 5.006 does not).
    /* verilator lint_off SYNCASYNCNET */
    input logic rst_n
    /* verilator lint_on SYNCASYNCNET */
);
  import "DPI-C" function void nvdla_csb_tick(
      input bit ready, input bit rvalid, input int unsigned rdata, input bit wr_complete,
      output bit valid, output shortint unsigned addr, output int unsigned wdat, output bit write,
      output bit nposted);
  import "DPI-C" function void nvdla_dbb_tick(
      input bit awvalid, input byte unsigned awid, input byte unsigned awlen, input int unsigned awaddr,
      input bit wvalid, input longint unsigned wdata, input byte unsigned wstrb, input bit wlast,
      input bit bready, input bit arvalid, input byte unsigned arid, input byte unsigned arlen,
      input int unsigned araddr, input bit rready,
      output bit awready, output bit wready, output bit bvalid, output byte unsigned bid,
      output bit arready, output bit rvalid, output byte unsigned rid, output longint unsigned rdata,
      output bit rlast);
  import "DPI-C" function void nvdla_irq_tick(input bit intr);

  // CSB
  logic        csb_valid, csb_ready, csb_write, csb_nposted;
  logic [15:0] csb_addr;
  logic [31:0] csb_wdat;
  logic        csb_rvalid, csb_wr_complete;
  logic [31:0] csb_rdata;
  // DBB (AXI subset)
  logic        aw_valid, aw_ready, w_valid, w_ready, w_last, b_valid, b_ready;
  logic [7:0]  aw_id, b_id, ar_id, r_id;
  logic [3:0]  aw_len, ar_len;
  logic [31:0] aw_addr, ar_addr;
  logic [63:0] w_data, r_data;
  logic [7:0]  w_strb;
  logic        ar_valid, ar_ready, r_valid, r_ready, r_last;
  logic        dla_intr;

  // The DUT's top module comes from its description (tb/nvdla/duts/*.dut, `top`).
  `DUT_TOP dut (
      .dla_core_clk                 (clk),
      .dla_csb_clk                  (clk),
      .global_clk_ovr_on            (1'b0),
      .tmc2slcg_disable_clock_gating(1'b0),
      .dla_reset_rstn               (rst_n),
      .direct_reset_                (rst_n),
      .test_mode                    (1'b0),
      .csb2nvdla_valid              (csb_valid),
      .csb2nvdla_ready              (csb_ready),
      .csb2nvdla_addr               (csb_addr),
      .csb2nvdla_wdat               (csb_wdat),
      .csb2nvdla_write              (csb_write),
      .csb2nvdla_nposted            (csb_nposted),
      .nvdla2csb_valid              (csb_rvalid),
      .nvdla2csb_data               (csb_rdata),
      .nvdla2csb_wr_complete        (csb_wr_complete),
      .nvdla_core2dbb_aw_awvalid    (aw_valid),
      .nvdla_core2dbb_aw_awready    (aw_ready),
      .nvdla_core2dbb_aw_awid       (aw_id),
      .nvdla_core2dbb_aw_awlen      (aw_len),
      .nvdla_core2dbb_aw_awaddr     (aw_addr),
      .nvdla_core2dbb_w_wvalid      (w_valid),
      .nvdla_core2dbb_w_wready      (w_ready),
      .nvdla_core2dbb_w_wdata       (w_data),
      .nvdla_core2dbb_w_wstrb       (w_strb),
      .nvdla_core2dbb_w_wlast       (w_last),
      .nvdla_core2dbb_b_bvalid      (b_valid),
      .nvdla_core2dbb_b_bready      (b_ready),
      .nvdla_core2dbb_b_bid         (b_id),
      .nvdla_core2dbb_ar_arvalid    (ar_valid),
      .nvdla_core2dbb_ar_arready    (ar_ready),
      .nvdla_core2dbb_ar_arid       (ar_id),
      .nvdla_core2dbb_ar_arlen      (ar_len),
      .nvdla_core2dbb_ar_araddr     (ar_addr),
      .nvdla_core2dbb_r_rvalid      (r_valid),
      .nvdla_core2dbb_r_rready      (r_ready),
      .nvdla_core2dbb_r_rid         (r_id),
      .nvdla_core2dbb_r_rlast       (r_last),
      .nvdla_core2dbb_r_rdata       (r_data),
      .dla_intr                     (dla_intr),
      .nvdla_pwrbus_ram_c_pd        (32'd0),
      .nvdla_pwrbus_ram_ma_pd       (32'd0),
      .nvdla_pwrbus_ram_mb_pd       (32'd0),
      .nvdla_pwrbus_ram_p_pd        (32'd0),
      .nvdla_pwrbus_ram_o_pd        (32'd0),
      .nvdla_pwrbus_ram_a_pd        (32'd0)
  );

  // DUT-side protocol assertions (the C models check the same rules from their side).
  nvdla_tb_checks checks (.*);

  always @(posedge clk) begin : csb_bfm
    bit v, w, np;
    shortint unsigned a;
    int unsigned d;
    nvdla_csb_tick(csb_ready, csb_rvalid, csb_rdata, csb_wr_complete, v, a, d, w, np);
    csb_valid   <= v;
    csb_addr    <= a;
    csb_wdat    <= d;
    csb_write   <= w;
    csb_nposted <= np;
  end

  always @(posedge clk) begin : dbb_bfm
    bit awr, wr, bv, arr, rv, rl;
    byte unsigned bi, ri;
    longint unsigned rd;
    nvdla_dbb_tick(aw_valid, aw_id, {4'd0, aw_len}, aw_addr, w_valid, w_data, w_strb, w_last, b_ready,
                   ar_valid, ar_id, {4'd0, ar_len}, ar_addr, r_ready,
                   awr, wr, bv, bi, arr, rv, ri, rd, rl);
    aw_ready <= awr;
    w_ready  <= wr;
    b_valid  <= bv;
    b_id     <= bi;
    ar_ready <= arr;
    r_valid  <= rv;
    r_id     <= ri;
    r_data   <= rd;
    r_last   <= rl;
  end

  always @(posedge clk) nvdla_irq_tick(dla_intr);
endmodule
