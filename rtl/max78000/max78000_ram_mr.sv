// max78000_ram_mr: behavioural synchronous RAM with NR read ports (registered data, each port updated only
// when re=1) and one write port with byte enables. The engine's MRAMs (two adjacent kernel words per
// cycle) and its pooled-plane buffer (all taps of a kernel per cycle) use it.
module max78000_ram_mr #(
  parameter int DEPTH = 1024,
  parameter int NB    = 4,                  // bytes per word
  parameter int NR    = 2,                  // read ports
  parameter int AW    = $clog2(DEPTH)
) (
  input  logic              clk,
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

  always_ff @(posedge clk) begin
    if (we && 32'(waddr) < DEPTH)
      for (int b = 0; b < NB; b++)
        if (wbe[b]) mem[waddr[IW-1:0]][8*b +: 8] <= wdata[8*b +: 8];
    if (re)
      for (int r = 0; r < NR; r++) rdata[r] <= (32'(raddr[r]) < DEPTH) ? mem[raddr[r][IW-1:0]] : '0;
  end
endmodule
