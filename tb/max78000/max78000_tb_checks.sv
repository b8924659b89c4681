// DUT-side APB4 protocol assertions for the MAX78000 CNN slave (spec max78000.md 1.1, D04, D05). They see
// the wires every cycle and count as Verilator errors; the C APB master checks the transfers from its side.
module max78000_tb_checks (
    input logic        clk,
    input logic        rst_n,
    input logic        psel,
    input logic        penable,
    input logic        pwrite,
    input logic [31:0] paddr,
    input logic [31:0] pwdata,
    input logic [3:0]  pstrb,
    input logic        pready,
    input logic        pslverr,
    input logic [31:0] prdata,
    input logic        irq,
    input logic        busy
);
  logic        prev_setup, prev_wait;
  logic [68:0] hold;
  logic [2:0]  waits;

  always_ff @(posedge clk) begin
    if (!rst_n) begin
      prev_setup <= 1'b0;
      prev_wait  <= 1'b0;
      waits      <= '0;
    end else begin
      // Master side: SETUP precedes ACCESS, and the transfer is held stable while PREADY is low.
      if (penable && !psel) $error("APB: PENABLE without PSEL");
      if (psel && penable && !prev_setup && !prev_wait)
        $error("APB: ACCESS phase (PENABLE=1) without a SETUP cycle before it, PADDR=0x%08x", paddr);
      if (prev_wait && !(psel && penable)) $error("APB: transfer withdrawn while PREADY was low");
      if (prev_wait && psel && {pwrite, paddr, pwdata, pstrb} != hold)
        $error("APB: PADDR/PWRITE/PWDATA/PSTRB changed during wait states (PADDR=0x%08x)", paddr);
      if (psel && !pwrite && pstrb != 4'd0) $error("APB: PSTRB=0x%x on a read (must be 0)", pstrb);
      if (psel && pwrite && pstrb == 4'd0) $error("APB: write with PSTRB=0 to 0x%08x", paddr);
      // Slave side: PSLVERR only in the completing cycle; at most 3 wait states (rdy_sel is 2 bits, D04).
      if (pslverr && !(psel && penable && pready)) $error("APB: PSLVERR outside the completing ACCESS cycle");
      if (psel && penable && !pready && waits == 3'd3)
        $error("APB: more than 3 wait states on 0x%08x (rdy_sel is at most 3, D04)", paddr);
      // D05: an invalid address completes with 0 wait states.
      if (psel && penable && pready && pslverr && waits != 3'd0)
        $error("APB: PSLVERR after %0d wait states on 0x%08x (D05: an erroring access has none)", waits, paddr);
      prev_setup <= psel && !penable;
      prev_wait  <= psel && penable && !pready;
      hold       <= {pwrite, paddr, pwdata, pstrb};
      waits      <= (psel && penable && !pready) ? waits + 3'd1 : 3'd0;
    end
  end

  logic unused_ok;
  assign unused_ok = ^{prdata, irq, busy};
endmodule
