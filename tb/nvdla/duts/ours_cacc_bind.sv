// The CACC -> SDP probe (nvdla_cacc_probe.sv) on our convolution pipeline's output to SDP.
bind nvdla_conv nvdla_cacc_probe u_cacc_probe (
    .clk      (clk),
    .valid    (fly_valid),
    .ready    (fly_ready),
    .data     (fly_data),
    .layer_end(fly_last)
);
