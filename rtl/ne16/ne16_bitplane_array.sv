// The NE16 MAC array, bit-serial over the weight bits like the real NE16's: 9 rows (output pixels) x 9
// blocks x 16 lanes of binary cells. A cell adds its activation when its weight bit is set, shifted by the
// significance of that bit; row r gives sum over its cells. Since a cell holds one weight bit, the array covers
// 1296 / Qw multi-bit weights per cycle: the fewer the weight bits, the more weights per cycle
// (docs/ne16_engine.md: how each mode maps its taps, channels and bit planes onto blocks and lanes).
// Activations: each (row, block) reads one 16-byte window word; its lanes are its bytes (16 x uint8), its
// byte pairs (MODE16: 8 x uint16, lanes 8-15 idle) or, in depthwise mode, one byte broadcast to every lane.
// Bytes outside bmask_i count as 0. The second sum (xsum_o) adds the activations of the cells marked in
// off_i, whatever their weight bit: the weight-offset term Wmin * sum(x) of spec 4.3.
module ne16_bitplane_array (
  input  logic [8:0][8:0][127:0] x_i,      // [row][block] window word
  input  logic                   m16_i,    // lanes are uint16 byte pairs
  input  logic                   bcast_i,  // every lane takes byte bsel_i (depthwise)
  input  logic [3:0]             bsel_i,
  input  logic [15:0]            bmask_i,  // bytes of the word that hold activations
  input  logic [8:0][8:0][15:0]  w_i,      // [row][block][lane] weight bit
  input  logic [8:0][8:0][15:0]  off_i,    // [row][block][lane] counted in xsum_o
  input  logic [8:0][15:0][2:0]  sh_i,     // [block][lane] significance of the lane's weight bit
  output logic [8:0][31:0]       sum_o,
  output logic [8:0][31:0]       xsum_o
);
  always_comb begin
    logic [31:0]  s, xs;
    logic [127:0] xw;
    logic [15:0]  xl;
    xw = '0;
    xl = '0;
    for (int r = 0; r < 9; r++) begin
      s = '0;
      xs = '0;
      for (int b = 0; b < 9; b++) begin
        // blocks without a set bit add nothing (and cost the simulator nothing)
        if (w_i[r][b] != '0 || off_i[r][b] != '0) begin
          xw = x_i[r][b];
          for (int k = 0; k < 16; k++) if (!bmask_i[k]) xw[8*k +: 8] = 8'd0;
          for (int l = 0; l < 16; l++) begin
            if (bcast_i) xl = {8'd0, xw[8*bsel_i +: 8]};
            else if (m16_i) xl = l < 8 ? xw[16*l +: 16] : 16'd0;
            else xl = {8'd0, xw[8*l +: 8]};
            if (w_i[r][b][l]) s = s + ({16'd0, xl} << sh_i[b][l]);
            if (off_i[r][b][l]) xs = xs + {16'd0, xl};
          end
        end
      end
      sum_o[r] = s;
      xsum_o[r] = xs;
    end
  end
endmodule
