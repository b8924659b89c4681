// The CBUF write monitor (nvdla_img_cbuf_check.sv) on our image fetch.
bind nvdla_cdma_img nvdla_img_cbuf_check u_img_cbuf_check (
    .clk      (clk),
    .rst_n    (rst_n),
    .start    (start),
    .wr_en    (cbuf_wr_en),
    .wr_addr  (32'(cbuf_wr_addr)),
    .rows_done(rows_done),
    .height   (height),
    .line_px  (line_px),
    .bpp      (bpp)
);
