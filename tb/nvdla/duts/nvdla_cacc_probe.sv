// Observes the CACC -> SDP stream of a DUT with a convolution pipeline (bound into nv_small's NV_NVDLA_sdp
// by nv_small.dut), so that a convolution mismatch can name the stage to suspect: the testbench compares
// the stream with the golden model's CACC output (tb/nvdla/nvdla_tb.c, conv_stream_check).
module nvdla_cacc_probe (
    input logic        clk,
    input logic        valid,
    input logic        ready,
    input logic [31:0] data,       // one truncated int32 accumulator
    input logic        layer_end
);
  import "DPI-C" function void nvdla_cacc_beat(input int unsigned value, input bit last);
  always_ff @(posedge clk) if (valid && ready) nvdla_cacc_beat(data, layer_end);
endmodule

// cacc2sdp_pd: [31:0] data, [32] batch end, [33] layer end (NV_NVDLA_CACC_delivery_buffer.v)
bind NV_NVDLA_sdp nvdla_cacc_probe u_cacc_probe (
    .clk      (nvdla_core_clk),
    .valid    (cacc2sdp_valid),
    .ready    (cacc2sdp_ready),
    .data     (cacc2sdp_pd[31:0]),
    .layer_end(cacc2sdp_pd[33])
);
