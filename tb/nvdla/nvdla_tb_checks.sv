// DUT-side protocol assertions on the NVDLA CSB and DBB ports (spec nvdla.md §3). They complement the C
// models' checks: these see the DUT's outputs directly, every cycle, and count as Verilator errors.
// DBB_BYTES: the DBB's data width in bytes (8 on nv_small and ours, 64 on nv_full); ADDR_BITS its address width
// (32; nv_full 64: the bench's memory takes 32-bit addresses, so a bit set above them is an error).
module nvdla_tb_checks #(
    parameter int DBB_BYTES = 8,
    parameter int ADDR_BITS = 32
) (
    input logic        clk,
    input logic        rst_n,
    input logic        csb_rvalid,
    input logic        csb_wr_complete,
    input logic        aw_valid,
    input logic        aw_ready,
    input logic [7:0]  aw_id,
    input logic [3:0]  aw_len,
    input logic [ADDR_BITS-1:0] aw_addr,
    input logic        w_valid,
    input logic        w_ready,
    input logic [8*DBB_BYTES-1:0] w_data,
    input logic [DBB_BYTES-1:0] w_strb,
    input logic        w_last,
    input logic        ar_valid,
    input logic        ar_ready,
    input logic [7:0]  ar_id,
    input logic [3:0]  ar_len,
    input logic [ADDR_BITS-1:0] ar_addr,
    input logic        dla_intr
);
  logic        aw_pend, w_pend, ar_pend;
  logic [ADDR_BITS+15:0] aw_hold, ar_hold;
  logic [9*DBB_BYTES:0] w_hold;

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
      if ((aw_valid && |(aw_addr >> 32)) || (ar_valid && |(ar_addr >> 32)))
        $error("DBB: address above 4 GiB (aw 0x%0x ar 0x%0x): the bench's memory takes 32-bit addresses", aw_addr,
               ar_addr);
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
