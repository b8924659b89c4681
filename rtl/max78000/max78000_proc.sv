// max78000_proc: one of the 64 processors. Per step it takes its input byte (already lane-selected, 0
// outside the padded plane), pools it in flight over the window (max, or average truncating toward zero
// / rounding half away with poolrnd, D34), and on the window's last step multiplies the pooled value by
// its weight: the slot byte of its MRAM word, bits b..b+qb-1, sign-extended (D32).
module max78000_proc (
  input  logic              clk,
  input  logic              rst_n,
  input  logic              valid,       // a step is in stage 1 this cycle
  input  logic              first,       // first step of the pool window
  input  logic              last,        // last step of the pool window
  input  logic signed [7:0] val,
  input  logic              maxpool,
  input  logic              poolrnd,
  input  logic [8:0]        npool,       // window size ph*pw (1 = no pooling)
  input  logic [7:0]        wbyte,       // MRAM slot byte
  input  logic [2:0]        wbit,        // A & 7
  input  logic [3:0]        qb,          // weight bits 8/4/2/1
  input  logic              en,          // mask_en: products enter the sum
  output logic signed [15:0] prod
);
  logic signed [7:0]  pmax;
  logic signed [16:0] psum;
  logic signed [7:0]  cmax, xp, wgt;
  logic signed [16:0] csum;
  logic [16:0]        mag;
  logic [7:0]         q;
  logic [7:0]         wsh, wmask;

  always_comb begin
    cmax = (first || val > pmax) ? val : pmax;
    csum = (first ? 17'sd0 : psum) + 17'(val);
    mag  = csum[16] ? 17'(-csum) : 17'(csum);
    q    = 8'(poolrnd ? (17'd2 * mag + 17'(npool)) / (17'd2 * 17'(npool)) : mag / 17'(npool));
    if (npool == 9'd1) xp = val;
    else if (maxpool) xp = cmax;
    else xp = csum[16] ? -8'(q) : 8'(q);
    wsh   = wbyte >> wbit;
    wmask = 8'((9'd1 << qb) - 9'd1);
    wgt   = 8'(wsh & wmask);
    if (qb != 4'd8 && wsh[3'(qb - 4'd1)]) wgt = 8'(wsh & wmask) - 8'(9'd1 << qb);
    prod = (valid && last && en) ? 16'(xp) * 16'(wgt) : 16'sd0;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pmax <= '0; psum <= '0;
    end else if (valid) begin
      pmax <= cmax; psum <= csum;
    end
  end
endmodule
