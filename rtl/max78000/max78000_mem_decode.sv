// max78000_mem_decode: decode of the memory windows of a quadrant-local offset (spec 1.3, D07).
// Register offsets are decoded by the generated register files; everything else here is M_NONE.
module max78000_mem_decode
  import max78000_pkg::*;
(
  input  logic [1:0]  q,
  input  logic [21:0] o,         // PADDR - QB(q)
  output mem_dec_t    d
);
  always_comb begin
    d = '0;
    d.q = q;
    if (o >= 22'h8000 && o < 22'h8800) begin
      d.kind = M_BRAM;
      d.idx = 13'(o[10:2]);
    end else if (o >= 22'h1_0000 && o < 22'h5_0000 && o[13:0] < 14'h3000) begin
      d.kind = M_TRAM;
      d.proc = 4'(o[19:14] - 6'd4);
      d.idx = 13'(o[13:2]);
    end else if (o >= 22'h8_0000 && o < 22'hC_0000 && o[13:0] < 14'h3000) begin
      d.kind = M_MRAM;
      d.proc = o[17:14];
      d.idx = 13'(o[13:4]);
      d.part = o[3:2];
    end else if (o >= 22'h30_0000 && o < 22'h32_0000) begin
      d.kind = M_DSRAM;
      d.g = {q, o[16:15]};
      d.idx = o[14:2];
    end
  end
  wire unused = ^{o[1:0]};
endmodule
