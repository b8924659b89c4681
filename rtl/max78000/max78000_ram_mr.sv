// max78000_ram_mr: behavioural synchronous RAM with NR read ports (registered data, each port updated only
// when re=1) and one write port with byte enables. The engine's MRAMs (two adjacent kernel words per
// cycle) and its pooled-plane buffer (all taps of a kernel per cycle) use it.
//
// ZERO_RESET=1 (the architectural memories: data SRAM, MRAM, TRAM, BRAM) implements spec D09, "every memory
// resets to 0", without a clearing sweep that would hold the APB for 8192 cycles: a written bit per word,
// cleared by reset, makes a word never written since reset read 0, and the first write to such a word fills
// the bytes it does not enable with 0. Before this, the memories were zero only because the simulator
// zero-fills arrays; the X-randomised lane (tests/lists/xrand.nightly.list) read random bytes back.
module max78000_ram_mr #(
  parameter int DEPTH      = 1024,
  parameter int NB         = 4,             // bytes per word
  parameter int NR         = 2,             // read ports
  parameter int AW         = $clog2(DEPTH),
  parameter bit ZERO_RESET = 1'b0           // D09: reads 0 until written (internal buffers: 0, always written first)
) (
  input  logic              clk,
  input  logic              rst_n,
  input  logic              re,
  input  logic [AW-1:0]     raddr [NR],
  output logic [8*NB-1:0]   rdata [NR],
  input  logic              we,
  input  logic [AW-1:0]     waddr,
  input  logic [8*NB-1:0]   wdata,
  input  logic [NB-1:0]     wbe
);
  localparam int IW = $clog2(DEPTH);
  logic [8*NB-1:0] mem [DEPTH];
  logic          wr_written;              // the word being written / read was written since reset
  logic [NR-1:0] rd_written;

  if (ZERO_RESET) begin : g_zero
    logic [DEPTH-1:0] written;
    // Synchronous clear (reset is held for clock cycles): as an asynchronous one it moved the RAMs into the
    // reset domain, and Verilator's re-scheduled model then took over 10 minutes of C++ compile.
    /* verilator lint_off SYNCASYNCNET */
    always_ff @(posedge clk)
      if (!rst_n) written <= '0;
      else if (we && 32'(waddr) < DEPTH) written[waddr[IW-1:0]] <= 1'b1;
    /* verilator lint_on SYNCASYNCNET */
    assign wr_written = written[waddr[IW-1:0]];
    for (genvar r = 0; r < NR; r++) begin : g_rd
      assign rd_written[r] = written[raddr[r][IW-1:0]];
    end
  end else begin : g_plain
    assign wr_written = 1'b1;
    assign rd_written = '1;
    wire unused_rst_n = rst_n;
  end

  always_ff @(posedge clk) begin
    if (we && 32'(waddr) < DEPTH)
      for (int b = 0; b < NB; b++)
        if (wbe[b]) mem[waddr[IW-1:0]][8*b +: 8] <= wdata[8*b +: 8];
        else if (!wr_written) mem[waddr[IW-1:0]][8*b +: 8] <= 8'h00;
    if (re)
      for (int r = 0; r < NR; r++)
        rdata[r] <= (32'(raddr[r]) < DEPTH && rd_written[r]) ? mem[raddr[r][IW-1:0]] : '0;
  end
endmodule
