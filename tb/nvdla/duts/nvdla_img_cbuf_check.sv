// CBUF write monitor of our image fetch (nvdla_cdma_img, bound by ours_cbuf_bind.sv): a layer's image lines
// occupy height x ceil(line pixels x bytes per pixel / 8) CBUF entries from the fetch's first; a write after the
// image's last line, or beyond those entries, is an error even though nothing reads it (issue 23: such a write
// survived mutation testing, because the outputs stay right while it only clobbers unread entries).
module nvdla_img_cbuf_check
(
  input logic               clk,
  input logic               rst_n,
  input logic               start,
  input logic               wr_en,
  input logic [31:0]        wr_addr,     // the entry index, zero-extended
  input logic [13:0]        rows_done,
  input logic [13:0]        height,
  input logic [14:0]        line_px,
  input logic [2:0]         bpp
);
  logic active;   // between the fetch's start and the layer's next start: its writes are this layer's
  wire [31:0] epl     = (32'(line_px) * 32'(bpp) + 32'd7) >> 3;
  wire [31:0] entries = 32'(height) * epl;
  always_ff @(posedge clk or negedge rst_n) begin   // async reset, as the RTL it watches; no check in reset
    if (!rst_n) active <= 1'b0;
    else begin
      if (start) active <= 1'b1;
      if (!start && active && wr_en) begin
        if (rows_done >= height)
          $error("CBUF monitor: image fetch writes CBUF entry %0d after the image's last line (%0d lines done of %0d)",
               wr_addr, rows_done, height);
        else if (wr_addr >= entries)
          $error("CBUF monitor: image fetch writes CBUF entry %0d beyond the image's %0d entries (%0d lines of %0d)",
               wr_addr, entries, height, epl);
      end
    end
  end
endmodule
