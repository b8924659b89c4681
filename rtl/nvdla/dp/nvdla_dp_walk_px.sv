// Pixel-major cube address walker (CDP, spec nvdla_datapath.md 4.2): lines (outer), atoms along the
// width, then the surfaces of that pixel (inner): atom (s,h,w) at base + h*line_stride + w*8 +
// s*surf_stride. Running addresses only; one step per cycle. Same ports as nvdla_dp_walk (beats and
// pack are not used: one 8-byte beat per atom, never packed).
module nvdla_dp_walk_px (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        start,
  input  logic [31:0] base,
  input  logic [31:0] line_stride,
  input  logic [31:0] surf_stride,
  input  logic [12:0] width,           // W-1
  input  logic [12:0] height,          // H-1
  input  logic [9:0]  surfs,           // S-1
  input  logic        step,
  output logic        active,
  output logic [31:0] addr,
  output logic        last
);
  logic [12:0] w, h, wm, hm;
  logic [9:0]  s, sm;
  logic [31:0] l_base, p_base, ls, ss;

  wire end_s = s == sm, end_w = end_s && w == wm, end_h = end_w && h == hm;
  assign last = end_h;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      active <= 1'b0;
      {w, h, s, wm, hm, sm, l_base, p_base, addr, ls, ss} <= '0;
    end else if (start) begin
      active <= 1'b1;
      {w, h, s} <= '0;
      {l_base, p_base, addr} <= {base, base, base};
      ls <= line_stride;
      ss <= surf_stride;
      wm <= width;
      hm <= height;
      sm <= surfs;
    end else if (active && step) begin
      if (!end_s) begin
        s    <= s + 10'd1;
        addr <= addr + ss;
      end else begin
        s <= '0;
        if (!end_w) begin
          w      <= w + 13'd1;
          p_base <= p_base + 32'd8;
          addr   <= p_base + 32'd8;
        end else begin
          w <= '0;
          if (!end_h) begin
            h      <= h + 13'd1;
            l_base <= l_base + ls;
            p_base <= l_base + ls;
            addr   <= l_base + ls;
          end else active <= 1'b0;
        end
      end
    end
  end
endmodule
