// Buffer write monitor of our NE16 engine (bound into ne16_engine by ours_buf_bind.sv, issue 23): a weight
// response writes planes [first, first + n) of one weight slot, which must be the slot being filled (not one the
// MAC array is using) and must stay within the job's Qw planes (no wrap past the slot's 8); a window response
// writes a window buffer being filled. Outputs stay right when such a write lands in unused space, so only a
// monitor sees it.
module ne16_buf_check (
  input logic       clk,
  input logic       rst_n,
  input logic       w_resp,       // a weight response is written this cycle
  input logic       w_slot_fill,  // its slot is in the FILL state
  input logic [5:0] w_first,      // first plane
  input logic [3:0] w_n,          // planes carried
  input logic [3:0] qw,           // the job's weight planes
  input logic       linear,       // linear mode: planes are 32-byte chunks, not Qw bit planes
  input logic       x_resp,       // a window response is written this cycle
  input logic       x_buf_fill    // its window buffer is in the FILL state
);
  always_ff @(posedge clk or negedge rst_n) begin   // no check in reset (X-randomised builds)
    if (!rst_n) begin
    end else begin
    if (w_resp && !w_slot_fill)
      $error("NE16 buffer monitor: weight planes written into a slot that is not being filled");
    if (w_resp && 7'(w_first[2:0]) + 7'(w_n) > 7'd8)
      $error("NE16 buffer monitor: weight planes %0d..%0d wrap past the slot's 8", w_first[2:0], 7'(w_first[2:0]) + 7'(w_n) - 1);
    else if (w_resp && !linear && 7'(w_first[2:0]) + 7'(w_n) > 7'(qw))
      $error("NE16 buffer monitor: weight planes %0d..%0d written beyond the job's Qw = %0d", w_first[2:0],
             7'(w_first[2:0]) + 7'(w_n) - 1, qw);
    if (x_resp && !x_buf_fill)
      $error("NE16 buffer monitor: window data written into a buffer that is not being filled");
    end
  end
endmodule
