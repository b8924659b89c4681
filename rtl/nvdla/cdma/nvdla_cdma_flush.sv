// CDMA post-reset CBUF flush (spec nvdla.md 4.4): FLUSH_DONE rises 2^13 - 1 cycles after reset release
// (within the required 8192) and never clears. The CBUF itself is zeroed by its own reset until a CBUF
// exists; this counter only models the status.
module nvdla_cdma_flush (
  input  logic clk,
  input  logic rst_n,
  output logic flush_done
);
  logic [12:0] cnt;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cnt        <= '0;
      flush_done <= 1'b0;
    end else if (!flush_done) begin
      cnt        <= cnt + 1'b1;
      flush_done <= &cnt;
    end
  end
endmodule
