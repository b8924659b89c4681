// CACC: two accumulator banks of STRIPE pixels x 8 kernels (34-bit, saturating). CMAC's partial sums of a stripe
// accumulate in one bank while the other drains to SDP on the fly, one 32-bit element a cycle in cube order
// (kernel group, row, column, lane), each rounded by CLIP_TRUNCATE and clipped to int32 (counted in
// D_OUT_SATURATION). layer_done pulses when the layer's last stripe has been handed to SDP.
module nvdla_cacc
  import nvdla_conv_pkg::*;
(
  input  logic           clk,
  input  logic           rst_n,
  input  logic           start,
  input  logic [4:0]     truncate,
  // stripes (from CSC)
  input  logic           stripe_start,
  input  logic           stripe_bank,
  input  logic [4:0]     stripe_np,
  input  logic           stripe_layer_last,
  output logic [1:0]     bank_busy,
  // partial sums (from CMAC)
  input  logic           in_valid,
  input  psum_t [ATOM-1:0] in_sum,
  input  logic [PW-1:0]  in_pix,
  input  logic           in_bank,
  input  logic           in_first,
  input  logic           in_last,
  // to SDP
  output logic           fly_valid,
  output logic [31:0]    fly_data,
  input  logic           fly_ready,
  output logic           fly_last,            // with fly_valid: the layer's last element
  output logic           layer_done,
  output logic [31:0]    sat_count
);
  acc_t [ATOM-1:0] acc [2][STRIPE];
  logic [4:0]      np [2];
  logic [1:0]      ready, last_of_layer;
  logic            rb;                        // bank draining next (stripes alternate banks)
  logic [PW-1:0]   rp;
  logic [2:0]      lane;

  always_ff @(posedge clk) begin
    if (in_valid)
      for (int k = 0; k < ATOM; k++)
        acc[in_bank][in_pix][k] <= in_first ? acc_t'(in_sum[k]) : acc_add(acc[in_bank][in_pix][k], in_sum[k]);
  end

  logic sat;
  assign fly_valid = ready[rb];
  assign fly_data  = cacc_round(acc[rb][rp][lane], truncate, sat);
  wire   take      = fly_valid && fly_ready;
  wire   last_elem = lane == 3'd7 && 5'(rp) == np[rb] - 5'd1;
  assign fly_last  = last_elem && last_of_layer[rb];

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {bank_busy, ready, last_of_layer, rb, rp, lane, layer_done, sat_count} <= '0;
      np[0] <= '0;
      np[1] <= '0;
    end else if (start) begin
      {bank_busy, ready, last_of_layer, rb, rp, lane, layer_done, sat_count} <= '0;
    end else begin
      layer_done <= 1'b0;
      if (stripe_start) begin
        bank_busy[stripe_bank]     <= 1'b1;
        np[stripe_bank]            <= stripe_np;
        last_of_layer[stripe_bank] <= stripe_layer_last;
      end
      if (in_valid && in_last) ready[in_bank] <= 1'b1;
      if (take) begin
        sat_count <= sat_count + {31'd0, sat};
        lane <= lane + 3'd1;
        if (lane == 3'd7) rp <= rp + 1'b1;
        if (last_elem) begin
          rp <= '0;
          ready[rb] <= 1'b0;
          bank_busy[rb] <= 1'b0;
          rb <= ~rb;
          layer_done <= last_of_layer[rb];
        end
      end
    end
  end
endmodule
