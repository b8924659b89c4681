// PDP arithmetic as pure functions (spec nvdla_datapath.md 3.3): the cal1d row reduction over one
// horizontal window, the cal2d vertical combine, and the two-step reciprocal rounding RQ with its
// positive-overflow quirk. Values per lane are held as 14-bit signed (AVG sums wrap at 14 bits; MAX/MIN
// keep an int8 sign-extended).
package nvdla_pdp_pkg;
  localparam logic [1:0] M_AVG = 2'd0, M_MAX = 2'd1;          // 2 = MIN

  function automatic logic signed [63:0] sxn(input logic [63:0] v, input int n);
    logic [63:0] m;
    m = (64'd1 << n) - 64'd1;
    return v[n-1] ? signed'(v | ~m) : signed'(v & m);
  endfunction

  // RQ(v, r, P, N): multiply by the unsigned Q0.16 reciprocal, keep P bits, round; a positive result
  // keeps only N-1 integer bits (it wraps, it does not saturate).
  function automatic logic signed [63:0] rq(input logic signed [63:0] v, input logic [16:0] r, input int P,
                                            input int N);
    logic signed [63:0] p, q;
    p = sxn(64'(v * signed'({47'd0, r})), P);
    if (p >= 0) q = ((p >>> 16) & ((64'sd1 <<< (N - 1)) - 1)) + ((p >>> 15) & 64'sd1);
    else        q = ((p >>> 16) & ((64'sd1 <<< N) - 1)) + (((p & 64'hFFFF) > 64'h8000) ? 64'sd1 : 64'sd0);
    return sxn(q, N);
  endfunction

  // cal1d of one lane: the window is the newest kw entries of the shift register (entry 0 newest), real
  // entries only. AVG adds the pad value of the nw missing columns (11-bit wrap).
  function automatic logic signed [13:0] row_reduce(input logic [7:0][7:0] vals, input logic [7:0] real_e,
                                                    input logic [3:0] kw, input logic [1:0] method,
                                                    input logic [6:0][18:0] pv);
    logic signed [13:0] acc;
    logic [3:0]         nreal;
    logic signed [7:0]  e;
    logic               any;
    acc   = '0;
    nreal = '0;
    any   = 1'b0;
    for (int j = 0; j < 8; j++) begin
      e = signed'(vals[j]);
      if (4'(j) < kw && real_e[j]) begin
        nreal = nreal + 4'd1;
        if (method == M_AVG) acc = acc + 14'(e);
        else if (!any || (method == M_MAX ? 14'(e) > acc : 14'(e) < acc)) acc = 14'(e);
        any = 1'b1;
      end
    end
    if (method == M_AVG && nreal != kw)
      acc = 14'(sxn(64'(acc) + 64'(sxn(64'(pv[kw - nreal - 4'd1]), 11)), 11));
    return acc;
  endfunction

  // cal2d: fold one row result into the column accumulator (fresh: no real row yet)
  function automatic logic signed [13:0] col_combine(input logic signed [13:0] acc, input logic signed [13:0] r,
                                                     input logic fresh, input logic [1:0] method);
    if (fresh) return r;
    if (method == M_AVG) return acc + r;                          // 14-bit wrap
    if (method == M_MAX) return r > acc ? r : acc;
    return r < acc ? r : acc;
  endfunction

  // final value of one lane: AVG adds the nh pad rows (PV[nh]*kw, 14-bit), divides by width then height
  function automatic logic [7:0] finish(input logic signed [13:0] acc, input logic [3:0] nh, input logic [3:0] kw,
                                        input logic [1:0] method, input logic [6:0][18:0] pv,
                                        input logic [16:0] recip_w, input logic [16:0] recip_h);
    logic signed [63:0] a, v1;
    if (method != M_AVG) return acc[7:0];
    a = 64'(acc);
    if (nh != 4'd0) a = a + sxn(64'(pv[nh - 4'd1][13:0]) * 64'(kw), 14);
    v1 = rq(a, recip_w, 31, 11);
    return 8'(rq(v1, recip_h, 28, 8));
  endfunction
endpackage
