// GLB interrupt logic (spec nvdla.md 3.3, 4.3): unit done pulses are registered once and set
// S_INTR_STATUS together with S_INTR_SET writes (set wins over a W1C clear in the register file).
// RUBIK bits 8/9 are never set. dla_intr = |(STATUS & ~MASK), one flop later.
module nvdla_glb_intr (
  input  logic        clk,
  input  logic        rst_n,
  input  logic [21:0] done,          // one-cycle done pulses, GLB bit positions
  input  logic        set_wr,        // CSB write to S_INTR_SET
  input  logic [31:0] wdat,
  input  logic [31:0] status_q,
  input  logic [31:0] mask_q,
  output logic [31:0] status_set,
  output logic        dla_intr
);
  localparam logic [31:0] SETTABLE = 32'h003F_00FF;
  logic [21:0] done_q;

  assign status_set = ({10'd0, done_q} | (set_wr ? wdat : 32'd0)) & SETTABLE;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      done_q   <= '0;
      dla_intr <= 1'b0;
    end else begin
      done_q   <= done;
      dla_intr <= |(status_q & ~mask_q);
    end
  end
endmodule
