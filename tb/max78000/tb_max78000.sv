// MAX78000 testbench top: the CNN accelerator (max78000_cnn), the APB master and the interrupt/engine
// monitor as one DPI call per cycle each, a monitor of every data-memory write port, DUT-side APB
// assertions (max78000_tb_checks), and back-door access to the data memories for the scoreboard.
// Bus-model outputs are registered here (nonblocking), so the DUT sees them as flops. clk and rst_n
// come from the C++ kernel.
//
// Back door: once per cycle max78000_backdoor() may ask for a dump of the 16 data memories (every word
// handed to C through max78000_dmem_dump, then max78000_dump_done) or a write into one RAM word (fault
// injection). The scoreboard thus compares what the RTL RAMs really hold. (Exported DPI functions would be
// the direct way, but with this Makefile's link order and Verilator 5.006 they are not callable from C.)
`ifndef DUT_TOP
`define DUT_TOP max78000_cnn
`endif
module tb_max78000 (
    input logic clk,
    // The DUT resets asynchronously on rst_n, the bench's monitors sample it on clk: both by design
    // (Verilator 5.049 on warns, 5.006 does not).
    /* verilator lint_off SYNCASYNCNET */
    input logic rst_n
    /* verilator lint_on SYNCASYNCNET */
);
  import "DPI-C" function void max78000_apb_tick(
      input bit pready, input bit pslverr, input int unsigned prdata,
      output bit psel, output bit penable, output bit pwrite, output int unsigned paddr,
      output int unsigned pwdata, output byte unsigned pstrb);
  import "DPI-C" function void max78000_irq_tick(input bit irq, input bit busy, input byte unsigned layer,
                                                 input int unsigned run_cycles);
  import "DPI-C" function void max78000_dmem_write(input byte unsigned g, input shortint unsigned word,
                                                   input int unsigned data, input byte unsigned be,
                                                   input bit engine, input byte unsigned layer);
  import "DPI-C" function bit max78000_backdoor(output byte unsigned op, output byte unsigned g,
                                                 output shortint unsigned w, output int unsigned v);
  import "DPI-C" function void max78000_dmem_dump(input byte unsigned g, input shortint unsigned w,
                                                  input int unsigned v);
  import "DPI-C" function void max78000_dump_done();

  logic        psel, penable, pwrite, pready, pslverr, irq, busy;
  logic [31:0] paddr, pwdata, prdata, run_cycles;
  logic [3:0]  pstrb;

  // The DUT's top module comes from its description (tb/max78000/duts/*.dut, `top`).
  `DUT_TOP dut (
      .PCLK      (clk),
      .PRESETn   (rst_n),
      .PSEL      (psel),
      .PENABLE   (penable),
      .PWRITE    (pwrite),
      .PADDR     (paddr),
      .PWDATA    (pwdata),
      .PSTRB     (pstrb),
      .PPROT     (3'b000),
      .PRDATA    (prdata),
      .PREADY    (pready),
      .PSLVERR   (pslverr),
      .irq       (irq),
      .busy      (busy),
      .run_cycles(run_cycles)
  );

  // DUT-side APB protocol assertions (the C master checks the same transfer from its side).
  max78000_tb_checks checks (.*);

  always @(posedge clk) begin : apb_bfm
    bit s, en, w;
    int unsigned a, d;
    byte unsigned b;
    max78000_apb_tick(pready, pslverr, prdata, s, en, w, a, d, b);
    psel    <= s;
    penable <= en;
    pwrite  <= w;
    paddr   <= a;
    pwdata  <= d;
    pstrb   <= b[3:0];
  end

  always @(posedge clk) max78000_irq_tick(irq, busy, {3'd0, dut.layer}, run_cycles);

  // Write monitor: every write that reaches a data-memory RAM port (APB, engine or FIFO drain), with the
  // layer the engine is in. Sampled at the edge the RAM samples it.
  for (genvar g = 0; g < 16; g++) begin : g_mon
    always @(posedge clk)
      if (rst_n && dut.g_dmem[g].u_ram.we)
        max78000_dmem_write(8'(g), {3'd0, dut.g_dmem[g].u_ram.waddr}, dut.g_dmem[g].u_ram.wdata,
                            {4'd0, dut.g_dmem[g].u_ram.wbe}, busy && !(dut.g_dmem[g].fw && !dut.g_dmem[g].ew),
                            {3'd0, dut.layer});   // FIFO words (D46) are input, not a layer's output
  end

  // Back-door peek and poke honour the RAM's written bits (D09: a word never written reads 0).
  function automatic int unsigned dmem_peek(input int g, input int w);
    logic [12:0] i;
    i = w[12:0];
    case (g)
      0:  return dut.g_dmem[0].u_ram.g_zero.written[i] ? dut.g_dmem[0].u_ram.mem[i] : 0;
      1:  return dut.g_dmem[1].u_ram.g_zero.written[i] ? dut.g_dmem[1].u_ram.mem[i] : 0;
      2:  return dut.g_dmem[2].u_ram.g_zero.written[i] ? dut.g_dmem[2].u_ram.mem[i] : 0;
      3:  return dut.g_dmem[3].u_ram.g_zero.written[i] ? dut.g_dmem[3].u_ram.mem[i] : 0;
      4:  return dut.g_dmem[4].u_ram.g_zero.written[i] ? dut.g_dmem[4].u_ram.mem[i] : 0;
      5:  return dut.g_dmem[5].u_ram.g_zero.written[i] ? dut.g_dmem[5].u_ram.mem[i] : 0;
      6:  return dut.g_dmem[6].u_ram.g_zero.written[i] ? dut.g_dmem[6].u_ram.mem[i] : 0;
      7:  return dut.g_dmem[7].u_ram.g_zero.written[i] ? dut.g_dmem[7].u_ram.mem[i] : 0;
      8:  return dut.g_dmem[8].u_ram.g_zero.written[i] ? dut.g_dmem[8].u_ram.mem[i] : 0;
      9:  return dut.g_dmem[9].u_ram.g_zero.written[i] ? dut.g_dmem[9].u_ram.mem[i] : 0;
      10: return dut.g_dmem[10].u_ram.g_zero.written[i] ? dut.g_dmem[10].u_ram.mem[i] : 0;
      11: return dut.g_dmem[11].u_ram.g_zero.written[i] ? dut.g_dmem[11].u_ram.mem[i] : 0;
      12: return dut.g_dmem[12].u_ram.g_zero.written[i] ? dut.g_dmem[12].u_ram.mem[i] : 0;
      13: return dut.g_dmem[13].u_ram.g_zero.written[i] ? dut.g_dmem[13].u_ram.mem[i] : 0;
      14: return dut.g_dmem[14].u_ram.g_zero.written[i] ? dut.g_dmem[14].u_ram.mem[i] : 0;
      default: return dut.g_dmem[15].u_ram.g_zero.written[i] ? dut.g_dmem[15].u_ram.mem[i] : 0;
    endcase
  endfunction

  always @(posedge dut.clk) begin : backdoor
    byte unsigned op, g;
    shortint unsigned w;
    int unsigned v;
    if (rst_n && max78000_backdoor(op, g, w, v)) begin
      if (op == 8'd1) begin
        for (int m = 0; m < 16; m++)
          for (int k = 0; k < 8192; k++) max78000_dmem_dump(8'(m), 16'(k), dmem_peek(m, k));
        max78000_dump_done();
      end else begin
        case (g[3:0])
          4'd0:  begin dut.g_dmem[0].u_ram.mem[w[12:0]] <= v; dut.g_dmem[0].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd1:  begin dut.g_dmem[1].u_ram.mem[w[12:0]] <= v; dut.g_dmem[1].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd2:  begin dut.g_dmem[2].u_ram.mem[w[12:0]] <= v; dut.g_dmem[2].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd3:  begin dut.g_dmem[3].u_ram.mem[w[12:0]] <= v; dut.g_dmem[3].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd4:  begin dut.g_dmem[4].u_ram.mem[w[12:0]] <= v; dut.g_dmem[4].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd5:  begin dut.g_dmem[5].u_ram.mem[w[12:0]] <= v; dut.g_dmem[5].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd6:  begin dut.g_dmem[6].u_ram.mem[w[12:0]] <= v; dut.g_dmem[6].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd7:  begin dut.g_dmem[7].u_ram.mem[w[12:0]] <= v; dut.g_dmem[7].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd8:  begin dut.g_dmem[8].u_ram.mem[w[12:0]] <= v; dut.g_dmem[8].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd9:  begin dut.g_dmem[9].u_ram.mem[w[12:0]] <= v; dut.g_dmem[9].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd10: begin dut.g_dmem[10].u_ram.mem[w[12:0]] <= v; dut.g_dmem[10].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd11: begin dut.g_dmem[11].u_ram.mem[w[12:0]] <= v; dut.g_dmem[11].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd12: begin dut.g_dmem[12].u_ram.mem[w[12:0]] <= v; dut.g_dmem[12].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd13: begin dut.g_dmem[13].u_ram.mem[w[12:0]] <= v; dut.g_dmem[13].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          4'd14: begin dut.g_dmem[14].u_ram.mem[w[12:0]] <= v; dut.g_dmem[14].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
          default: begin dut.g_dmem[15].u_ram.mem[w[12:0]] <= v; dut.g_dmem[15].u_ram.g_zero.written[w[12:0]] <= 1'b1; end
        endcase
      end
    end
  end
endmodule
