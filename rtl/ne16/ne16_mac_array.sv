// 9 rows x 16 lanes of unsigned 17-bit activations times signed 10-bit weights: 144 MACs per cycle.
// Row r gives the sum of its 16 products (3x3/1x1/DW: one output pixel; linear: one 16-byte word).
module ne16_mac_array (
  input  logic [8:0][15:0][16:0]       x_i,
  input  logic [8:0][15:0][9:0]        w_i,
  output logic [8:0][31:0]             sum_o
);
  always_comb begin
    for (int r = 0; r < 9; r++) begin
      logic signed [31:0] s;
      s = '0;
      for (int l = 0; l < 16; l++) begin
        s = s + 32'($signed({1'b0, x_i[r][l]}) * $signed(w_i[r][l]));
      end
      sum_o[r] = s;
    end
  end
endmodule
