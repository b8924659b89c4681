// Cube address walker of the nv_small feature layout (spec nvdla.md 6, nvdla_datapath.md 1.2, 2.3):
// surfaces (outer), lines, atoms along the width, then `beats` 8-byte beats per group (inner).
// Unpacked: group (s,h,w) at base + s*surf_stride + h*line_stride + w*8*beats.
// Packed (SDP 1x1 packing, per-kernel operands): group at base + s*8*beats for every (h,w).
// Running addresses only (no multipliers); one step per cycle.
module nvdla_dp_walk (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        start,           // load the configuration below and become active
  input  logic [31:0] base,
  input  logic [31:0] line_stride,
  input  logic [31:0] surf_stride,
  input  logic [12:0] width,           // W-1
  input  logic [12:0] height,          // H-1
  input  logic [9:0]  surfs,           // S-1
  input  logic [1:0]  beats,           // beats per group - 1 (0, 1 or 3)
  input  logic        pack,
  input  logic        step,            // consume the current address (only while active)
  output logic        active,
  output logic [31:0] addr,
  output logic        last             // the current address is the last of the cube
);
  logic [12:0] w, h;
  logic [9:0]  s;
  logic [1:0]  b;
  logic [31:0] s_base, l_base, g_base;
  logic [31:0] ls, ss, gstep;
  logic [12:0] wm, hm;
  logic [9:0]  sm;
  logic [1:0]  bm;
  logic        pk;

  assign addr = g_base + {27'd0, b, 3'd0};
  wire end_b = b == bm, end_w = end_b && w == wm, end_h = end_w && h == hm, end_s = end_h && s == sm;
  assign last = end_s;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      active <= 1'b0;
      {w, h, s, b} <= '0;
      {s_base, l_base, g_base, ls, ss, gstep, wm, hm, sm, bm, pk} <= '0;
    end else if (start) begin
      active <= 1'b1;
      {w, h, s, b} <= '0;
      s_base <= base;
      l_base <= base;
      g_base <= base;
      ls <= line_stride;
      ss <= surf_stride;
      gstep <= {26'd0, {1'b0, beats} + 3'd1, 3'd0};   // 8 * (beats+1) bytes per group
      wm <= width;
      hm <= height;
      sm <= surfs;
      bm <= beats;
      pk <= pack;
    end else if (active && step) begin
      if (!end_b) b <= b + 2'd1;
      else begin
        b <= '0;
        if (!end_w) begin
          w <= w + 13'd1;
          if (!pk) g_base <= g_base + gstep;
        end else begin
          w <= '0;
          if (!end_h) begin
            h <= h + 13'd1;
            if (!pk) begin
              l_base <= l_base + ls;
              g_base <= l_base + ls;
            end else g_base <= s_base;
          end else begin
            h <= '0;
            if (!end_s) begin
              s <= s + 10'd1;
              s_base <= s_base + (pk ? gstep : ss);
              l_base <= s_base + (pk ? gstep : ss);
              g_base <= s_base + (pk ? gstep : ss);
            end else active <= 1'b0;
          end
        end
      end
    end
  end
endmodule
