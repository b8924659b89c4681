// NVDLA testbench top: the DUT and one DPI call per interface per cycle. Bus models are C state machines
// (dpi/); they sample DUT outputs at the rising edge and their outputs are registered here (nonblocking),
// so the DUT sees them as flops. clk and rst_n are driven by the C++ kernel.
`ifndef DUT_TOP
`define DUT_TOP NV_nvdla
`endif
// The DBB's data width in bytes (the DUT description's defines: nv_full has a 512-bit DBB, NVDLA_DBB_BYTES=64) and
// whether the DUT has the second memory port, CVIF (NVDLA_CVIF), which gets its own memory (CVSRAM) in the bench.
`ifndef NVDLA_DBB_BYTES
`define NVDLA_DBB_BYTES 8
`endif
// The DUT's AXI address width (nv_full: 64); the bench's memories take 32-bit addresses, and nvdla_tb_checks
// flags any address with a bit set above them.
`ifndef NVDLA_ADDR_BITS
`define NVDLA_ADDR_BITS 32
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
  // A bus wider than 64 bits (nv_full's DBB, port 0, and CVIF, port 1): data up to 512 bits, zero-extended, and
  // the bus width, which the C side checks against the DUT's features (dbb512).
  import "DPI-C" function void nvdla_axi_wide_tick(
      input int port, input int beat_bytes, input bit awvalid, input byte unsigned awid, input byte unsigned awlen,
      input int unsigned awaddr, input bit wvalid, input bit [511:0] wdata, input longint unsigned wstrb,
      input bit wlast, input bit bready, input bit arvalid, input byte unsigned arid, input byte unsigned arlen,
      input int unsigned araddr, input bit rready,
      output bit awready, output bit wready, output bit bvalid, output byte unsigned bid,
      output bit arready, output bit rvalid, output byte unsigned rid, output bit [511:0] rdata,
      output bit rlast);
  import "DPI-C" function void nvdla_irq_tick(input bit intr);
  localparam int DBB_BYTES = `NVDLA_DBB_BYTES;
  localparam int ADDR_BITS = `NVDLA_ADDR_BITS;

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
  logic [ADDR_BITS-1:0] aw_addr, ar_addr;
  logic [8*DBB_BYTES-1:0] w_data, r_data;
  logic [DBB_BYTES-1:0] w_strb;
  logic        ar_valid, ar_ready, r_valid, r_ready, r_last;
  logic        dla_intr;
`ifdef NVDLA_CVIF
  // CVIF (AXI subset): nv_full's second memory port, to on-chip SRAM (CVSRAM), as wide as the DBB
  logic                   cv_aw_valid, cv_aw_ready, cv_w_valid, cv_w_ready, cv_w_last, cv_b_valid, cv_b_ready;
  logic [7:0]             cv_aw_id, cv_b_id, cv_ar_id, cv_r_id;
  logic [3:0]             cv_aw_len, cv_ar_len;
  logic [ADDR_BITS-1:0]   cv_aw_addr, cv_ar_addr;
  logic [8*DBB_BYTES-1:0] cv_w_data, cv_r_data;
  logic [DBB_BYTES-1:0]   cv_w_strb;
  logic                   cv_ar_valid, cv_ar_ready, cv_r_valid, cv_r_ready, cv_r_last;
`endif

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
`ifdef NVDLA_CVIF
      .nvdla_core2cvsram_aw_awvalid (cv_aw_valid),
      .nvdla_core2cvsram_aw_awready (cv_aw_ready),
      .nvdla_core2cvsram_aw_awid    (cv_aw_id),
      .nvdla_core2cvsram_aw_awlen   (cv_aw_len),
      .nvdla_core2cvsram_aw_awaddr  (cv_aw_addr),
      .nvdla_core2cvsram_w_wvalid   (cv_w_valid),
      .nvdla_core2cvsram_w_wready   (cv_w_ready),
      .nvdla_core2cvsram_w_wdata    (cv_w_data),
      .nvdla_core2cvsram_w_wstrb    (cv_w_strb),
      .nvdla_core2cvsram_w_wlast    (cv_w_last),
      .nvdla_core2cvsram_b_bvalid   (cv_b_valid),
      .nvdla_core2cvsram_b_bready   (cv_b_ready),
      .nvdla_core2cvsram_b_bid      (cv_b_id),
      .nvdla_core2cvsram_ar_arvalid (cv_ar_valid),
      .nvdla_core2cvsram_ar_arready (cv_ar_ready),
      .nvdla_core2cvsram_ar_arid    (cv_ar_id),
      .nvdla_core2cvsram_ar_arlen   (cv_ar_len),
      .nvdla_core2cvsram_ar_araddr  (cv_ar_addr),
      .nvdla_core2cvsram_r_rvalid   (cv_r_valid),
      .nvdla_core2cvsram_r_rready   (cv_r_ready),
      .nvdla_core2cvsram_r_rid      (cv_r_id),
      .nvdla_core2cvsram_r_rlast    (cv_r_last),
      .nvdla_core2cvsram_r_rdata    (cv_r_data),
`endif
      .dla_intr                     (dla_intr),
      .nvdla_pwrbus_ram_c_pd        (32'd0),
      .nvdla_pwrbus_ram_ma_pd       (32'd0),
      .nvdla_pwrbus_ram_mb_pd       (32'd0),
      .nvdla_pwrbus_ram_p_pd        (32'd0),
      .nvdla_pwrbus_ram_o_pd        (32'd0),
      .nvdla_pwrbus_ram_a_pd        (32'd0)
  );

  // DUT-side protocol assertions (the C models check the same rules from their side).
  nvdla_tb_checks #(.DBB_BYTES(DBB_BYTES), .ADDR_BITS(ADDR_BITS)) checks (.*);

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

  if (DBB_BYTES == 8) begin : g_dbb64
    always @(posedge clk) begin : dbb_bfm
      bit awr, wr, bv, arr, rv, rl;
      byte unsigned bi, ri;
      longint unsigned rd;
      nvdla_dbb_tick(aw_valid, aw_id, {4'd0, aw_len}, aw_addr[31:0], w_valid, w_data, w_strb, w_last, b_ready,
                     ar_valid, ar_id, {4'd0, ar_len}, ar_addr[31:0], r_ready,
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
  end else begin : g_dbb_wide
    always @(posedge clk) begin : dbb_bfm
      bit awr, wr, bv, arr, rv, rl;
      byte unsigned bi, ri;
      bit [511:0] rd;
      nvdla_axi_wide_tick(0, DBB_BYTES, aw_valid, aw_id, {4'd0, aw_len}, aw_addr[31:0], w_valid, 512'(w_data),
                          64'(w_strb), w_last, b_ready, ar_valid, ar_id, {4'd0, ar_len}, ar_addr[31:0], r_ready,
                          awr, wr, bv, bi, arr, rv, ri, rd, rl);
      aw_ready <= awr;
      w_ready  <= wr;
      b_valid  <= bv;
      b_id     <= bi;
      ar_ready <= arr;
      r_valid  <= rv;
      r_id     <= ri;
      r_data   <= rd[8*DBB_BYTES-1:0];
      r_last   <= rl;
    end
  end

`ifdef NVDLA_CVIF
  // CVIF: served by its own memory model (the CVSRAM), as the DBB is.
  always @(posedge clk) begin : cvif_bfm
    bit awr, wr, bv, arr, rv, rl;
    byte unsigned bi, ri;
    bit [511:0] rd;
    nvdla_axi_wide_tick(1, DBB_BYTES, cv_aw_valid, cv_aw_id, {4'd0, cv_aw_len}, cv_aw_addr[31:0], cv_w_valid,
                        512'(cv_w_data), 64'(cv_w_strb), cv_w_last, cv_b_ready, cv_ar_valid, cv_ar_id,
                        {4'd0, cv_ar_len}, cv_ar_addr[31:0], cv_r_ready, awr, wr, bv, bi, arr, rv, ri, rd, rl);
    // the CVSRAM's addresses are 32 bits too (the DBB's are checked by nvdla_tb_checks)
    if ((cv_aw_valid && |(cv_aw_addr >> 32)) || (cv_ar_valid && |(cv_ar_addr >> 32)))
      $error("CVIF: address above 4 GiB (aw 0x%0x ar 0x%0x): the bench's CVSRAM takes 32-bit addresses",
             cv_aw_addr, cv_ar_addr);
    cv_aw_ready <= awr;
    cv_w_ready  <= wr;
    cv_b_valid  <= bv;
    cv_b_id     <= bi;
    cv_ar_ready <= arr;
    cv_r_valid  <= rv;
    cv_r_id     <= ri;
    cv_r_data   <= rd[8*DBB_BYTES-1:0];
    cv_r_last   <= rl;
  end
`endif

  always @(posedge clk) nvdla_irq_tick(dla_intr);
endmodule
