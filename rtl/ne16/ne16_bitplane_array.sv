// The NE16 MAC array, bit-serial over the weight bits like the real NE16's: 9 rows (output pixels) x 9
// blocks x 16 lanes of binary cells. A cell adds its activation when its weight bit is set, shifted by the
// significance of that bit; row r gives the sum over its cells. Since a cell holds one weight bit, the array
// covers 1296 / Qw multi-bit weights per cycle: the fewer the weight bits, the more weights per cycle
// (docs/ne16_engine.md: how each mode maps its taps, channels and bit planes onto blocks and lanes).
// Activations: each (row, block) reads one 16-byte window word; its lanes are its bytes (16 x uint8), its
// byte pairs (MODE16: 8 x uint16, lanes 8-15 idle) or, in depthwise mode, one byte broadcast to every lane.
// Bytes outside bmask_i count as 0. Significance of a weight bit: its block's (sh_i); with a broadcast byte
// the lanes hold the bit planes of one weight, lane l's bit has significance l. xsum_o adds, per row, the activations of the blocks
// marked in off_i once (a broadcast byte once), whatever their weight bits: the weight-offset term
// Wmin * sum(x) of spec 4.3.
module ne16_bitplane_array (
  input  logic [8:0][8:0][127:0] x_i,      // [row][block] window word
  input  logic                   m16_i,    // lanes are uint16 byte pairs
  input  logic                   bcast_i,  // every lane takes byte bsel_i (depthwise)
  input  logic [3:0]             bsel_i,
  input  logic [15:0]            bmask_i,  // bytes of the word that hold activations
  input  logic [8:0][8:0][15:0]  w_i,      // [row][block][lane] weight bit
  input  logic [8:0][8:0]        off_i,    // [row][block] counted in xsum_o
  input  logic [8:0][2:0]        sh_i,     // [block] significance of the block's weight bits
  output logic [8:0][31:0]       sum_o,
  output logic [8:0][31:0]       xsum_o
);
  logic [127:0] bytemask;
  always_comb for (int k = 0; k < 16; k++) bytemask[8*k +: 8] = {8{bmask_i[k]}};

  always_comb begin
    logic [31:0]  s, xs, bs, bx;
    logic [127:0] xw;
    logic [15:0]  xb;
    xw = '0;
    xb = '0;
    bs = '0;
    bx = '0;
    for (int r = 0; r < 9; r++) begin
      s = '0;
      xs = '0;
      for (int b = 0; b < 9; b++) begin
        // blocks without a set bit add nothing (and cost the simulator nothing)
        if (w_i[r][b] != '0 || off_i[r][b]) begin
          xw = x_i[r][b] & bytemask;
          bs = '0;
          bx = '0;
          if (bcast_i) begin
            // every lane holds the same byte and lane l has significance l: the cells' sum is the byte
            // times the lanes' bits read as a number
            xb = {8'd0, xw[8*bsel_i +: 8]};
            bs = 32'(xb) * 32'(w_i[r][b]);
            bx = 32'(xb);
          end else if (m16_i) begin
            for (int l = 0; l < 8; l++) begin
              if (w_i[r][b][l]) bs = bs + 32'(xw[16*l +: 16]);
              bx = bx + 32'(xw[16*l +: 16]);
            end
          end else begin
            for (int l = 0; l < 16; l++) begin
              if (w_i[r][b][l]) bs = bs + 32'(xw[8*l +: 8]);
              bx = bx + 32'(xw[8*l +: 8]);
            end
          end
          s = s + (bcast_i ? bs : bs << sh_i[b]);
          if (off_i[r][b]) xs = xs + bx;
        end
      end
      sum_o[r] = s;
      xsum_o[r] = xs;
    end
  end
endmodule
