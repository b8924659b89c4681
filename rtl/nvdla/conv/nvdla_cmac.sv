// CMAC: the 8 x 8 MAC array of nv_small (CMAC_A and CMAC_B, 4 kernels each, as one). One cycle: an input atom
// (8 channels, or 8 copies of CSC's pad value outside the input) times a weight set gives 8 exact partial
// sums, one a kernel; registered with the operation's tags for CACC.
module nvdla_cmac
  import nvdla_conv_pkg::*;
(
  input  logic           clk,
  input  logic           rst_n,
  input  logic [7:0]     pad_value,
  input  logic           in_valid,
  input  logic           in_pad,
  input  logic [63:0]    in_data,
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
  wire [63:0] atom = in_pad ? {ATOM{pad_value}} : in_data;
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
