// Buffer write monitor of our NE16 engine (bound into ne16_engine by ours_buf_bind.sv, issue 23). Weights live
// in a ring of planes: the load stage reserves a channel's planes from the ring's free end, compute frees them
// from its base after the channel's last step. A weight response writes planes [first, first + n) of the ring,
// which must all lie in the reserved part [base, base + used) (mod the ring): a write into a freed plane lands
// in space the next channel will overwrite or the array reads too early. A window response must write a window
// buffer being filled. Outputs stay right when such a write lands in unused space, so only a monitor sees it.
module ne16_buf_check #(
  parameter int unsigned NPL = 32             // planes in the ring
) (
  input logic       clk,
  input logic       rst_n,
  input logic       w_resp,       // a weight response is written this cycle
  input logic [4:0] w_first,      // its first ring plane
  input logic [3:0] w_n,          // planes it carries
  input logic [4:0] ring_base,    // first plane of the channel being computed
  input logic [5:0] ring_used,    // planes reserved and not yet freed
  input logic       x_resp,       // a window response is written this cycle
  input logic       x_buf_fill    // its window buffer is in the FILL state
);
  always_ff @(posedge clk or negedge rst_n) begin   // no check in reset (X-randomised builds)
    if (!rst_n) begin
    end else begin
      if (ring_used > 6'(NPL))
        $error("NE16 buffer monitor: %0d weight planes reserved in a ring of %0d", ring_used, NPL);
      for (int p = 0; p < 8; p++)
        if (w_resp && 4'(p) < w_n && 6'(5'(w_first + 5'(p) - ring_base)) >= ring_used)
          $error("NE16 buffer monitor: weight plane %0d written outside the reserved planes %0d..+%0d of the ring",
                 5'(w_first + 5'(p)), ring_base, ring_used);
      if (x_resp && !x_buf_fill)
        $error("NE16 buffer monitor: window data written into a buffer that is not being filled");
    end
  end
endmodule
