// Shared constants, types and arithmetic of the convolution pipeline (CDMA -> CBUF -> CSC -> CMAC -> CACC),
// nv_small INT8: atomic C = K = 8, a CBUF of 32 banks of 512 entries of 8 bytes (nvdla_cbuf_bank). The arithmetic is NVIDIA's
// (golden/nvdla/conv_golden.c cites the RTL lines): each CMAC atom sums 8 int8 products exactly (19 bits),
// CACC accumulates with 34-bit saturation, then rounds by CLIP_TRUNCATE and saturates to int32.
package nvdla_conv_pkg;
  localparam int ATOM        = 8;
  localparam int CBUF_BANKS  = 32;
  localparam int CBUF_AW     = 14;            // entry index within the data or the weight banks
  localparam int WT_CW       = 24;            // a layer's weight entries (streamed weights exceed the CBUF)
  localparam int STRIPE      = 16;            // output pixels that share one weight set in CMAC
  localparam int PW          = $clog2(STRIPE);

  typedef logic signed [18:0] psum_t;         // one atom product: 8 x (int8 x int8)
  typedef logic signed [33:0] acc_t;          // CACC accumulator

  // One weight set: 8 kernels x 8 channels, w[k*8 + c] (unused kernels/channels 0).
  typedef logic [ATOM*ATOM*8-1:0] wset_t;

  // Where a weight set sits in the layer's loops (CSC's schedule): kernel group, stripe, channel block and
  // kernel position, with the flags that close each loop.
  typedef struct packed {
    logic [10:0] cb;
    logic [5:0]  r, s;
    logic        stripe_first;   // first weight set of a stripe: accumulators start from 0
    logic        stripe_last;    // last weight set of a stripe: the stripe's outputs are final
    logic        group_last;     // ... of the last stripe of a kernel group
    logic        layer_last;     // a weight set of the layer's last stripe
  } wstep_t;

  // CACC's accumulation: 35-bit sum saturated to 34 bits (NV_NVDLA_CACC_CALC_int8.v).
  function automatic acc_t acc_add(input acc_t a, input psum_t p);
    logic signed [34:0] s;
    s = 35'(a) + 35'(p);
    if (s > 35'sh1_FFFF_FFFF) return 34'sh1_FFFF_FFFF;
    if (s < -35'sh2_0000_0000) return -34'sh2_0000_0000;
    return s[33:0];
  endfunction

  // CACC's output: {sft, guide, stick[14:0]} = {pre, 16'b0} >>> t, round half away from zero with the sticky
  // bits limited to the 15 below the guide bit, saturate to int32 (sat says whether it clipped).
  function automatic logic [31:0] cacc_round(input acc_t pre, input logic [4:0] t, output logic sat);
    logic signed [63:0] p, sft;
    logic [63:0]        below, lost;
    logic               guide, stick, neg, point5;
    p     = 64'(pre);
    sft   = p >>> t;
    guide = t != 0 && p[6'(t) - 6'd1];
    below = t >= 5'd2 ? (64'd1 << (t - 5'd1)) - 64'd1 : 64'd0;
    lost  = t > 5'd16 ? (64'd1 << (t - 5'd16)) - 64'd1 : 64'd0;
    stick = |(p & below & ~lost);
    neg   = pre < 0;
    point5 = guide && (!neg || stick);
    sat   = neg ? sft < -64'sd2147483648
                : (sft > 64'sd2147483647 || (sft == 64'sd2147483647 && point5));
    if (sat) return neg ? 32'h8000_0000 : 32'h7FFF_FFFF;
    return 32'(sft + (point5 ? 64'sd1 : 64'sd0));
  endfunction
endpackage
