// max78000_ram: behavioural synchronous RAM, one read port (registered data, updated only when re=1)
// and one write port with byte enables. Used for data SRAM, MRAM, BRAM and TRAM (spec 1.3).
module max78000_ram #(
  parameter int DEPTH = 1024,
  parameter int NB    = 4,                  // bytes per word
  parameter int AW    = $clog2(DEPTH)
) (
  input  logic              clk,
  input  logic              re,
  input  logic [AW-1:0]     raddr,
  output logic [8*NB-1:0]   rdata,
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
    if (re) rdata <= (32'(raddr) < DEPTH) ? mem[raddr[IW-1:0]] : '0;
  end
endmodule
