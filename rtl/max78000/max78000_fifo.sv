// max78000_fifo: the four APB input FIFOs of the MAX78000 CNN (spec 2.1 FIFO_CTRL/FIFO_STAT/FIFO_WRk, D10).
//
// FIFO k (8 words, D10) takes the words written to FIFO_WRk while FIFO_CTRL.fifo_en[k] is set and it is not
// full (otherwise the word is dropped, spec 2.1). The engine's FIFO drain (max78000_fifo_drain) pops them.
// Clearing fifo_en[k] empties FIFO k (a disabled FIFO holds nothing; its flags read 0, D10).
// Status (FIFO_STAT): per FIFO `full = level==8`, `empty = level==0`, `almost_full = level > full_thresh`,
// `almost_empty = level < empty_thresh`, all 0 for a disabled FIFO. The summary bits are taken over the
// enabled FIFOs and are 0 when none is enabled (as the golden model): `any empty`/`any almost_empty` = OR,
// `all full`/`all almost_full` = AND. `wptr_eq`/`rptr_eq` read 0: the spec does not say which pointers
// they compare, and no generated program reads them.
// Interrupt: OR over k of (flag & its FIFO_CTRL enable bit), level-sensitive; the top ORs it into irq (D06).
module max78000_fifo (
  input  logic        clk,
  input  logic        rst_n,
  input  logic [31:0] ctrl,         // FIFO_CTRL
  input  logic [3:0]  push,         // FIFO_WRk write strobes
  input  logic [31:0] wdata,
  input  logic [3:0]  pop,          // drain: take the head word of FIFO k (only when not empty)
  output logic [31:0] head [4],     // head word of each FIFO
  output logic [3:0]  empty,        // per FIFO, 1 also when disabled (for the drain)
  output logic [21:0] stat,         // FIFO_STAT
  output logic        irq
);
  localparam int DEPTH = 8;

  logic [31:0] mem [4][DEPTH];
  logic [2:0]  rp [4], wp [4];
  logic [3:0]  lvl [4];
  logic [3:0]  en, full_f, empty_f, afull_f, aempty_f;
  logic [2:0]  full_thr, empty_thr;

  assign en = ctrl[15:12];
  assign full_thr = ctrl[4:2];
  assign empty_thr = ctrl[9:7];

  for (genvar k = 0; k < 4; k++) begin : g_fifo
    wire do_push = push[k] && en[k] && lvl[k] != 4'(DEPTH);
    wire do_pop = pop[k] && lvl[k] != 4'd0;
    always_ff @(posedge clk or negedge rst_n) begin
      if (!rst_n) begin
        rp[k] <= '0; wp[k] <= '0; lvl[k] <= '0;
      end else if (!en[k]) begin
        rp[k] <= '0; wp[k] <= '0; lvl[k] <= '0;
      end else begin
        if (do_push) wp[k] <= wp[k] + 3'd1;
        if (do_pop) rp[k] <= rp[k] + 3'd1;
        lvl[k] <= lvl[k] + 4'(do_push) - 4'(do_pop);
      end
    end
    always_ff @(posedge clk)
      if (do_push) mem[k][wp[k]] <= wdata;
    assign head[k] = mem[k][rp[k]];
    assign empty[k] = lvl[k] == 4'd0;
    assign full_f[k] = en[k] && lvl[k] == 4'(DEPTH);
    assign empty_f[k] = en[k] && lvl[k] == 4'd0;
    assign afull_f[k] = en[k] && lvl[k] > 4'(full_thr);
    assign aempty_f[k] = en[k] && lvl[k] < 4'(empty_thr);
  end

  logic all_full, all_afull;
  always_comb begin
    all_full = en != 4'd0;
    all_afull = en != 4'd0;
    for (int k = 0; k < 4; k++)
      if (en[k]) begin
        if (!full_f[k]) all_full = 1'b0;
        if (!afull_f[k]) all_afull = 1'b0;
      end
    stat = {2'b00, |aempty_f, all_afull, |empty_f, all_full, aempty_f, afull_f, empty_f, full_f};
    irq = |((aempty_f & ctrl[31:28]) | (afull_f & ctrl[27:24]) | (empty_f & ctrl[23:20]) | (full_f & ctrl[19:16]));
  end
  wire unused = ^{ctrl[11:10], ctrl[6:5], ctrl[1:0]};   // fifo_cpl: the drain; rdy_sel: the APB (D04)
endmodule
