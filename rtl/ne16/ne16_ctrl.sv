// NE16 control plane: APB4 slave (spec 1.2), two job contexts and the job queue of 2.3, events (1.4).
// The engine is started with a context and reports completion (with a JOB_ERROR code) via done_i.
module ne16_ctrl
  import ne16_regs_pkg::*;
(
  input  logic        clk_i,
  input  logic        rst_ni,
  // APB4
  input  logic        psel_i,
  input  logic        penable_i,
  input  logic        pwrite_i,
  input  logic [31:0] paddr_i,
  input  logic [31:0] pwdata_i,
  input  logic [3:0]  pstrb_i,
  output logic        pready_o,
  output logic        pslverr_o,
  output logic [31:0] prdata_o,
  // engine
  output logic        start_o,      // one-cycle: run the job in ctx_o
  output job_regs_t   job_regs_o,   // registers of the context to start (valid with start_o)
  output logic        clear_o,      // SOFT_CLEAR: abort the engine
  input  logic        done_i,       // one-cycle: job finished (also rejected)
  input  logic [7:0]  err_i,        // JOB_ERROR code with done_i
  // events
  output logic        evt_done_o,
  output logic        busy_o,
  output logic [7:0]  sw_evt_o
);
  // ---------------- state ----------------
  logic [7:0]  next_id_q, last_id_q;
  logic        open_q, trig_q, running_q;
  logic [1:0]  count_q;                 // committed, not completed
  logic [7:0]  fifo_q [2];              // ids; [0] = oldest
  logic [31:0] finished_q;
  logic [1:0]  status_q;                // busy bit per context
  logic [16:0] job_error_q;
  logic [7:0]  sw_evt_q;
  job_regs_t   ctx_regs [2];

  // ---------------- APB decode ----------------
  logic        access, wr, rd;
  logic [7:0]  off;
  logic        is_job_reg, bad_addr, bad_write, err;
  assign access = psel_i & penable_i;
  assign off = paddr_i[7:0];
  assign wr = access & pwrite_i;
  assign rd = access & ~pwrite_i;
  assign is_job_reg = off >= 8'h20 && off <= 8'h7C;
  assign bad_addr = paddr_i[1:0] != 2'b00 || off >= 8'h80;
  always_comb begin
    bad_write = 1'b0;
    if (off == REG_ACQUIRE || off == REG_FINISHED_JOBS || off == REG_STATUS || off == REG_RUNNING_JOB ||
        off == REG_JOB_ERROR) bad_write = 1'b1;
    if ((off == REG_TRIGGER || off == REG_SOFT_CLEAR || off == REG_SW_SYNC) && pstrb_i != 4'b1111) bad_write = 1'b1;
    if ((is_job_reg || off == REG_TRIGGER) && !open_q) bad_write = 1'b1;
  end
  assign err = access & (bad_addr | (pwrite_i & bad_write));

  logic        do_acquire, do_commit, do_clear, do_sync, do_jobwr;
  assign do_acquire = rd & ~err & (off == REG_ACQUIRE) & ~open_q & (count_q != 2'd2);
  assign do_commit  = wr & ~err & (off == REG_TRIGGER);
  assign do_clear   = wr & ~err & (off == REG_SOFT_CLEAR);
  assign do_sync    = wr & ~err & (off == REG_SW_SYNC);
  assign do_jobwr   = wr & ~err & is_job_reg;

  logic        read_ctx;
  assign read_ctx = open_q ? next_id_q[0] ^ 1'b1 : next_id_q[0];   // open_ctx = id of the open job & 1

  always_comb begin
    prdata_o = '0;
    if (rd && !err) begin
      unique case (off)
        REG_ACQUIRE:       prdata_o = open_q ? 32'hFFFF_FFFE : (count_q == 2'd2 ? 32'hFFFF_FFFF : {24'd0, next_id_q});
        REG_FINISHED_JOBS: prdata_o = finished_q;
        REG_STATUS:        prdata_o = {23'd0, status_q[1], 7'd0, status_q[0]};
        REG_RUNNING_JOB:   prdata_o = {24'd0, last_id_q};
        REG_JOB_ERROR:     prdata_o = {15'd0, job_error_q};
        default:           prdata_o = is_job_reg ? ctx_regs[read_ctx][off[6:2] - 5'd8] : 32'd0;
      endcase
    end
  end
  assign pready_o = 1'b1;
  assign pslverr_o = err;

  // ---------------- contexts ----------------
  for (genvar c = 0; c < 2; c++) begin : g_ctx
    ne16_ctx_regfile i_regs (
      .clk_i, .rst_ni,
      .clear_i(do_clear && pwdata_i == 32'd0),
      .we_i(do_jobwr && read_ctx == 1'(c)),
      .idx_i(off[6:2] - 5'd8),
      .wdata_i(pwdata_i),
      .strb_i(pstrb_i),
      .regs_o(ctx_regs[c])
    );
  end

  // ---------------- queue ----------------
  logic        start, complete;
  logic [1:0]  count_after_pop;
  assign start = ~running_q & (count_q != 2'd0) & trig_q & ~do_clear;
  assign complete = running_q & done_i & ~do_clear;
  assign count_after_pop = count_q - {1'b0, complete};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      next_id_q <= '0; last_id_q <= '0; open_q <= 1'b0; trig_q <= 1'b0; running_q <= 1'b0;
      count_q <= '0; fifo_q[0] <= '0; fifo_q[1] <= '0; finished_q <= '0; status_q <= '0;
      job_error_q <= '0; sw_evt_q <= '0;
    end else if (do_clear) begin
      next_id_q <= '0; last_id_q <= '0; open_q <= 1'b0; trig_q <= 1'b0; running_q <= 1'b0;
      count_q <= '0; finished_q <= '0; status_q <= '0; job_error_q <= '0; sw_evt_q <= '0;
    end else begin
      logic [1:0] st;
      logic       t;
      st = status_q;
      t = trig_q;
      sw_evt_q <= do_sync ? 8'(1) << pwdata_i[2:0] : 8'd0;
      if (do_acquire) begin
        open_q <= 1'b1;
        next_id_q <= next_id_q + 8'd1;
      end
      if (start) begin
        running_q <= 1'b1;
        last_id_q <= fifo_q[0];
      end
      if (complete) begin
        running_q <= 1'b0;
        finished_q <= finished_q + 32'd1;
        st[fifo_q[0][0]] = 1'b0;
        if (err_i != 8'd0) job_error_q <= {1'b1, fifo_q[0], err_i};
        if (count_after_pop == 2'd0) t = 1'b0;
      end
      // FIFO: pop on completion, push on commit
      if (complete) fifo_q[0] <= fifo_q[1];
      if (do_commit) begin
        fifo_q[count_after_pop[0]] <= next_id_q - 8'd1;
        st[read_ctx] = 1'b1;
        open_q <= 1'b0;
        if (pwdata_i == 32'd0) t = 1'b1;
        else if (count_after_pop != 2'd0 && !trig_q) t = 1'b1;
      end
      count_q <= count_after_pop + {1'b0, do_commit};
      status_q <= st;
      trig_q <= t;
    end
  end

  assign start_o = start;
  assign job_regs_o = ctx_regs[fifo_q[0][0]];
  assign clear_o = do_clear;
  assign evt_done_o = complete;
  assign busy_o = running_q;
  assign sw_evt_o = sw_evt_q;

  logic unused;
  assign unused = ^paddr_i[31:8];   // window 0x00-0xFF: upper address bits ignored (2.1)
endmodule
