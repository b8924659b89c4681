// max78000_proc: one of the 64 processors, with its two jobs in the engine's two phases.
//  - pooling (pool phase): per step it takes its input byte (already lane-selected) and pools it in flight
//    over the window (max, or average truncating toward zero / rounding half away with poolrnd, D34); on
//    the window's last step `xp` is the pooled value, which the engine stores in its pooled-plane buffer.
//    Element-wise layers (spec 3.11, [M3]) bring the operands o = 0..Nop-1 of each input value one step each:
//    they are combined at full precision (v0 - v1 - ..., v0 + v1 + ..., or the 8-bit OR / XOR) and clamped to
//    [-128, 127]. Without prepool the operands are combined first and the clamped result is pooled; with
//    prepool each operand is pooled over its window, then the pooled values are combined (spec 3.6).
//    Without element-wise every step is its own operand 0 and last operand (ofirst = olast = 1).
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
  input  logic              ofirst,      // element-wise: first operand of this value
  input  logic              olast,       // element-wise: last operand
  input  logic              wlast,       // last step of the pool window
  input  logic              prepool,     // ONED.prepool: pool each operand, then combine
  input  logic [1:0]        efunc,       // ONED.ewise_func: 00 sub, 01 add, 10 or, 11 xor
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
  logic signed [7:0]  pin, pooled;      // pooling input, pooled value
  logic signed [12:0] eacc;             // element-wise accumulator
  logic signed [12:0] ecv, ecp;         // combined with the raw value (no prepool) / the pooled value
  logic               pstep;            // this step enters the pool window

  // combine the accumulated operands with `v`; 8-bit patterns for OR / XOR
  function automatic logic signed [12:0] comb(input logic signed [12:0] a, input logic signed [7:0] v,
                                              input logic [1:0] f);
    case (f)
      2'd0: return a - 13'(v);
      2'd1: return a + 13'(v);
      2'd2: return 13'($signed(a[7:0] | v));
      default: return 13'($signed(a[7:0] ^ v));
    endcase
  endfunction

  function automatic logic signed [7:0] clamp8(input logic signed [12:0] v);
    if (v > 13'sd127) return 8'sd127;
    if (v < -13'sd128) return -8'sd128;
    return 8'(v);
  endfunction

  always_comb begin
    ecv = ofirst ? 13'(val) : comb(eacc, val, efunc);
    pin = prepool ? val : clamp8(ecv);
    pstep = pvalid && (prepool || olast);
    cmax = (first || pin > pmax) ? pin : pmax;
    csum = (first ? 17'sd0 : psum) + 17'(pin);
    mag  = csum[16] ? 17'(-csum) : 17'(csum);
    q    = 8'(poolrnd ? (17'd2 * mag + 17'(npool)) / (17'd2 * 17'(npool)) : mag / 17'(npool));
    if (npool == 9'd1) pooled = pin;
    else if (maxpool) pooled = cmax;
    else pooled = csum[16] ? -8'(q) : 8'(q);
    ecp = ofirst ? 13'(pooled) : comb(eacc, pooled, efunc);
    xp = prepool ? clamp8(ecp) : pooled;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      pmax <= '0; psum <= '0; eacc <= '0;
    end else begin
      if (pstep) begin pmax <= cmax; psum <= csum; end
      if (pvalid && (!prepool || wlast)) eacc <= prepool ? ecp : ecv;
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
