// BDMA (spec nvdla.md 5): 20-entry command queue filled by CFG_OP, launch groups, strict dispatch order,
// load engine -> data FIFO -> store engine over one MCIF read client and one MCIF write client
// (single-beat 8-byte transfers), group completion on the B response of the group's last write.
module nvdla_bdma
  import nvdla_regs_pkg::*;
#(
  parameter int DATA_DEPTH = 64          // data FIFO beats; reads are issued only with a slot reserved
) (
  input  logic        clk,
  input  logic        rst_n,
  // register file side
  input  bdma_s_t     cfg,
  input  logic        op_wr,              // CSB write strobes, data bit 0 = wdat0
  input  logic        launch0_wr,
  input  logic        launch1_wr,
  input  logic        wdat0,
  output bdma_hw_t    hw,
  output logic [1:0]  done,               // one-cycle group-done pulses to GLB bits 6/7
  // MCIF read client
  output logic        rd_req_valid,
  input  logic        rd_req_ready,
  output logic [31:0] rd_req_addr,
  input  logic        rd_rsp_valid,
  output logic        rd_rsp_ready,
  input  logic [63:0] rd_rsp_data,
  // MCIF write client
  output logic        wr_req_valid,
  input  logic        wr_req_ready,
  output logic [31:0] wr_req_addr,
  output logic [63:0] wr_req_data,
  input  logic        wr_ack              // one pulse per B response of this client, in issue order
);
  localparam int NCMD = 20;
  localparam int DW   = $clog2(DATA_DEPTH + 1);

  typedef struct packed {
    logic [26:0] src, dst, src_line, dst_line, src_surf, dst_surf;   // 32-byte units
    logic [12:0] size;
    logic [23:0] lrep, srep;
  } cmd_t;

  typedef struct packed {                 // what the store engine needs of one command
    logic [26:0] dst, dst_line, dst_surf;
    logic [12:0] size;
    logic [23:0] lrep, srep;
    logic        last;                    // last command of its group: ack requested
    logic        grp;
  } scmd_t;

  typedef struct packed { logic grp; logic [4:0] cnt; } launch_t;
  typedef struct packed { logic grp; logic [31:0] target; } ackw_t;

  // ---------------------------------------------------------------- command queue and groups
  cmd_t          cq_in, cq_head;
  logic          cq_full, cq_empty, cq_pop;
  logic [4:0]    cq_count;
  wire           push_cmd = op_wr && wdat0 && !cq_full;      // push when full is dropped (spec 5)

  assign cq_in = '{src: cfg.src_addr_low_v32, dst: cfg.dst_addr_low_v32,
                   src_line: cfg.src_line_stride, dst_line: cfg.dst_line_stride,
                   src_surf: cfg.src_surf_stride, dst_surf: cfg.dst_surf_stride,
                   size: cfg.size, lrep: cfg.line_repeat_number, srep: cfg.surf_repeat_number};

  sync_fifo #(.WIDTH($bits(cmd_t)), .DEPTH(NCMD)) u_cq (
    .clk, .rst_n, .push(push_cmd), .wr_data(cq_in), .pop(cq_pop), .rd_data(cq_head),
    .full(cq_full), .empty(cq_empty), .count(cq_count));

  logic [4:0]  pend_cnt;                  // commands pushed since the previous launch
  logic [1:0]  busy;
  launch_t     lq_in, lq_head;
  logic        lq_empty, lq_pop;
  logic        lq_full;
  logic [1:0]  lq_count;
  wire  [1:0]  launch = {launch1_wr && wdat0, launch0_wr && wdat0};
  wire         lq_push = |launch && pend_cnt != 0;          // an empty group is never dispatched
  assign lq_in = '{grp: launch[1], cnt: pend_cnt};

  sync_fifo #(.WIDTH($bits(launch_t)), .DEPTH(2)) u_lq (
    .clk, .rst_n, .push(lq_push), .wr_data(lq_in), .pop(lq_pop), .rd_data(lq_head),
    .full(lq_full), .empty(lq_empty), .count(lq_count));

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) pend_cnt <= '0;
    else if (|launch) pend_cnt <= '0;
    else if (push_cmd) pend_cnt <= pend_cnt + 1'b1;
  end

  // ---------------------------------------------------------------- load engine
  logic        ld_active, ld_grp;
  logic [26:0] ld_src_line, ld_src_surf;
  logic [12:0] ld_size;
  logic [23:0] ld_lrep, ld_srep;
  logic [14:0] ld_beat;
  logic [23:0] ld_line, ld_surf;
  logic [31:0] ld_line_addr, ld_surf_addr;
  logic [4:0]  disp_cnt;                  // commands of the head group already dispatched
  logic [DW-1:0] reserved;                  // data FIFO slots reserved by issued reads

  scmd_t       sq_in, sq_head;
  logic        sq_full, sq_empty, sq_pop;
  logic [2:0]  sq_count;

  wire ld_last_cmd = disp_cnt + 1'b1 == lq_head.cnt;
  wire ld_start    = !ld_active && !lq_empty && !cq_empty && !sq_full;
  assign cq_pop = ld_start;
  assign lq_pop = ld_start && ld_last_cmd;
  assign sq_in  = '{dst: cq_head.dst, dst_line: cq_head.dst_line, dst_surf: cq_head.dst_surf,
                    size: cq_head.size, lrep: cq_head.lrep, srep: cq_head.srep,
                    last: ld_last_cmd, grp: lq_head.grp};

  sync_fifo #(.WIDTH($bits(scmd_t)), .DEPTH(4)) u_sq (
    .clk, .rst_n, .push(ld_start), .wr_data(sq_in), .pop(sq_pop), .rd_data(sq_head),
    .full(sq_full), .empty(sq_empty), .count(sq_count));

  assign rd_req_valid = ld_active && reserved != DW'(DATA_DEPTH);
  wire   rd_fire      = rd_req_valid && rd_req_ready;
  wire   ld_line_end  = ld_beat == {ld_size, 2'b11};
  wire   ld_surf_end  = ld_line_end && ld_line == ld_lrep;
  wire   ld_cmd_end   = ld_surf_end && ld_surf == ld_srep;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      ld_active <= 1'b0;
      ld_grp    <= 1'b0;
      disp_cnt  <= '0;
    end else if (ld_start) begin
      ld_active <= 1'b1;
      ld_grp    <= lq_head.grp;
      disp_cnt  <= ld_last_cmd ? '0 : disp_cnt + 1'b1;
    end else if (rd_fire && ld_cmd_end) begin
      ld_active <= 1'b0;
    end
  end

  // loop counters and addresses (modulo 2^32); no reset needed, loaded at start
  always_ff @(posedge clk) begin
    if (ld_start) begin
      ld_src_line  <= cq_head.src_line;
      ld_src_surf  <= cq_head.src_surf;
      ld_size      <= cq_head.size;
      ld_lrep      <= cq_head.lrep;
      ld_srep      <= cq_head.srep;
      ld_beat      <= '0;
      ld_line      <= '0;
      ld_surf      <= '0;
      ld_line_addr <= {cq_head.src, 5'd0};
      ld_surf_addr <= {cq_head.src, 5'd0};
      rd_req_addr  <= {cq_head.src, 5'd0};
    end else if (rd_fire) begin
      if (!ld_line_end) begin
        ld_beat     <= ld_beat + 1'b1;
        rd_req_addr <= rd_req_addr + 32'd8;
      end else begin
        ld_beat <= '0;
        if (!ld_surf_end) begin
          ld_line      <= ld_line + 1'b1;
          ld_line_addr <= ld_line_addr + {ld_src_line, 5'd0};
          rd_req_addr  <= ld_line_addr + {ld_src_line, 5'd0};
        end else begin
          ld_line      <= '0;
          ld_surf      <= ld_surf + 1'b1;
          ld_surf_addr <= ld_surf_addr + {ld_src_surf, 5'd0};
          ld_line_addr <= ld_surf_addr + {ld_src_surf, 5'd0};
          rd_req_addr  <= ld_surf_addr + {ld_src_surf, 5'd0};
        end
      end
    end
  end

  // ---------------------------------------------------------------- data FIFO
  logic        df_full, df_empty, df_pop;
  logic [DW-1:0] df_count;
  assign rd_rsp_ready = !df_full;         // never full: every read has a reserved slot
  sync_fifo #(.WIDTH(64), .DEPTH(DATA_DEPTH)) u_df (
    .clk, .rst_n, .push(rd_rsp_valid), .wr_data(rd_rsp_data), .pop(df_pop), .rd_data(wr_req_data),
    .full(df_full), .empty(df_empty), .count(df_count));

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) reserved <= '0;
    else if (rd_fire != df_pop) reserved <= rd_fire ? reserved + 1'b1 : reserved - 1'b1;
  end

  // ---------------------------------------------------------------- store engine
  logic        st_active;
  logic [26:0] st_dst_line, st_dst_surf;
  logic [12:0] st_size;
  logic [23:0] st_lrep, st_srep;
  logic        st_last, st_grp;
  logic [14:0] st_beat;
  logic [23:0] st_line, st_surf;
  logic [31:0] st_line_addr, st_surf_addr;
  logic [31:0] wr_issued, wr_acked;

  wire st_start     = !st_active && !sq_empty;
  assign sq_pop       = st_start;
  assign wr_req_valid = st_active && !df_empty;
  wire   wr_fire      = wr_req_valid && wr_req_ready;
  assign df_pop       = wr_fire;
  wire   st_line_end  = st_beat == {st_size, 2'b11};
  wire   st_surf_end  = st_line_end && st_line == st_lrep;
  wire   st_cmd_end   = st_surf_end && st_surf == st_srep;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      st_active <= 1'b0;
      wr_issued <= '0;
    end else begin
      if (st_start) st_active <= 1'b1;
      else if (wr_fire && st_cmd_end) st_active <= 1'b0;
      if (wr_fire) wr_issued <= wr_issued + 1'b1;
    end
  end

  always_ff @(posedge clk) begin
    if (st_start) begin
      st_dst_line  <= sq_head.dst_line;
      st_dst_surf  <= sq_head.dst_surf;
      st_size      <= sq_head.size;
      st_lrep      <= sq_head.lrep;
      st_srep      <= sq_head.srep;
      st_last      <= sq_head.last;
      st_grp       <= sq_head.grp;
      st_beat      <= '0;
      st_line      <= '0;
      st_surf      <= '0;
      st_line_addr <= {sq_head.dst, 5'd0};
      st_surf_addr <= {sq_head.dst, 5'd0};
      wr_req_addr  <= {sq_head.dst, 5'd0};
    end else if (wr_fire) begin
      if (!st_line_end) begin
        st_beat     <= st_beat + 1'b1;
        wr_req_addr <= wr_req_addr + 32'd8;
      end else begin
        st_beat <= '0;
        if (!st_surf_end) begin
          st_line      <= st_line + 1'b1;
          st_line_addr <= st_line_addr + {st_dst_line, 5'd0};
          wr_req_addr  <= st_line_addr + {st_dst_line, 5'd0};
        end else begin
          st_line      <= '0;
          st_surf      <= st_surf + 1'b1;
          st_surf_addr <= st_surf_addr + {st_dst_surf, 5'd0};
          st_line_addr <= st_surf_addr + {st_dst_surf, 5'd0};
          wr_req_addr  <= st_surf_addr + {st_dst_surf, 5'd0};
        end
      end
    end
  end

  // ---------------------------------------------------------------- completion
  ackw_t       aw_in, aw_head;
  logic        aw_empty, aw_full, aw_pop;
  logic [1:0]  aw_count;
  wire         aw_push = wr_fire && st_cmd_end && st_last;
  assign aw_in  = '{grp: st_grp, target: wr_issued + 1'b1};
  assign aw_pop = !aw_empty && wr_acked == aw_head.target;
  sync_fifo #(.WIDTH($bits(ackw_t)), .DEPTH(2)) u_aw (
    .clk, .rst_n, .push(aw_push), .wr_data(aw_in), .pop(aw_pop), .rd_data(aw_head),
    .full(aw_full), .empty(aw_empty), .count(aw_count));

  logic [1:0]  done_d;
  logic [31:0] rd_stall [2], wr_stall [2], rd_stall_q [2], wr_stall_q [2];
  wire  [1:0]  complete = aw_pop ? (aw_head.grp ? 2'b10 : 2'b01) : 2'b00;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      wr_acked <= '0;
      busy     <= '0;
      done_d   <= '0;
      done     <= '0;
      for (int g = 0; g < 2; g++) begin
        rd_stall[g] <= '0; wr_stall[g] <= '0; rd_stall_q[g] <= '0; wr_stall_q[g] <= '0;
      end
    end else begin
      if (wr_ack) wr_acked <= wr_acked + 1'b1;
      busy   <= (busy | launch) & ~complete;
      done_d <= complete;                  // GRPx_BUSY drops now; the GLB bit two cycles later
      done   <= done_d;
      if (cfg.stall_count_en && rd_req_valid && !rd_req_ready) rd_stall[ld_grp] <= rd_stall[ld_grp] + 1'b1;
      if (cfg.stall_count_en && wr_req_valid && !wr_req_ready) wr_stall[st_grp] <= wr_stall[st_grp] + 1'b1;
      for (int g = 0; g < 2; g++) begin
        if (launch[g]) begin rd_stall[g] <= '0; wr_stall[g] <= '0; end
        if (complete[g]) begin rd_stall_q[g] <= rd_stall[g]; wr_stall_q[g] <= wr_stall[g]; end
      end
    end
  end

  assign hw = '{free_slot: 8'(NCMD) - 8'(cq_count),
                idle: cq_empty && !ld_active && !st_active && sq_empty && aw_empty,
                grp0_busy: busy[0], grp1_busy: busy[1],
                status_grp0_read_stall_count: rd_stall_q[0], status_grp0_write_stall_count: wr_stall_q[0],
                status_grp1_read_stall_count: rd_stall_q[1], status_grp1_write_stall_count: wr_stall_q[1]};

  // the queue flags below are not needed: launch/ack queues cannot overflow under the software contract
  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, lq_full, lq_count, sq_count, df_count, aw_full, aw_count, cfg.src_addr_high_v8,
                  cfg.dst_addr_high_v8, cfg.src_ram_type, cfg.dst_ram_type, cfg.en, cfg.grp0_launch,
                  cfg.grp1_launch};
  /* verilator lint_on UNUSED */
endmodule
