// Weighted round-robin arbiter: the current winner keeps the grant for up to `weight` consecutive
// accepted requests (weight 0 counts as 1), then the next requester in round-robin order wins.
// gnt is one-hot (or zero) and combinational from req; `accept` says the granted request was taken.
module wrr_arbiter #(
  parameter int N = 2,
  localparam int PW = (N > 1) ? $clog2(N) : 1
) (
  input  logic           clk,
  input  logic           rst_n,
  input  logic [N-1:0]   req,
  input  logic [N*8-1:0] weight,
  input  logic           accept,
  output logic [N-1:0]   gnt
);
  logic [PW-1:0] ptr, sel;
  logic [7:0]    cnt;                     // grants given to ptr in a row
  logic [7:0]    w;
  logic          keep;

  assign w    = weight[ptr*8 +: 8];
  assign keep = req[ptr] && cnt < ((w == 8'd0) ? 8'd1 : w);

  // first requester after ptr in round-robin order, ptr itself last
  always_comb begin
    sel = ptr;
    for (int k = N; k >= 1; k--) begin
      if (req[(32'(ptr) + k) % N]) sel = PW'((32'(ptr) + k) % N);
    end
    if (keep) sel = ptr;
  end

  always_comb begin
    gnt = '0;
    if (|req) gnt[sel] = 1'b1;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      ptr <= '0;
      cnt <= '0;
    end else if (accept && |req) begin
      if (keep) cnt <= cnt + 1'b1;
      else begin
        ptr <= sel;
        cnt <= 8'd1;
      end
    end
  end
endmodule
