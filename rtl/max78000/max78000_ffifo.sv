// max78000_ffifo: the fast FIFO (M3), the RISC-V core's input path into the CNN (ai8x-synthesis README
// "fast FIFO": up to four HWC channels or one CHW channel, processors 0-3 of quadrant 0).
//
// Registers at 0x400C_0400 (generated max78000_ffifo_regs; tornadocnn.py FAST_FIFO_CR/SR/IE/IS/DR): a write
// of FF_DR pushes one word unless the FIFO is full (then it is dropped, as the APB FIFOs do, 2.1);
// FF_SR = {full, empty}. FF_CR, FF_IE and FF_IS are stored only: no document gives their fields, and the
// fast FIFO's interrupt is a line of its own (CNN_FIFO_IRQn), not the CNN's irq.
// Depth 16: ai8xize sets a threshold of 10 (FF_CR = 10 << 4), so the FIFO holds more than 10 words; nothing
// gives the exact depth, and the programs poll full before each word, so any depth > 10 runs them alike.
// While quadrant 0's CTRL.ffifo_en is set, the CNN's FIFO drain pops this FIFO in place of FIFO 0 (D46).
module max78000_ffifo (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        wr_en,         // APB write of the block, committed
  input  logic [10:0] regw,          // word offset in the block's window
  input  logic [31:0] wdata,
  input  logic [3:0]  wstrb,
  output logic [31:0] rdata,
  output logic        rhit,
  input  logic        pop,           // the drain takes the head word (only when not empty)
  output logic [31:0] head,
  output logic        empty
);
  localparam int DEPTH = 16;

  logic [31:0] cr_q, ie_q, is_q;
  logic        dr_we;
  logic [31:0] mem [DEPTH];
  logic [3:0]  rp, wp;
  logic [4:0]  lvl;
  wire full = lvl == 5'(DEPTH);

  max78000_ffifo_regs u_regs (
    .clk, .rst_n, .wr_en, .waddr(regw), .wdata, .wstrb, .raddr(regw), .rdata, .rhit,
    .ff_cr_q(cr_q), .ff_sr_ro_i({30'd0, full, lvl == 5'd0}), .ff_ie_q(ie_q), .ff_is_q(is_q), .ff_dr_we(dr_we)
  );

  // DR takes whole words (the golden model refuses a partial write: nothing specifies one)
  wire do_push = dr_we && !full;
  wire do_pop = pop && lvl != 5'd0;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      rp <= '0; wp <= '0; lvl <= '0;
    end else begin
      if (do_push) wp <= wp + 4'd1;
      if (do_pop) rp <= rp + 4'd1;
      lvl <= lvl + 5'(do_push) - 5'(do_pop);
    end
  end
  always_ff @(posedge clk)
    if (do_push) mem[wp] <= wdata;
  assign head = mem[rp];
  assign empty = lvl == 5'd0;
  wire unused = ^{cr_q, ie_q, is_q, wstrb};
endmodule
