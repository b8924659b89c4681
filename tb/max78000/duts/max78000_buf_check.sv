// Buffer write monitor of our MAX78000 engine (bound into max78000_engine by ours_buf_bind.sv, issue 23).
//  - Pooled-plane buffer (the engine's line/window buffer): a layer pools H_p x W_p pixels of X passes into rows
//    0 .. H_p*W_p*X-1, which the conv (or pass-through) phase then reads. A write to a row beyond that plane is
//    an error, and so is a pool phase that ends without having written every row of it.
//  - Data-memory writes of a layer: each must fall in the output region of one of its writing quadrants:
//    WPTR_BASE .. + the largest offset its loops produce (spec 3.10: slot group j>>2 times WPTR_MOFF, output
//    pass times WPTR_CHOFF, pixel times wptr_inc+1, four times that and the lane for 32-bit output; pass-through
//    timeslots times WPTR_TOFF), modulo the 17-bit pointer. A layer whose writes wrap at the next layer's FBUF
//    must stay in the memories its groups' bases are in.
// Outputs stay right when such a write lands where nothing reads it, so only a monitor sees it. The layer's
// parameters come as fields (the adapter is compiled before the RTL's package, so it cannot name lparams_t):
// the lead quadrant's loop bounds, and per quadrant q its output registers (bits [q]).
module max78000_buf_check (
  input logic             clk,
  input logic             rst_n,
  input logic [4:0]       layer,
  input logic             init,       // the layer's parameters are latched this cycle: rows restart
  input logic             pdrain,     // the pool phase's last buffer write lands this cycle
  input logic [10:0]      h_p, w_p, h_out, w_out,
  input logic [8:0]       x,          // input passes
  input logic [15:0]      nk,         // output slots
  input logic             quad,       // qupac layer 0: quadrant q's slot K goes to lane q of slot 4K (4*nk slots)
  input logic [9:0]       s,          // slots per output pass
  input logic [3:0]       writes, passthru, bigdwrt,
  input logic [3:0][15:0] pro_en,
  input logic [3:0][16:0] wbase, moff, choff, toff, roll_next,
  input logic [3:0][4:0]  inc1,       // wptr_inc + 1
  input logic             pb_we,      // a pooled-plane buffer write
  input logic [15:0]      pb_row,
  input logic             dm_we,      // a data-memory write of the engine
  input logic [16:0]      dm_ptr,     // {memory, word}
  input logic             pass_wr     // it is a pass-through (timeslot) write
);
  logic [31:0] rows;                  // pooled-plane rows written this layer
  logic        pdrain_q;
  logic [31:0] plane, kmax, jgmax, pmax, nch;

  always_comb begin
    plane = 32'(h_p) * 32'(w_p) * 32'(x);
    kmax = 32'(h_out) * 32'(w_out) - 32'd1;
    nch = quad ? 32'd4 * 32'(nk) : 32'(nk);
    // qupac: slot 4K % S + q can reach S + 2 (a pass of S slots not a multiple of 4)
    jgmax = ((nch <= 32'(s) ? nch : 32'(s)) - 32'd1 + (quad ? 32'd3 : 32'd0)) >> 2;
    pmax = s != 10'd0 && nch != 32'd0 ? (nch - 32'd1) / 32'(s) : 32'd0;
  end

  // Offsets from WPTR_BASE of quadrant q's writes this layer: its slot groups' (pass-through: timeslots') bases
  // span 0..group(q), each writes pixel offsets 0..pixel(q).
  function automatic logic [31:0] group(input int q, input logic pass);
    logic [31:0] npro;
    npro = 32'($countones(pro_en[q]));
    if (pass) return (npro == 0 ? 32'd0 : (npro - 32'd1) >> 2) * 32'(toff[q]);
    return jgmax * 32'(moff[q]);
  endfunction
  function automatic logic [31:0] pixel(input int q, input logic pass);
    if (pass) return (kmax * 32'(x) + 32'(x) - 32'd1) * 32'(inc1[q]);
    if (bigdwrt[q]) return 32'd4 * kmax * 32'(inc1[q]) + pmax * 32'(choff[q]) + 32'd3;
    return kmax * 32'(inc1[q]) + pmax * 32'(choff[q]);
  endfunction
  function automatic logic inside_region(input int q, input logic pass, input logic [16:0] ptr);
    logic [31:0] hi;
    if (roll_next[q] != 17'd0)        // offsets wrap at FBUF inside the memory of each group's base
      return 32'(ptr[16:13]) >= 32'(wbase[q][16:13]) && 32'(ptr[16:13]) <= (32'(wbase[q]) + group(q, pass)) >> 13;
    hi = group(q, pass) + pixel(q, pass);
    return hi >= 32'h20000 || 32'(17'(ptr - wbase[q])) <= hi;
  endfunction

  always_ff @(posedge clk or negedge rst_n) begin   // async reset, as the RTL it watches; no check in reset
    if (!rst_n) begin
      rows <= '0;
      pdrain_q <= 1'b0;
    end else begin
      pdrain_q <= pdrain;
      if (init) rows <= '0;
      else if (pb_we) begin
        rows <= rows + 32'd1;
        if (32'(pb_row) >= plane)
          $error("MAX78000 buffer monitor: layer %0d writes pooled-plane row %0d beyond its %0dx%0dx%0d = %0d rows",
                 layer, pb_row, h_p, w_p, x, plane);
      end
      if (pdrain_q && rows != plane)
        $error("MAX78000 buffer monitor: layer %0d's pool phase wrote %0d pooled-plane rows, its plane has %0d",
               layer, rows, plane);
      if (dm_we) begin
        logic ok;
        ok = 1'b0;
        for (int q = 0; q < 4; q++)
          if (writes[q] && (!pass_wr || passthru[q]) && inside_region(q, pass_wr, dm_ptr)) ok = 1'b1;
        if (!ok)
          $error("MAX78000 buffer monitor: layer %0d writes data memory %0d word 0x%04h, outside the output region of every writing quadrant (WPTR_BASE 0x%05h 0x%05h 0x%05h 0x%05h)",
                 layer, dm_ptr[16:13], dm_ptr[12:0], wbase[0], wbase[1], wbase[2], wbase[3]);
      end
    end
  end
endmodule
