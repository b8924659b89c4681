// Integer primitives shared by the SDP/PDP/CDP pipelines (spec nvdla_datapath.md 1.4): the rounding
// right shift of the HLS libraries (round half away from zero), saturation and sign handling.
package nvdla_dp_pkg;
  // floor((v + 2^(s-1) - (v<0)) / 2^s) = round half away from zero of v / 2^s, for 0 < s < 63 and
  // |v| < 2^62. s = 0 returns v.
  function automatic logic signed [63:0] rshift_round(input logic signed [63:0] v, input logic [5:0] s);
    logic signed [63:0] half;
    if (s == 6'd0) return v;
    half = 64'sd1 <<< (s - 6'd1);
    return (v + half - (v < 0 ? 64'sd1 : 64'sd0)) >>> s;
  endfunction

  function automatic logic signed [63:0] sat(input logic signed [63:0] v, input int n);
    logic signed [63:0] hi, lo;
    hi = (64'sd1 <<< (n - 1)) - 64'sd1;
    lo = -hi - 64'sd1;
    return v > hi ? hi : (v < lo ? lo : v);
  endfunction

  // RSR(v, s, in_w, out_w) of spec 1.4
  function automatic logic signed [63:0] rsr(input logic signed [63:0] v, input logic [5:0] s, input int in_w,
                                             input int out_w);
    if (int'(s) >= in_w) return 64'sd0;
    return sat(rshift_round(v, s), out_w);
  endfunction
endpackage
