// max78000_ram: behavioural synchronous RAM, one read port (registered data, updated only when re=1)
// and one write port with byte enables. Used for data SRAM, MRAM, BRAM and TRAM (spec 1.3): the one-port
// case of max78000_ram_mr.
module max78000_ram #(
  parameter int DEPTH = 1024,
  parameter int NB    = 4,                  // bytes per word
  parameter int AW    = $clog2(DEPTH),
  parameter bit ZERO_RESET = 1'b0           // D09, see max78000_ram_mr
) (
  input  logic              clk,
  input  logic              rst_n,
  input  logic              re,
  input  logic [AW-1:0]     raddr,
  output logic [8*NB-1:0]   rdata,
  input  logic              we,
  input  logic [AW-1:0]     waddr,
  input  logic [8*NB-1:0]   wdata,
  input  logic [NB-1:0]     wbe
);
  logic [AW-1:0]   ra [1];
  logic [8*NB-1:0] rd [1];
  assign ra[0] = raddr;
  assign rdata = rd[0];
  max78000_ram_mr #(.DEPTH(DEPTH), .NB(NB), .NR(1), .AW(AW), .ZERO_RESET(ZERO_RESET)) u_ram (
    .clk, .rst_n, .re, .raddr(ra), .rdata(rd), .we, .waddr, .wdata, .wbe);
endmodule
