// max78000_proc: one of the 64 processors, with its two jobs in the engine's two phases.
//  - pooling (pool phase): per step it takes its input byte (already lane-selected) and pools it in flight
//    over the window (max, or average truncating toward zero / rounding half away with poolrnd, D34); on
//    the window's last step `xp` is the pooled value, which the engine stores in its pooled-plane buffer.
//  - convolution (conv phase): all taps of the kernel at once. Tap t multiplies its pooled byte (0 outside
//    the pooled plane or beyond the kernel's taps) by its weight: the MRAM slot byte, bits b..b+qb-1,
//    sign-extended (D32). `prod` is the sum of the tap products.
module max78000_proc (
  input  logic              clk,
  input  logic              rst_n,
  // pooling
  input  logic              pvalid,      // a pool step is in stage 1 this cycle
  input  logic              first,       // first step of the pool window
  input  logic signed [7:0] val,
  input  logic              maxpool,
  input  logic              poolrnd,
  input  logic [8:0]        npool,       // window size ph*pw (1 = no pooling)
  output logic signed [7:0] xp,
  // convolution
  input  logic              cvalid,      // a conv step is in stage 1 this cycle
  input  logic [7:0]        x [9],       // pooled input of each tap
  input  logic [7:0]        wbyte [9],   // MRAM slot byte of each tap
  input  logic [2:0]        wbit,        // A & 7
  input  logic [3:0]        qb,          // weight bits 8/4/2/1
  input  logic              en,          // mask_en: products enter the sum
  output logic signed [19:0] prod
);
  logic signed [7:0]  pmax;
  logic signed [16:0] psum;
  logic signed [7:0]  cmax;
  logic signed [16:0] csum;
  logic [16:0]        mag;
  logic [7:0]         q;

  always_comb begin
    cmax = (first || val > pmax) ? val : pmax;
    csum = (first ? 17'sd0 : psum) + 17'(val);
    mag  = csum[16] ? 17'(-csum) : 17'(csum);
    q    = 8'(poolrnd ? (17'd2 * mag + 17'(npool)) / (17'd2 * 17'(npool)) : mag / 17'(npool));
    if (npool == 9'd1) xp = val;
    else if (maxpool) xp = cmax;
    else xp = csum[16] ? -8'(q) : 8'(q);
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pmax <= '0; psum <= '0;
    end else if (pvalid) begin
      pmax <= cmax; psum <= csum;
    end
  end

  // sign-extended qb-bit weight at bit b of the slot byte
  function automatic logic signed [7:0] weight(input logic [7:0] wb, input logic [2:0] b, input logic [3:0] n);
    logic [7:0] wsh, wmask, w;
    wsh   = wb >> b;
    wmask = 8'((9'd1 << n) - 9'd1);
    w     = wsh & wmask;
    if (n != 4'd8 && wsh[3'(n - 4'd1)]) w = w - 8'(9'd1 << n);
    return w;
  endfunction

  always_comb begin
    prod = '0;
    if (cvalid && en)
      for (int t = 0; t < 9; t++) prod = prod + 20'($signed(x[t])) * 20'(weight(wbyte[t], wbit, qb));
  end
endmodule
