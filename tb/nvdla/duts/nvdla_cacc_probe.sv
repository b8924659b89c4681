// Observes the CACC -> SDP stream of a DUT with a convolution pipeline (bound into it by the DUT's bind file:
// nv_small_cacc_bind.sv, ours_cacc_bind.sv), so that a convolution mismatch can name the stage to suspect: the testbench compares
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
