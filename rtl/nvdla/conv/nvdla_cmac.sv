// CMAC: the 8 x 8 MAC array of nv_small (CMAC_A and CMAC_B, 4 kernels each, as one). One cycle: an input atom
// (8 channels, or 8 copies of CSC's pad value outside the input) times a weight set gives 8 exact partial
// sums, one a kernel; registered with the operation's tags for CACC. Image input: the atom is the 8 bytes at
// byte offset in_shift of two consecutive CBUF entries, and with post-extension one kernel row's in_seg_n bytes
// placed at byte in_seg_lo of the atom (the other rows' bytes 0: their weights belong to other operations).
module nvdla_cmac
  import nvdla_conv_pkg::*;
(
  input  logic           clk,
  input  logic           rst_n,
  input  logic [7:0]     pad_value,
  input  logic           in_valid,
  input  logic           in_pad,
  input  logic [63:0]    in_data,
  input  logic [63:0]    in_data2,        // the next CBUF entry (image)
  input  logic [2:0]     in_shift,
  input  logic [2:0]     in_seg_lo,
  input  logic [3:0]     in_seg_n,
  input  wset_t          in_w,
  input  logic [PW-1:0]  in_pix,
  input  logic           in_bank,
  input  logic           in_first,
  input  logic           in_last,
  output logic           out_valid,
  output psum_t [ATOM-1:0] out_sum,
  output logic [PW-1:0]  out_pix,
  output logic           out_bank,
  output logic           out_first,
  output logic           out_last
);
  wire [127:0] two   = {in_data2, in_data};
  wire [63:0]  bytes = in_pad ? {ATOM{pad_value}} : two[7'({in_shift, 3'd0}) +: 64];
  logic [63:0] atom;
  always_comb begin
    atom = '0;
    for (int b = 0; b < ATOM; b++)
      if (b >= int'(in_seg_lo) && b < int'(in_seg_lo) + int'(in_seg_n)) atom[b*8 +: 8] = bytes[(b - int'(in_seg_lo))*8 +: 8];
  end
  psum_t [ATOM-1:0] sum;
  always_comb begin
    for (int k = 0; k < ATOM; k++) begin
      sum[k] = '0;
      for (int c = 0; c < ATOM; c++)
        sum[k] = sum[k] + 19'($signed(atom[c*8 +: 8]) * $signed(in_w[(k*ATOM + c)*8 +: 8]));
    end
  end
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {out_valid, out_sum, out_pix, out_bank, out_first, out_last} <= '0;
    end else begin
      out_valid <= in_valid;
      if (in_valid) begin
        out_sum   <= sum;
        out_pix   <= in_pix;
        out_bank  <= in_bank;
        out_first <= in_first;
        out_last  <= in_last;
      end
    end
  end
endmodule
