// DUT-side protocol assertions on the NVDLA CSB and DBB ports (spec nvdla.md §3). They complement the C
// models' checks: these see the DUT's outputs directly, every cycle, and count as Verilator errors.
module nvdla_tb_checks (
    input logic        clk,
    input logic        rst_n,
    input logic        csb_rvalid,
    input logic        csb_wr_complete,
    input logic        aw_valid,
    input logic        aw_ready,
    input logic [7:0]  aw_id,
    input logic [3:0]  aw_len,
    input logic [31:0] aw_addr,
    input logic        w_valid,
    input logic        w_ready,
    input logic [63:0] w_data,
    input logic [7:0]  w_strb,
    input logic        w_last,
    input logic        ar_valid,
    input logic        ar_ready,
    input logic [7:0]  ar_id,
    input logic [3:0]  ar_len,
    input logic [31:0] ar_addr,
    input logic        dla_intr
);
  logic        aw_pend, w_pend, ar_pend;
  logic [47:0] aw_hold, ar_hold;
  logic [72:0] w_hold;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      aw_pend <= 1'b0;
      w_pend  <= 1'b0;
      ar_pend <= 1'b0;
    end else begin
      // One response stream: never read data and a write completion in the same cycle.
      if (csb_rvalid && csb_wr_complete) $error("CSB: nvdla2csb_valid and wr_complete in the same cycle");
      // A valid stays up, with a stable payload, until its handshake.
      if (aw_pend && !aw_valid) $error("DBB AW: awvalid withdrawn before awready");
      if (aw_pend && aw_valid && {aw_id, aw_len, aw_addr, 4'd0} != aw_hold)
        $error("DBB AW: payload changed while awvalid && !awready");
      if (w_pend && !w_valid) $error("DBB W: wvalid withdrawn before wready");
      if (w_pend && w_valid && {w_data, w_strb, w_last} != w_hold)
        $error("DBB W: payload changed while wvalid && !wready");
      if (ar_pend && !ar_valid) $error("DBB AR: arvalid withdrawn before arready");
      if (ar_pend && ar_valid && {ar_id, ar_len, ar_addr, 4'd0} != ar_hold)
        $error("DBB AR: payload changed while arvalid && !arready");
      if (aw_valid && aw_addr[2:0] != 3'd0) $error("DBB AW: address 0x%08x not 8-byte aligned", aw_addr);
      if (ar_valid && ar_addr[2:0] != 3'd0) $error("DBB AR: address 0x%08x not 8-byte aligned", ar_addr);
      aw_pend <= aw_valid && !aw_ready;
      w_pend  <= w_valid && !w_ready;
      ar_pend <= ar_valid && !ar_ready;
      aw_hold <= {aw_id, aw_len, aw_addr, 4'd0};
      w_hold  <= {w_data, w_strb, w_last};
      ar_hold <= {ar_id, ar_len, ar_addr, 4'd0};
    end
  end

  // dla_intr is an output; referenced so a later check can use it without changing the port list.
  logic unused_ok;
  assign unused_ok = dla_intr;
endmodule
