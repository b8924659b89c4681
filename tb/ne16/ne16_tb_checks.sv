// DUT-side assertions of spec ne16.md 6.3 on the NE16 APB, TCDM and event ports. They see the DUT's own
// outputs every cycle (fault injection acts later, on the way into the C models) and count as Verilator
// errors. M1 lock-step, M3 stability (except the withdrawal after SOFT_CLEAR), M4 read enables, PREADY,
// PSLVERR only in ACCESS, one-cycle done/SW pulses, done and memory traffic only while busy, and the
// testbench's own duty M2 (all grants equal).
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
  logic         pend, clear_q, done_q;
  logic [7:0]   sw_q;
  logic [31:0]  add_hold;
  logic         wen_hold;
  logic [35:0]  be_hold;
  logic [287:0] data_hold;
  logic         soft_clear;
  assign soft_clear = psel && penable && pwrite && paddr[7:0] == 8'h14 && pstrb == 4'hF && pslverr == 1'b0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pend <= 1'b0;
      clear_q <= 1'b0;
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
        if (tcdm_wen[0] && tcdm_be != '1) $error("TCDM M4: read at A=0x%08x without all byte enables", tcdm_add[0]);
      end
      // M2 (testbench side): the memory grants all ports together
      if (tcdm_gnt != 9'h000 && tcdm_gnt != 9'h1FF) $error("TCDM M2: partial grant 0x%03x from the memory model", tcdm_gnt);
      // M3: an ungranted request stays, unchanged (withdrawal allowed only right after SOFT_CLEAR)
      if (pend && !clear_q) begin
        if (!tcdm_req[0]) $error("TCDM M3: request at A=0x%08x withdrawn without a grant", add_hold);
        else if ({tcdm_add[0], tcdm_wen[0], tcdm_be} != {add_hold, wen_hold, be_hold} ||
                 (!wen_hold && tcdm_data != data_hold))
          $error("TCDM M3: request at A=0x%08x changed while req && !gnt", add_hold);
      end
      if (tcdm_req[0] && !busy) $error("TCDM: request at A=0x%08x while busy_o=0", tcdm_add[0]);
      // Events: one-cycle pulses; done only while busy
      if (evt_done && done_q) $error("events: evt_done_o high for more than one cycle");
      if (evt_done && !busy) $error("events: evt_done_o while busy_o=0");
      if (sw_evt != '0 && sw_q != '0) $error("events: sw_evt_o high for more than one cycle");
      if ((sw_evt & (sw_evt - 8'd1)) != '0) $error("events: sw_evt_o=0x%02x is not one-hot", sw_evt);
      pend <= tcdm_req[0] && !tcdm_gnt[0];
      clear_q <= soft_clear;
      done_q <= evt_done;
      sw_q <= sw_evt;
    end
  end

  always_ff @(posedge clk) begin
    add_hold <= tcdm_add[0];
    wen_hold <= tcdm_wen[0];
    be_hold <= tcdm_be;
    data_hold <= tcdm_data;
  end

  logic unused_ok;
  assign unused_ok = ^pwdata;
endmodule
