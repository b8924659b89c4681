// CDP arithmetic as pure functions (spec nvdla_datapath.md 4.3-4.6): input/output converters, the LE/LO
// index computation, and the interpolation. Every rounding shift rounds half away from zero.
package nvdla_cdp_pkg;
  import nvdla_dp_pkg::*;

  typedef enum logic [1:0] {HIT = 2'd0, UFLOW = 2'd1, OFLOW = 2'd2} lstate_t;

  function automatic logic signed [63:0] sx(input logic [63:0] v, input int n);
    logic [63:0] m;
    m = (64'd1 << n) - 64'd1;
    return v[n-1] ? signed'(v | ~m) : signed'(v & m);
  endfunction

  // HLS_cdp_icvt: 9-bit signed converted input
  function automatic logic signed [8:0] icvt(input logic [7:0] b, input logic [7:0] off, input logic [15:0] scale,
                                             input logic [4:0] shift);
    logic signed [63:0] d;
    d = 64'(signed'(b)) - 64'(signed'(off));
    return 9'(rsr(d * 64'(signed'(scale)), 6'(shift), 25, 9));
  endfunction

  // HLS_cdp_ocvt: the int8 output byte
  function automatic logic [7:0] ocvt(input logic signed [24:0] m, input logic [24:0] off, input logic [15:0] scale,
                                      input logic [5:0] shift);
    logic signed [63:0] d;
    d = 64'(m) - 64'(signed'(off));
    return 8'(rsr(d * 64'(signed'(scale)), shift, 42, 8));
  endfunction

  // linear index of d > 0 with a 6-bit signed select; `lo`: the left-shift amount is taken mod 32
  function automatic void lin_index(input logic signed [63:0] d, input logic [5:0] sel, input logic lo,
                                    output logic signed [63:0] idx, output logic [15:0] frac);
    logic [5:0] ls;
    if (!sel[5]) begin
      idx  = d >>> sel;
      frac = 16'((((d & ((64'sd1 <<< sel) - 1)) <<< 16) >>> sel));
    end else begin
      ls   = -sel;                              // 1..32
      if (lo) ls = {1'b0, ls[4:0]};
      idx  = d <<< ls;
      frac = '0;
    end
  endfunction

  // LE (X) table index (4.4): state, index, 16-bit fraction
  function automatic void le_index(input logic signed [63:0] x22, input logic [21:0] start22, input logic linear,
                                   input logic [7:0] offset, input logic [5:0] select, output lstate_t st,
                                   output logic [6:0] idx, output logic [15:0] frac);
    logic signed [63:0] s22, d, i, off;
    int p;
    s22  = sx(64'(start22), 22);
    st   = HIT;
    idx  = '0;
    frac = '0;
    i    = '0;
    if (x22 <= s22) st = UFLOW;                 // equality underflows
    else begin
      d = x22 - s22;
      if (!linear) begin
        p = 0;
        for (int b = 0; b < 23; b++) if (d[b]) p = b;
        frac = p == 0 ? 16'd0 : 16'(((d - (64'sd1 <<< p)) <<< 16) >>> p);
        off  = 64'(signed'(offset));
        if (off >= 0 && 64'(p) < off) st = UFLOW;
        else i = 64'(p) - off;
      end else lin_index(d, select, 1'b0, i, frac);
      if (st == HIT && i >= 64) st = OFLOW;
      idx = 7'(i);
    end
  endfunction

  // LO (Y) table index (4.4)
  function automatic void lo_index(input logic signed [63:0] x22, input logic [21:0] start22, input logic [5:0] select,
                                   output lstate_t st, output logic [8:0] idx, output logic [15:0] frac);
    logic signed [63:0] s22, i;
    s22  = sx(64'(start22), 22);
    st   = HIT;
    idx  = '0;
    frac = '0;
    if (x22 <= s22) st = UFLOW;
    else begin
      lin_index(x22 - s22, select, 1'b1, i, frac);
      if (i >= 256) st = OFLOW;
      idx = 9'(i);
    end
  endfunction

  // y = SAT_16(pd + SH((in1 - in0) * scale, shift)); SH: s > 0 rounding right shift, s <= 0 left shift
  function automatic logic signed [15:0] interp(input logic signed [15:0] pd, input logic signed [39:0] in0,
                                                input logic signed [39:0] in1, input logic signed [16:0] scale,
                                                input logic signed [5:0] shift);
    logic signed [95:0] p, y;
    p = (96'(in1) - 96'(in0)) * 96'(scale);
    if (shift > 0) y = 96'(rshift_round(64'(p), 6'(shift)));
    else y = p <<< (-shift);
    y = y + 96'(pd);
    return y > 96'sd32767 ? 16'sh7fff : y < -96'sd32768 ? 16'sh8000 : y[15:0];
  endfunction
endpackage
