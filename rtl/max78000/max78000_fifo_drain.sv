// max78000_fifo_drain: moves FIFO input into the data memories during a run (spec D46).
//
// In a run started with the master's CTRL.fifo_en, FIFO k (FIFO_CTRL.fifo_en[k]) supplies layer 0's input
// words of quadrant k: its i-th word goes to data memory 4k, word `RPTR_BASE[12:0] + i` of quadrant k's
// layer 0 (mod 8192), for i < IFRM of quadrant k (D16); later words stay in the FIFO. The words land as soon
// as they arrive, one per FIFO per cycle, in the memory's write port whenever the engine is not writing
// that memory; `cnt[k]` (words delivered) lets layer 0's pool phase wait for the word it reads next, so the
// layer runs as fast as the host fills the FIFO. With FIFO_CTRL.fifo_cpl all enabled FIFOs step together.
// A circular input buffer (CTRL.stream_en and lilbuf, FBUF[0] != 0) wraps the memory address at FBUF and also
// gives the word to the engine's logical frame of layer 0's input (streaming, 2.4).
module max78000_fifo_drain (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        start,         // run start: counts restart at 0
  input  logic        active,        // a run is in progress and the master has CTRL.fifo_en
  input  logic [3:0]  fen,           // FIFO_CTRL.fifo_en
  input  logic        cpl,           // FIFO_CTRL.fifo_cpl
  input  logic [19:0] ifrm [4],      // IFRM of quadrant k
  input  logic [12:0] rptr [4],      // layer 0 RPTR_BASE[12:0] of quadrant k
  input  logic [16:0] roll [4],      // layer 0's circular buffer (FBUF[0] when streaming with lilbuf), 0 = none
  input  logic [3:0]  fempty,        // FIFO k holds nothing
  input  logic [3:0]  mem_busy,      // the engine writes memory 4k this cycle
  output logic [3:0]  pop,           // = write of the head word of FIFO k into memory 4k
  output logic [12:0] waddr [4],
  output logic [3:0]  lw,            // the word also enters layer 0's logical frame at offset cnt[k]
  output logic [19:0] cnt [4]        // words of FIFO k delivered in this run
);
  logic [3:0] want, ready;
  always_comb begin
    for (int k = 0; k < 4; k++) begin
      want[k] = active && fen[k] && cnt[k] < ifrm[k];
      ready[k] = want[k] && !fempty[k] && !mem_busy[k];
      waddr[k] = 13'(32'(rptr[k]) + (roll[k] != 17'd0 ? 32'(cnt[k]) % 32'(roll[k]) : 32'(cnt[k])));
    end
    // coupled: all FIFOs that still want words step in the same cycle
    pop = (cpl && (ready != want)) ? 4'd0 : ready;
    for (int k = 0; k < 4; k++) lw[k] = pop[k] && roll[k] != 17'd0;
  end

  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) for (int k = 0; k < 4; k++) cnt[k] <= '0;
    else if (start) for (int k = 0; k < 4; k++) cnt[k] <= '0;
    else for (int k = 0; k < 4; k++) if (pop[k]) cnt[k] <= cnt[k] + 20'd1;
endmodule
