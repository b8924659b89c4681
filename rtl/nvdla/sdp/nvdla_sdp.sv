// SDP with SDP_RDMA, nv_small INT8 (spec nvdla_datapath.md 2). One element (int8 lane) per cycle:
// MRDMA atoms (or the flying 32-bit input that CACC will drive) are issued lane by lane into a 4-stage
// pipeline BS -> BN -> CVT; output atoms go to the WDMA (ID 1), or to PDP on the fly. BS/BN operands come
// from the registers or from the BRDMA (ID 5) / NRDMA (ID 6). The layer is done when the WDMA has all its
// B acks (or, to PDP, when the last atom left). There is no "equal mode" in nv_small: NVIDIA's NV_NVDLA_sdp.v
// ties the WDMA's EW configuration to bypass, so D_DP_EW_CFG is don't-care and the output is always written.
module nvdla_sdp
  import nvdla_regs_pkg::*;
  import nvdla_sdp_pkg::*;
(
  input  logic               clk,
  input  logic               rst_n,
  input  sdp_d_t             cfg,
  input  sdp_rdma_d_t        rcfg,
  input  logic               op_en,          // SDP op_en[CONSUMER]
  input  logic               rdma_op_en,     // SDP_RDMA op_en[CONSUMER]
  output logic               done,           // SDP completion (one cycle)
  output logic               rdma_done,      // SDP_RDMA completion (when it took part)
  output sdp_res_t           res,
  // flying input from CACC (one 32-bit element per lane, cube order)
  input  logic               fly_valid,
  input  logic [31:0]        fly_data,
  output logic               fly_ready,
  // on-the-fly output to PDP (whole atoms)
  output logic               pdp_valid,
  input  logic               pdp_ready,
  output logic [63:0]        pdp_data,
  // MCIF: read clients [0] MRDMA, [1] BRDMA, [2] NRDMA; one write client
  output logic [2:0]         rd_req_valid,
  input  logic [2:0]         rd_req_ready,
  output logic [2:0][31:0]   rd_req_addr,
  input  logic [2:0]         rd_rsp_valid,
  output logic [2:0]         rd_rsp_ready,
  input  logic [2:0][63:0]   rd_rsp_data,
  output logic               wr_req_valid,
  input  logic               wr_req_ready,
  output logic [31:0]        wr_req_addr,
  output logic [63:0]        wr_req_data,
  input  logic               wr_ack
);
  // ------------------------------------------------------------------ configuration (live CONSUMER group)
  wire   mem_in  = !cfg.flying_mode;
  wire   to_pdp  = cfg.output_dst;
  xcfg_t bs, bn;
  assign bs = '{bypass: cfg.bs_bypass, alu_bypass: cfg.bs_alu_bypass, mul_bypass: cfg.bs_mul_bypass,
                prelu: cfg.bs_mul_prelu, relu_bypass: cfg.bs_relu_bypass, algo: cfg.bs_alu_algo,
                alu_shift: cfg.bs_alu_shift_value, mul_shift: cfg.bs_mul_shift_value[5:0]};
  assign bn = '{bypass: cfg.bn_bypass, alu_bypass: cfg.bn_alu_bypass, mul_bypass: cfg.bn_mul_bypass,
                prelu: cfg.bn_mul_prelu, relu_bypass: cfg.bn_relu_bypass, algo: cfg.bn_alu_algo,
                alu_shift: cfg.bn_alu_shift_value, mul_shift: cfg.bn_mul_shift_value[5:0]};
  // a stage reads its DMA iff it consumes a memory operand and the DMA is enabled (2.3)
  wire bs_dma = !cfg.bs_bypass && ((!cfg.bs_alu_bypass && cfg.bs_alu_src) || (!cfg.bs_mul_bypass && cfg.bs_mul_src))
                && !rcfg.brdma_disable;
  wire bn_dma = !cfg.bn_bypass && ((!cfg.bn_alu_bypass && cfg.bn_alu_src) || (!cfg.bn_mul_bypass && cfg.bn_mul_src))
                && !rcfg.nrdma_disable;
  wire need_rdma = mem_in || bs_dma || bn_dma;
  wire one_r = rcfg.width == 13'd0 && rcfg.height == 13'd0;        // 1x1 packing (RDMA copy)
  wire one_w = cfg.width == 13'd0 && cfg.height == 13'd0;

  // operand DMA geometry: bpe = (BOTH ? 2 : 1) * (2B ? 2 : 1) -> beats - 1
  function automatic logic [1:0] bpe_m1(input logic both, input logic size);   // use 2 (and 3) = BOTH
    return (both ? (size ? 2'd3 : 2'd1) : (size ? 2'd1 : 2'd0));
  endfunction
  wire [1:0] bs_beats = bpe_m1(rcfg.brdma_data_use[1], rcfg.brdma_data_size);
  wire [1:0] bn_beats = bpe_m1(rcfg.nrdma_data_use[1], rcfg.nrdma_data_size);

  // ------------------------------------------------------------------ control
  typedef enum logic [1:0] {IDLE, RUN, FIN} state_t;
  state_t state;
  logic   start, used_rdma, wdma_done;
  assign start = state == IDLE && op_en && (!need_rdma || rdma_op_en);

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      state     <= IDLE;
      used_rdma <= 1'b0;
    end else begin
      case (state)
        IDLE: if (start) begin
          state     <= RUN;
          used_rdma <= need_rdma;
        end
        RUN:  if (wdma_done) state <= FIN;
        default: state <= IDLE;                 // FIN: the done pulse; op_en updates before IDLE
      endcase
    end
  end
  assign done      = state == FIN;
  // SDP_RDMA completes when every read stream it has enabled is done (spec nvdla.md 4.2 table). With none
  // enabled (flying input, BRDMA and NRDMA disabled; nv_small has no ERDMA) that is at once, on its own:
  // NVIDIA's NV_NVDLA_SDP_rdma.v dp2reg_done = op_en & (each DMA done or disabled). Otherwise it completes
  // with the SDP layer that used it.
  wire  rdma_nothing = rcfg.flying_mode && rcfg.brdma_disable && rcfg.nrdma_disable;
  logic rdma_empty_done;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) rdma_empty_done <= 1'b0;
    else        rdma_empty_done <= rdma_op_en && rdma_nothing && !rdma_empty_done;
  end
  assign rdma_done = (done && used_rdma) || rdma_empty_done;
  wire   running   = state == RUN;

  // ------------------------------------------------------------------ read clients
  logic        mr_valid, mr_busy;
  logic [63:0] mr_data;
  logic        load;
  nvdla_dp_rdma #(.DEPTH(8)) u_mrdma (
    .clk, .rst_n, .start(start && mem_in), .base({rcfg.src_base_addr_low[31:3], 3'd0}),
    .line_stride({rcfg.src_line_stride[31:3], 3'd0}), .surf_stride({rcfg.src_surface_stride[31:3], 3'd0}),
    .width(rcfg.width), .height(rcfg.height), .surfs(rcfg.channel[12:3]), .beats(2'd0), .pack(one_r),
    .busy(mr_busy), .rd_req_valid(rd_req_valid[0]), .rd_req_ready(rd_req_ready[0]), .rd_req_addr(rd_req_addr[0]),
    .rd_rsp_valid(rd_rsp_valid[0]), .rd_rsp_ready(rd_rsp_ready[0]), .rd_rsp_data(rd_rsp_data[0]),
    .dout_valid(mr_valid), .dout_ready(load && mem_in), .dout(mr_data));

  logic         bsg_valid, bng_valid;
  logic [255:0] bsg, bng;
  nvdla_sdp_opnd u_brdma (
    .clk, .rst_n, .start(start && bs_dma), .base({rcfg.bs_base_addr_low[31:3], 3'd0}),
    .line_stride({rcfg.bs_line_stride[31:3], 3'd0}), .surf_stride({rcfg.bs_surface_stride[31:3], 3'd0}),
    .width(rcfg.width), .height(rcfg.height), .surfs(rcfg.channel[12:3]), .beats(bs_beats),
    .pack(!rcfg.brdma_data_mode || one_r), .grp_valid(bsg_valid), .grp_take(load && bs_dma), .grp(bsg),
    .rd_req_valid(rd_req_valid[1]), .rd_req_ready(rd_req_ready[1]), .rd_req_addr(rd_req_addr[1]),
    .rd_rsp_valid(rd_rsp_valid[1]), .rd_rsp_ready(rd_rsp_ready[1]), .rd_rsp_data(rd_rsp_data[1]));
  nvdla_sdp_opnd u_nrdma (
    .clk, .rst_n, .start(start && bn_dma), .base({rcfg.bn_base_addr_low[31:3], 3'd0}),
    .line_stride({rcfg.bn_line_stride[31:3], 3'd0}), .surf_stride({rcfg.bn_surface_stride[31:3], 3'd0}),
    .width(rcfg.width), .height(rcfg.height), .surfs(rcfg.channel[12:3]), .beats(bn_beats),
    .pack(!rcfg.nrdma_data_mode || one_r), .grp_valid(bng_valid), .grp_take(load && bn_dma), .grp(bng),
    .rd_req_valid(rd_req_valid[2]), .rd_req_ready(rd_req_ready[2]), .rd_req_addr(rd_req_addr[2]),
    .rd_rsp_valid(rd_rsp_valid[2]), .rd_rsp_ready(rd_rsp_ready[2]), .rd_rsp_data(rd_rsp_data[2]));

  // ------------------------------------------------------------------ lane issue
  logic         cur_valid, adv, issue;
  logic [63:0]  cur_atom;
  logic [255:0] cur_bs, cur_bn;
  logic [2:0]   lane;

  // The flying input carries this layer's atoms and then, possibly at once, the next layer's: SDP takes only
  // W x H x surfaces of them (it may still be draining this layer when CACC starts the next).
  logic [39:0] fly_atoms;
  wire  [39:0] fly_total = (40'(cfg.width) + 40'd1) * (40'(cfg.height) + 40'd1) * (40'(cfg.channel[12:3]) + 40'd1);
  wire         fly_more  = fly_atoms != fly_total;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n)                          fly_atoms <= '0;
    else if (start)                      fly_atoms <= '0;
    else if (fly_ready && lane == 3'd7)  fly_atoms <= fly_atoms + 40'd1;
  end
  assign issue     = running && adv && cur_valid && (mem_in || (fly_valid && fly_more));
  assign fly_ready = issue && !mem_in;
  wire   inputs_ok = (!mem_in || mr_valid) && (!bs_dma || bsg_valid) && (!bn_dma || bng_valid);
  assign load      = running && inputs_ok && (!cur_valid || (issue && lane == 3'd7));

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      cur_valid <= 1'b0;
      lane      <= '0;
      {cur_atom, cur_bs, cur_bn} <= '0;
    end else if (start) begin
      cur_valid <= 1'b0;
      lane      <= '0;
    end else begin
      if (issue) lane <= lane + 3'd1;
      if (load) begin
        cur_valid <= 1'b1;
        cur_atom  <= mr_data;
        cur_bs    <= bsg;
        cur_bn    <= bng;
      end else if (issue && lane == 3'd7) cur_valid <= 1'b0;
    end
  end

  // operand element of `lane` in a group: ALU first, then MUL for BOTH; 1-byte sign-extended
  function automatic logic signed [15:0] elem(input logic [255:0] g, input logic [7:0] boff, input logic two);
    logic [15:0] v;
    v = g[boff*8 +: 16];
    return two ? signed'(v) : 16'(signed'(v[7:0]));
  endfunction
  function automatic void opnds(input logic [255:0] g, input logic [2:0] ln, input logic both,
                                input logic size, output logic signed [15:0] a, output logic signed [15:0] m);
    logic [7:0] bpe, off;
    bpe = 8'(bpe_m1(both, size)) + 8'd1;
    off = 8'(ln) * bpe;
    a = elem(g, off, size);
    m = both ? elem(g, off + (size ? 8'd2 : 8'd1), size) : a;
  endfunction

  logic signed [15:0] bs_da, bs_dm, bn_da, bn_dm;
  always_comb begin
    opnds(cur_bs, lane, rcfg.brdma_data_use[1], rcfg.brdma_data_size, bs_da, bs_dm);
    opnds(cur_bn, lane, rcfg.nrdma_data_use[1], rcfg.nrdma_data_size, bn_da, bn_dm);
  end
  // register operand unless the stage's DMA supplies it (use 0 MUL, 1 ALU, 2 BOTH)
  wire signed [15:0] op_bs_a = (bs_dma && cfg.bs_alu_src && rcfg.brdma_data_use != 2'd0) ? bs_da : cfg.bs_alu_operand;
  wire signed [15:0] op_bs_m = (bs_dma && cfg.bs_mul_src && rcfg.brdma_data_use != 2'd1) ? bs_dm : cfg.bs_mul_operand;
  wire signed [15:0] op_bn_a = (bn_dma && cfg.bn_alu_src && rcfg.nrdma_data_use != 2'd0) ? bn_da : cfg.bn_alu_operand;
  wire signed [15:0] op_bn_m = (bn_dma && cfg.bn_mul_src && rcfg.nrdma_data_use != 2'd1) ? bn_dm : cfg.bn_mul_operand;
  wire signed [31:0] x_in    = mem_in ? 32'(signed'(cur_atom[lane*8 +: 8])) : fly_data;

  // ------------------------------------------------------------------ pipeline: S1 operands, S2 BS, S3 BN, S4 CVT
  logic               v1, v2, v3, v4;
  logic [2:0]         l1, l2, l3, l4;
  logic signed [31:0] x1, t2, t3;
  logic signed [15:0] a1, m1, na1, nm1, na2, nm2;
  logic [7:0]         y4;
  logic               s4;
  logic               outq_full, outq_empty;
  logic [2:0]         outq_cnt;
  logic [55:0]        acc;
  logic [63:0]        outq_data;

  assign adv = !(v4 && l4 == 3'd7 && outq_full);
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {v1, v2, v3, v4} <= '0;
      {l1, l2, l3, l4, x1, t2, t3, a1, m1, na1, nm1, na2, nm2, y4, s4, acc} <= '0;
    end else if (adv) begin
      v1 <= issue;
      l1 <= lane;
      x1 <= x_in;
      a1 <= op_bs_a;
      m1 <= op_bs_m;
      na1 <= op_bn_a;
      nm1 <= op_bn_m;
      v2 <= v1;
      l2 <= l1;
      t2 <= x_stage(x1, bs, a1, m1);
      na2 <= na1;
      nm2 <= nm1;
      v3 <= v2;
      l3 <= l2;
      t3 <= x_stage(t2, bn, na2, nm2);
      v4 <= v3;
      l4 <= l3;
      {s4, y4} <= cvt(t3, cfg.cvt_offset, cfg.cvt_scale, cfg.cvt_shift);
      if (v4 && l4 != 3'd7) acc[l4*8 +: 8] <= y4;
    end
  end

  // per-layer results: D_STATUS.STATUS_UNEQUAL and D_PERF_OUT_SATURATION
  logic        unequal;
  logic [31:0] sat_cnt;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      unequal <= 1'b0;
      sat_cnt <= '0;
    end else if (start) begin
      unequal <= 1'b0;
      sat_cnt <= '0;
    end else if (adv && v4) begin
      unequal <= unequal || y4 != 8'd0;
      sat_cnt <= sat_cnt + 32'(s4);
    end
  end
  always_comb begin
    res = '0;
    res.status_unequal = unequal;
    res.out_saturation = sat_cnt;
  end

  // ------------------------------------------------------------------ output atoms -> WDMA or PDP
  logic wd_ready, outq_pop;
  sync_fifo #(.WIDTH(64), .DEPTH(4)) u_outq (.clk, .rst_n, .push(adv && v4 && l4 == 3'd7),
                                             .wr_data({y4, acc}), .pop(outq_pop), .rd_data(outq_data),
                                             .full(outq_full), .empty(outq_empty), .count(outq_cnt));
  assign pdp_valid = to_pdp && !outq_empty && wd_ready;
  assign pdp_data  = outq_data;
  assign outq_pop  = !outq_empty && wd_ready && (!to_pdp || pdp_ready);

  nvdla_dp_wdma u_wdma (
    .clk, .rst_n, .start, .nowrite(to_pdp), .base({cfg.dst_base_addr_low[31:3], 3'd0}),
    .line_stride({cfg.dst_line_stride[31:3], 3'd0}), .surf_stride({cfg.dst_surface_stride[31:3], 3'd0}),
    .width(cfg.width), .height(cfg.height), .surfs(cfg.channel[12:3]), .pack(one_w), .done(wdma_done),
    .din_valid(!outq_empty && (!to_pdp || pdp_ready)), .din_ready(wd_ready), .din(outq_data),
    .wr_req_valid, .wr_req_ready, .wr_req_addr, .wr_req_data, .wr_ack);

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, mr_busy, outq_cnt, rcfg, cfg};
  /* verilator lint_on UNUSED */
endmodule
