// The CACC -> SDP probe (nvdla_cacc_probe.sv) in NVIDIA's NV_NVDLA_sdp; nothing of theirs is edited.
// cacc2sdp_pd: [31:0] data, [32] batch end, [33] layer end (NV_NVDLA_CACC_delivery_buffer.v)
bind NV_NVDLA_sdp nvdla_cacc_probe u_cacc_probe (
    .clk      (nvdla_core_clk),
    .valid    (cacc2sdp_valid),
    .ready    (cacc2sdp_ready),
    .data     (cacc2sdp_pd[31:0]),
    .layer_end(cacc2sdp_pd[33])
);
