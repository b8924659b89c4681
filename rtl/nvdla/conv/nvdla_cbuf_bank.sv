// One CBUF bank: 512 entries of 8 bytes, one write and two read ports, read data the cycle after the read.
// The second read port serves CSC's image reads, which take 8 bytes at any byte offset (two entries).
module nvdla_cbuf_bank (
  input  logic        clk,
  input  logic        wr_en,
  input  logic [8:0]  wr_addr,
  input  logic [63:0] wr_data,
  input  logic        rd_en,
  input  logic [8:0]  rd_addr,
  output logic [63:0] rd_data,
  input  logic        rd2_en,
  input  logic [8:0]  rd2_addr,
  output logic [63:0] rd2_data
);
  logic [63:0] mem [512];
  always_ff @(posedge clk) begin
    if (wr_en) mem[wr_addr] <= wr_data;
    if (rd_en) rd_data <= mem[rd_addr];
    if (rd2_en) rd2_data <= mem[rd2_addr];
  end
endmodule
