// Normalisation/quantisation of one wrapped accumulator (spec ne16.md 4.4): exact product (D6),
// optional int32 bias after an int32 wrap, shift with optional round-half-up (D5), clamp (D8).
// Combinational; the engine applies it to one output channel per cycle.
module ne16_normquant
  import ne16_pkg::*;
(
  // verilator lint_off UNUSEDSIGNAL
  input  cfg_t        cfg_i,     // only the normalisation fields are used
  input  logic [31:0] acc_i,
  input  logic [31:0] scale_i,   // already NORM_BITS wide (zero-extended)
  input  logic [31:0] bias_i,
  input  logic [7:0]  shift_i,   // per-channel shift byte (bits 7:6 ignored, 3.5)
  // verilator lint_on UNUSEDSIGNAL
  output logic [31:0] y_o        // low 8*ob bits valid, upper bits 0
);
  logic signed [65:0] p, v, y, lo, hi, rnd;
  logic [31:0]        sum32, keep;
  logic [5:0]         sh;
  logic [5:0]         bits;

  always_comb begin
    bits = cfg_i.ob == 3'd1 ? 6'd8 : cfg_i.ob == 3'd2 ? 6'd16 : 6'd32;
    keep = cfg_i.ob == 3'd1 ? 32'h0000_00FF : cfg_i.ob == 3'd2 ? 32'h0000_FFFF : 32'hFFFF_FFFF;
    p = $signed({{34{acc_i[31]}}, acc_i}) * $signed({34'd0, scale_i});
    sum32 = p[31:0] + bias_i;
    v = cfg_i.norm_bias ? $signed({{34{sum32[31]}}, sum32}) : p;
    sh = cfg_i.norm_shift ? shift_i[5:0] : {1'b0, cfg_i.right_shift};
    rnd = (cfg_i.round && sh != 6'd0) ? (66'sd1 <<< (sh - 6'd1)) : 66'sd0;
    y = (v + rnd) >>> sh;
    if (cfg_i.quant_rect) begin
      lo = -(66'sd1 <<< (bits - 6'd1));
      hi = (66'sd1 <<< (bits - 6'd1)) - 66'sd1;
    end else begin
      lo = 66'sd0;
      hi = (66'sd1 <<< bits) - 66'sd1;
    end
    if (y < lo) y = lo;
    if (y > hi) y = hi;
    y_o = cfg_i.streamout ? (y[31:0] & keep) : (acc_i & keep);
  end
endmodule
