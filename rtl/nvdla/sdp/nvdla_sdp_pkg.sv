// SDP X stage (BS = X1, BN = X2) and output converter as pure functions (spec nvdla_datapath.md 2.4,
// 2.5). x and t are signed 32-bit; every rounding shift is RSR (ties away from zero, then saturate).
package nvdla_sdp_pkg;
  import nvdla_dp_pkg::*;

  typedef struct packed {
    logic        bypass, alu_bypass, mul_bypass, prelu, relu_bypass;
    logic [1:0]  algo;
    logic [5:0]  alu_shift, mul_shift;
  } xcfg_t;

  function automatic logic signed [31:0] x_stage(input logic signed [31:0] x, input xcfg_t c,
                                                 input logic signed [15:0] op_a, input logic signed [15:0] op_m);
    logic signed [63:0] o, a, t, xw;
    xw = 64'(x);
    if (c.bypass) return x;
    if (c.alu_bypass) a = xw;
    else begin
      if (op_a == 16'sd0) o = 64'sd0;                              // saturating operand shift to int32
      else if (c.alu_shift >= 6'd32) o = op_a < 0 ? -64'sd2147483648 : 64'sd2147483647;
      else o = sat(64'(op_a) <<< c.alu_shift, 32);
      case (c.algo)
        2'd0:    a = xw > o ? xw : o;                             // MAX
        2'd1:    a = xw < o ? xw : o;                             // MIN
        default: a = xw + o;                                      // SUM (3 behaves as SUM), 33-bit exact
      endcase
    end
    if (c.mul_bypass) t = rsr(a, c.mul_shift, 49, 32);           // the shift still applies
    else if (c.prelu && a >= 0) t = 64'(signed'(a[31:0]));       // PReLU positive side: pass, no shift
    else t = rsr(a * 64'(op_m), c.mul_shift, 49, 32);
    if (!c.relu_bypass && t < 0) t = 64'sd0;
    return t[31:0];
  endfunction

  // CVT: returns {17-bit saturation flag, int8 byte}
  function automatic logic [8:0] cvt(input logic signed [31:0] t, input logic [31:0] offset,
                                     input logic [15:0] scale, input logic [5:0] shift);
    logic signed [63:0] p, y;
    p = (64'(t) - 64'(signed'(offset))) * 64'(signed'(scale));
    y = rsr(p, shift, 49, 17);
    return {shift < 6'd49 && y != rshift_round(p, shift), 8'(sat(y, 8))};
  endfunction
endpackage
