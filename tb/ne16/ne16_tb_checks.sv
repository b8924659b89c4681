// DUT-side assertions of spec ne16.md 6.3 on the NE16 APB, TCDM and event ports. They see the DUT's own
// outputs every cycle (fault injection acts later, on the way into the C models) and count as Verilator
// errors. M1 lock-step, PREADY, PSLVERR only in ACCESS, one-cycle done/SW pulses, done and memory traffic
// only while busy, and the testbench's own duty M2 (all grants equal). Not checked: M3 stability/no
// withdrawal of an ungranted request and M4 byte enables of reads; HWPE-Mem (pulp-platform/hci
// protocols.rst, rules 1-3) requires neither (an ungranted request never happened), so the bench relaxes
// them for every DUT.
module ne16_tb_checks (
    input logic             clk,
    input logic             rst_n,
    input logic             psel,
    input logic             penable,
    input logic             pwrite,
    input logic [31:0]      paddr,
    input logic [3:0]       pstrb,
    input logic [31:0]      pwdata,
    input logic             pready,
    input logic             pslverr,
    input logic [8:0]       tcdm_req,
    input logic [8:0]       tcdm_gnt,
    input logic [8:0]       tcdm_wen,
    input logic [8:0][31:0] tcdm_add,
    input logic [8:0][3:0]  tcdm_be,
    input logic [8:0][31:0] tcdm_data,
    input logic             evt_done,
    input logic             busy,
    input logic [7:0]       sw_evt
);
  logic         done_q;
  logic [7:0]   sw_q;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      done_q <= 1'b0;
      sw_q <= '0;
    end else begin
      if (!pready) $error("APB: PREADY=0 (spec D3: always 1)");
      if (pslverr && !(psel && penable)) $error("APB: PSLVERR outside an ACCESS cycle");
      // M1: lock-step request, write enable and contiguous addresses
      if (tcdm_req != 9'h000 && tcdm_req != 9'h1FF) $error("TCDM M1: req not lock-stepped (0x%03x)", tcdm_req);
      if (tcdm_req[0]) begin
        if (tcdm_wen != 9'h000 && tcdm_wen != 9'h1FF) $error("TCDM M1: wen not lock-stepped (0x%03x)", tcdm_wen);
        if (tcdm_add[0][1:0] != 2'b00) $error("TCDM M1: A=0x%08x not word aligned", tcdm_add[0]);
        for (int i = 1; i < 9; i++)
          if (tcdm_add[i] != tcdm_add[0] + 32'(4 * i))
            $error("TCDM M1: add[%0d]=0x%08x, want A+4*%0d (A=0x%08x)", i, tcdm_add[i], i, tcdm_add[0]);
      end
      // M2 (testbench side): the memory grants all ports together
      if (tcdm_gnt != 9'h000 && tcdm_gnt != 9'h1FF) $error("TCDM M2: partial grant 0x%03x from the memory model", tcdm_gnt);
      if (tcdm_req[0] && !busy) $error("TCDM: request at A=0x%08x while busy_o=0", tcdm_add[0]);
      // Events: one-cycle pulses; done only while busy
      if (evt_done && done_q) $error("events: evt_done_o high for more than one cycle");
      if (evt_done && !busy) $error("events: evt_done_o while busy_o=0");
      if (sw_evt != '0 && sw_q != '0) $error("events: sw_evt_o high for more than one cycle");
      if ((sw_evt & (sw_evt - 8'd1)) != '0) $error("events: sw_evt_o=0x%02x is not one-hot", sw_evt);
      done_q <= evt_done;
      sw_q <= sw_evt;
    end
  end

  logic unused_ok;
  assign unused_ok = ^{pwdata, paddr, pstrb, pwrite, tcdm_be, tcdm_data};
endmodule
