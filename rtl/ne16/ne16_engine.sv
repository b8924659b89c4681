// NE16 engine: runs one job (spec ne16.md section 4) as three decoupled stages that walk the same loop
// nest of 4.1 (kom, im, jm, kim, ko), each with its own indices:
//   load     issues the reads: per Ko subtile its parameters, per output subtile its streamin, per Ki
//            subtile the input window into one of two window buffers, per output channel its Qw weight
//            planes into the weight-plane ring (contiguous planes share a 36-byte read);
//   compute  runs the MAC steps of one output channel on the bit-plane array as soon as its window buffer
//            and weight slot are full (3x3: one step per weight bit, Qw; 1x1 and depthwise: one step;
//            linear: ceil(Qw/4), MODE16 ceil(Qw/2)),
//            then hands the finished accumulators of the subtile to the store stage and starts the next;
//   store    normalises the channels of one pixel of the handed-over subtile in a cycle, then writes its words.
// Window handshake: a buffer is FREE, claimed by the load stage on its first read (FILL), FULL when the
// last read's data arrived, FREE again when compute is done with it. Weights: a ring of NPL planes; the load
// stage reserves a channel's Qw planes on its first read, a channel is ready once its last read arrived, and
// compute frees its planes after its last step. So the load stage runs ahead of the MAC array by up to a
// window and NPL/Qw channels (more channels the fewer the weight bits, which keep the array busy while a
// window loads) and the port issues a read in every cycle it can.
// One port (9 lock-stepped 32-bit ports, one 36-byte transaction): req held until gnt, read data one
// cycle after the grant, a new request may follow in the cycle of the grant. Stores win the port.
module ne16_engine
  import ne16_pkg::*;
  import ne16_regs_pkg::*;
(
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         clear_i,     // abort (SOFT_CLEAR)
  input  logic         start_i,
  input  job_regs_t    regs_i,
  output logic         done_o,      // one-cycle pulse
  output logic [7:0]   err_o,       // with done_o
  // one 36-byte transaction (spread over the ports by the top)
  output logic         req_o,
  output logic [31:0]  add_o,       // word address A
  output logic         wen_o,       // 1 = read
  output logic [35:0]  be_o,
  output logic [287:0] wdata_o,
  input  logic         gnt_i,
  input  logic         r_valid_i,
  input  logic [287:0] r_data_i
);
  localparam int unsigned NPL = 32;        // weight planes in the ring: 4 channels at Qw=8, 16 at Qw=2
  typedef enum logic [1:0] { B_FREE, B_FILL, B_FULL } bstate_e;

  // ================= job control =================
  typedef enum logic [1:0] { J_IDLE, J_CHECK, J_RUN, J_DONE } jstate_e;
  jstate_e     jst_q;
  cfg_t        c;
  logic [7:0]  err_q;
  logic        go, all_idle;

  // ================= state of the stages (declared here, driven below) =================
  typedef enum logic [3:0] { P_IDLE, P_KOM, P_SC, P_BI, P_SH, P_SUB, P_SIN, P_X, P_W, P_NEXT } pstate_e;
  typedef enum logic [1:0] { C_IDLE, C_INIT, C_MAC, C_HAND } cstate_e;
  typedef enum logic [1:0] { S_IDLE, S_NQ, S_WR } sstate_e;
  pstate_e     pst_q;
  cstate_e     cst_q;
  sstate_e     sst_q;

  // buffers
  logic [1:0][31:0][127:0]       xbuf_q;     // input windows (25 pixels) or linear words (16/32)
  logic [NPL-1:0][255:0]         wpl_q;      // weight-plane ring
  bstate_e [1:0]                 xst_q;
  logic [5:0]                    wres_q;     // planes reserved by the load stage and not yet freed
  logic [5:0]                    wrdy_q;     // channels whose planes have all arrived, not yet freed
  logic [31:0][8:0][31:0]        acc_q;      // accumulators [ko][pixel] of the subtile being computed
  logic [31:0][8:0][31:0]        sacc_q;     // accumulators of the subtile being stored
  logic [1023:0]                 scale_q, bias_q;
  logic [255:0]                  shift_q;

  // port
  logic         req_q, wen_q, rpend_q;
  logic [31:0]  add_q;
  logic [35:0]  be_q;
  logic [287:0] wdata_q;
  tag_t         tag_q, rtag_q;
  logic         out_rdy, s_take, p_take;

  // ================= load stage: address generation =================
  logic [15:0] pkom_q, pim_q, pjm_q, pkim_q;
  logic [5:0]  pko_q, pidx_q;
  logic [3:0]  pq_q, ppix_q, pck_q;
  logic [2:0]  pxr_q, pxc_q, pch_q;
  logic [1:0]  pwi_q;
  logic [4:0]  pwb_q;       // first ring plane of the channel being loaded
  logic        pxb_q;
  // verilator lint_off UNUSEDSIGNAL
  geom_t       pg;          // the load stage does not need the Ki lanes
  // verilator lint_on UNUSEDSIGNAL
  assign pg = geom(c, pkom_q, pim_q, pjm_q, pkim_q);

  logic [31:0] kbase, win_base, ldx_addr, s_ki, s_ko, wpl_addr, psin_addr;
  logic [5:0]  plen;        // bytes of one weight plane
  logic        wcontig;     // the planes of one channel are adjacent: read as one byte stream
  logic [3:0]  wseg_np;     // planes of the segment (the contiguous bytes) being read
  logic [8:0]  wseg_len;    // its bytes
  logic [3:0]  wnck;        // 36-byte reads it takes
  logic        wseg_end;    // this read is the last one of the segment
  assign kbase = 32'(pkom_q) * 32'(c.ko_sub);
  assign win_base = c.infeat + 32'(3 * 32'(pim_q)) * c.in_d1 + 32'(3 * 32'(pjm_q)) * c.in_d0 +
                    (c.linear ? 32'(pkim_q) * (c.mode16 ? 32'd512 : 32'd256) : 32'd16 * (c.dw ? 32'(pkom_q) : 32'(pkim_q)));
  assign ldx_addr = c.linear ? win_base + 32'(pidx_q) * c.in_d0 : win_base + 32'(pxr_q) * c.in_d1 + 32'(pxc_q) * c.in_d0;
  assign s_ki = c.is1x1 ? 32'(c.qw) * 32'(c.mode16 ? 1 : 2) : 32'(c.qw) * 32'd9 * 32'(c.mode16 ? 1 : 2);
  assign s_ko = 32'd32 * 32'(c.nb_ki) * s_ki;
  always_comb begin
    if (c.linear)     wpl_addr = c.weights + 32'(pkom_q) * c.w_d2 + 32'(pkim_q) * 32'd32 + 32'(pko_q) * c.w_d1 + 32'(pq_q) * c.w_d0;
    else if (c.dw)    wpl_addr = c.weights + 32'(pkom_q) * 32'(c.qw) * 32'd18 + 32'(pko_q) * c.w_d1 + 32'(pq_q) * c.w_d0;
    else if (c.is1x1) wpl_addr = c.weights + 32'(pkom_q) * s_ko + 32'(pkim_q) * s_ki + 32'(pko_q) * c.w_d1 + 32'(pq_q) * 32'(c.mode16 ? 1 : 2);
    else              wpl_addr = c.weights + 32'(pkom_q) * s_ko + 32'(pkim_q) * s_ki + 32'(pko_q) * c.w_d1 + 32'(pq_q) * c.w_d0;
  end
  assign psin_addr = pix_addr(c, pkom_q, pim_q, pjm_q, ppix_q) + 32'(pwi_q) * c.out_d0;

  // A channel's weights are read as segments of contiguous bytes: all its planes when they are adjacent,
  // else one plane each. A segment takes as many aligned 36-byte reads as its bytes span from the word of
  // its first byte, so a plane may straddle two reads (the response writes each plane's part of the read).
  always_comb begin
    if (c.linear)     begin plen = 6'd32; wcontig = c.w_d0 == 32'd32; end
    else if (c.is1x1) begin plen = c.mode16 ? 6'd1 : 6'd2; wcontig = 1'b1; end
    else if (c.dw)    begin plen = 6'd18; wcontig = c.w_d0 == 32'd18; end
    else              begin plen = c.mode16 ? 6'd9 : 6'd18; wcontig = c.w_d0 == 32'(plen); end
    wseg_np = wcontig ? c.qw : 4'd1;
    wseg_len = 9'(wseg_np) * 9'(plen);
    wnck = 4'((9'(wpl_addr[1:0]) + wseg_len + 9'd35) / 9'd36);
    wseg_end = pck_q + 4'd1 >= wnck;
  end

  // Padding of a window pixel (4.2), decided when its read is issued.
  logic [1:0] xpad_kind;
  always_comb begin
    logic implicit_zero, explicit_pad;
    implicit_zero = pxr_q >= pg.h_in || pxc_q >= pg.w_in;
    explicit_pad = (pim_q == 0 && 4'(pxr_q) < c.pad_top) || (pg.last_h && 5'(pxr_q) + 5'(c.pad_bottom) >= 5'd5) ||
                   (pjm_q == 0 && 4'(pxc_q) < c.pad_left) || (pg.last_w && 5'(pxc_q) + 5'(c.pad_right) >= 5'd5);
    if (c.linear) xpad_kind = 2'd0;
    else if (implicit_zero) xpad_kind = 2'd1;
    else if (explicit_pad) xpad_kind = 2'd2;
    else xpad_kind = 2'd0;
  end

  logic        x_last, w_last, sc_more, bi_more, sin_more, drained, sin_fin, wshare;
  // Depthwise with WEIGHTS_D1 = 0 (the 3.7 driver): every channel of the Ko subtile reads the same planes
  // (channel ko at bit ko of each tap), so one slot is loaded per Ko subtile and serves all its channels.
  assign wshare = c.dw && c.w_d1 == 32'd0;
  assign x_last = c.linear ? pidx_q == c.ki_full - 6'd1 : (pxr_q == c.f - 3'd1 && pxc_q == c.f - 3'd1);
  assign w_last = wseg_end && pq_q + wseg_np >= c.qw;
  assign sc_more = (9'(pch_q) + 9'd1) * 9'd32 < 9'(pg.n_ko) * 9'(c.sb) && pch_q != 3'd3;
  assign bi_more = (7'(pch_q) + 7'd1) * 7'd8 < 7'(pg.n_ko) && pch_q != 3'd3;
  assign sin_more = ({1'b0, pwi_q, 3'd0} + 6'd8) < pg.n_ko;

  // The load stage's read request of this cycle.
  logic        p_req_v;
  logic [31:0] p_addr;
  tag_t        p_tag;
  always_comb begin
    p_req_v = 1'b0;
    p_addr = '0;
    p_tag = '0;
    unique case (pst_q)
      P_SC: begin p_req_v = 1'b1; p_addr = c.scale + kbase * 32'(c.sb) + 32'({pch_q, 5'd0}); p_tag.kind = T_SC; p_tag.idx = 6'(pch_q); end
      P_BI: begin p_req_v = 1'b1; p_addr = c.scale_bias + kbase * 32'd4 + 32'({pch_q, 5'd0}); p_tag.kind = T_BI; p_tag.idx = 6'(pch_q); end
      P_SH: begin p_req_v = 1'b1; p_addr = c.scale_shift + kbase; p_tag.kind = T_SH; end
      P_SIN: begin
        p_req_v = ppix_q != 4'd9 && pix_enabled(c, ppix_q, pg.h_out, pg.w_out);
        p_addr = psin_addr;
        p_tag.kind = T_SIN;
        p_tag.pix = ppix_q;
        p_tag.idx = 6'(pwi_q);
      end
      P_X: begin
        p_req_v = pidx_q != 0 || xst_q[pxb_q] == B_FREE;
        p_addr = ldx_addr;
        p_tag.kind = T_X;
        p_tag.pad = xpad_kind;
        p_tag.xb = pxb_q;
        p_tag.idx = pidx_q;
        p_tag.last = x_last;
      end
      P_W: begin
        p_req_v = pq_q != 0 || pck_q != 0 || 7'(NPL) - 7'(wres_q) >= 7'(c.qw);
        p_addr = {wpl_addr[31:2], 2'b00} + 32'(pck_q) * 32'd36;
        p_tag.kind = T_W;
        p_tag.wb = pwb_q + 5'(pq_q);
        p_tag.cpos = 10'(36 * int'(pck_q)) - 10'(wpl_addr[1:0]);
        p_tag.np = wseg_np;
        p_tag.last = w_last;
      end
      default: ;
    endcase
    p_tag.off = p_addr[1:0];
  end

  // ================= load stage: sequencing =================
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pst_q <= P_IDLE;
      pkom_q <= '0; pim_q <= '0; pjm_q <= '0; pkim_q <= '0; pko_q <= '0; pidx_q <= '0; pq_q <= '0;
      ppix_q <= '0; pxr_q <= '0; pxc_q <= '0; pch_q <= '0; pwi_q <= '0; pwb_q <= '0; pxb_q <= 1'b0; pck_q <= '0;
    end else if (clear_i) begin
      pst_q <= P_IDLE;
    end else if (go) begin
      pst_q <= P_KOM;
      pkom_q <= '0; pim_q <= '0; pjm_q <= '0; pwb_q <= '0; pxb_q <= 1'b0;
    end else begin
      unique case (pst_q)
        P_IDLE: ;
        // parameters of a Ko subtile: the store stage must be done with the previous ones
        P_KOM: if (drained) begin
          pch_q <= '0;
          pst_q <= c.streamout ? P_SC : P_SUB;
        end
        P_SC: if (p_take) begin
          if (sc_more) pch_q <= pch_q + 3'd1;
          else begin pch_q <= '0; pst_q <= c.norm_bias ? P_BI : c.norm_shift ? P_SH : P_SUB; end
        end
        P_BI: if (p_take) begin
          if (bi_more) pch_q <= pch_q + 3'd1;
          else begin pch_q <= '0; pst_q <= c.norm_shift ? P_SH : P_SUB; end
        end
        P_SH: if (p_take) pst_q <= P_SUB;
        // output subtile: streamin writes the accumulators, so it waits until compute has handed over
        // the previous subtile
        P_SUB: begin
          pkim_q <= '0; ppix_q <= '0; pwi_q <= '0; pidx_q <= '0; pxr_q <= '0; pxc_q <= '0;
          if (!c.streamin) pst_q <= P_X;
          else if (cst_q == C_INIT) pst_q <= P_SIN;
        end
        P_SIN: begin
          if (ppix_q == 4'd9) begin
            if (sin_fin) pst_q <= P_X;
          end else if (!pix_enabled(c, ppix_q, pg.h_out, pg.w_out)) ppix_q <= ppix_q + 4'd1;
          else if (p_take) begin
            if (sin_more) pwi_q <= pwi_q + 2'd1;
            else begin pwi_q <= '0; ppix_q <= ppix_q + 4'd1; end
          end
        end
        // Ki subtile: the input window
        P_X: if (p_take) begin
          pidx_q <= pidx_q + 6'd1;
          if (pxc_q == c.f - 3'd1) begin pxc_q <= '0; pxr_q <= pxr_q + 3'd1; end
          else pxc_q <= pxc_q + 3'd1;
          if (x_last) begin
            pxb_q <= ~pxb_q; pko_q <= '0; pq_q <= '0; pck_q <= '0; pst_q <= P_W;
          end
        end
        // per output channel: its weight planes
        P_W: if (p_take) begin
          if (!wseg_end) pck_q <= pck_q + 4'd1;
          else if (!w_last) begin pck_q <= '0; pq_q <= pq_q + wseg_np; end
          else begin
            pck_q <= '0;
            pq_q <= '0;
            pwb_q <= pwb_q + 5'(c.qw);
            if (!wshare && pko_q + 6'd1 < pg.n_ko) pko_q <= pko_q + 6'd1;
            else if (!pg.last_ki) begin
              pko_q <= '0; pkim_q <= pkim_q + 16'd1; pidx_q <= '0; pxr_q <= '0; pxc_q <= '0; pst_q <= P_X;
            end else pst_q <= P_NEXT;
          end
        end
        P_NEXT: begin
          if (!pg.last_w) begin pjm_q <= pjm_q + 16'd1; pst_q <= P_SUB; end
          else if (!pg.last_h) begin pjm_q <= '0; pim_q <= pim_q + 16'd1; pst_q <= P_SUB; end
          else if (!pg.last_ko) begin pjm_q <= '0; pim_q <= '0; pkom_q <= pkom_q + 16'd1; pst_q <= P_KOM; end
          else pst_q <= P_IDLE;
        end
        default: pst_q <= P_IDLE;
      endcase
    end
  end

  // ================= read responses: into the buffers named by the tag =================
  logic         resp;
  logic [287:0] rsh;       // read data aligned to the requested byte address
  assign resp = rpend_q && r_valid_i;
  assign rsh = r_data_i >> {rtag_q.off, 3'b000};

  logic [127:0] xval;
  always_comb begin
    unique case (rtag_q.pad)
      2'd1: xval = '0;
      2'd2: xval = c.mode16 ? {8{c.pad_value}} : {16{c.pad_value[7:0]}};
      default: xval = rsh[127:0];
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xbuf_q <= '0; wpl_q <= '0; scale_q <= '0; bias_q <= '0; shift_q <= '0;
    end else if (resp) begin
      unique case (rtag_q.kind)
        T_X: xbuf_q[rtag_q.xb][rtag_q.idx[4:0]] <= xval;
        // plane p of the segment starts sh bytes into this read (negative: in the previous one)
        T_W: for (int p = 0; p < 8; p++) begin
               int sh;
               logic [255:0] val, msk;
               sh = p * int'(plen) - int'($signed(rtag_q.cpos));
               if (4'(p) < rtag_q.np && sh > -int'(plen) && sh < 36) begin
                 if (sh >= 0) begin
                   val = 256'(r_data_i >> (8 * sh));
                   msk = (256'd1 << (8 * (36 - sh))) - 256'd1;
                 end else begin
                   val = 256'(r_data_i) << (-8 * sh);
                   msk = ~((256'd1 << (-8 * sh)) - 256'd1);
                 end
                 msk = msk & ((256'd1 << (8 * int'(plen))) - 256'd1);
                 wpl_q[5'(rtag_q.wb + 5'(p))] <= (wpl_q[5'(rtag_q.wb + 5'(p))] & ~msk) | (val & msk);
               end
             end
        T_SC: scale_q[256*rtag_q.idx[1:0] +: 256] <= rsh[255:0];
        T_BI: bias_q[256*rtag_q.idx[1:0] +: 256] <= rsh[255:0];
        T_SH: shift_q <= rsh[255:0];
        default: ;   // T_SIN: the compute stage writes the accumulators
      endcase
    end
  end

  // ================= compute stage =================
  logic [15:0] ckom_q, cim_q, cjm_q, ckim_q;
  logic [5:0]  cko_q;
  logic [3:0]  cstep_q;
  logic        cxb_q;
  logic [4:0]  cwb_q;       // first ring plane of the channel being computed
  // verilator lint_off UNUSEDSIGNAL
  geom_t       cg;          // compute does not need the input window extent
  // verilator lint_on UNUSEDSIGNAL
  assign cg = geom(c, ckom_q, cim_q, cjm_q, ckim_q);

  logic [31:0][127:0] xcur;
  logic [7:0][255:0]  wcur;
  logic               c_ready, c_last_step, c_wrel, c_xrel, handoff;
  logic [3:0]         mac_steps;
  assign xcur = xbuf_q[cxb_q];
  always_comb for (int q = 0; q < 8; q++) wcur[q] = wpl_q[5'(cwb_q + 5'(q))];
  // steps per output channel and Ki subtile (see the operand map below)
  assign mac_steps = c.linear ? (c.mode16 ? (c.qw + 4'd1) >> 1 : (c.qw + 4'd3) >> 2) : (c.is1x1 || c.dw) ? 4'd1 : c.qw;
  logic [31:0] wmin32;
  assign wmin32 = 32'(c.wmin);   // sign-extended: the products wrap like the accumulators
  assign c_ready = cst_q == C_MAC && xst_q[cxb_q] == B_FULL && wrdy_q != 6'd0;
  assign c_last_step = cstep_q + 4'd1 >= mac_steps;
  assign c_wrel = c_ready && c_last_step && (!wshare || cko_q + 6'd1 >= cg.n_ko);
  assign c_xrel = c_ready && c_last_step && cko_q + 6'd1 >= cg.n_ko;
  assign handoff = cst_q == C_HAND && sst_q == S_IDLE;
  assign drained = ckom_q == pkom_q && sst_q == S_IDLE;
  // streamin complete: every read issued and its data written
  assign sin_fin = pst_q == P_SIN && ppix_q == 4'd9 && !req_q && !rpend_q;

  // ---- MAC operands: how each mode lays its weights' bit planes onto the bit-plane array ----
  // 3x3:       block = tap, lane = input channel, one bit plane per step (Qw steps per output channel).
  // 1x1:       block = bit plane, lane = input channel: every plane in one step.
  // depthwise: block = tap, lane = bit plane, the channel's byte broadcast to the lanes: one step.
  // linear:    blocks 2j, 2j+1 (MODE16: 4j..4j+3) hold plane j of the step's 4 (MODE16: 2) planes, rows
  //            0-7 its 16 (32) input words: ceil(Qw/4) (MODE16: ceil(Qw/2)) steps.
  // The weight-offset sums are taken in the first step of a channel: of the window once per Ki subtile
  // (the same for every output channel, kept in xsum_q), of the channel's own byte in depthwise mode.
  logic [8:0][8:0][127:0] arr_x;
  logic [8:0][8:0][15:0]  arr_w;
  logic [8:0][8:0]        arr_off;
  logic [8:0][2:0]        arr_sh;
  logic [15:0]            arr_bmask;
  logic [8:0][31:0]       arr_sum, arr_xsum, xsum_q, xs_use;
  logic                   osum_now;
  ne16_bitplane_array i_arr (
    .x_i(arr_x), .m16_i(c.mode16), .bcast_i(c.dw), .bsel_i(cko_q[3:0]), .bmask_i(arr_bmask),
    .w_i(arr_w), .off_i(arr_off), .sh_i(arr_sh), .sum_o(arr_sum), .xsum_o(arr_xsum)
  );
  assign osum_now = c_ready && cstep_q == 4'd0 && (cko_q == 6'd0 || c.dw);
  always_comb begin
    for (int p = 0; p < 9; p++)
      xs_use[p] = cstep_q != 4'd0 ? 32'd0 : osum_now ? arr_xsum[p] : xsum_q[p];
  end

  always_comb begin
    logic [2:0]       q;
    logic [5:0]       word;
    logic [8:0][15:0] wblk;    // 3x3, 1x1, depthwise: a block's weight bits, the same for every row
    logic [8:0]       oblk;
    for (int r = 0; r < 9; r++) for (int b = 0; b < 9; b++) arr_x[r][b] = '0;
    arr_w = '0;
    arr_off = '0;
    arr_sh = '0;
    arr_bmask = '1;
    wblk = '0;
    oblk = '0;
    q = '0;
    word = '0;
    // operands only in MAC cycles (operand isolation): zero otherwise, which also spares the simulator
    // the operand muxes in the cycles that wait for data
    if (c_ready) begin
      if (c.linear) begin
        for (int b = 0; b < 8; b++) begin
          q = c.mode16 ? 3'(2 * int'(cstep_q) + b / 4) : 3'(4 * int'(cstep_q) + b / 2);
          arr_sh[b] = q;
          for (int r = 0; r < 8; r++) begin
            word = c.mode16 ? 6'(4 * r + b % 4) : 6'(2 * r + b % 2);
            if (4'(q) < c.qw && word < cg.lanes) begin
              arr_x[r][b] = xcur[word[4:0]];
              arr_w[r][b] = c.mode16 ? {8'd0, wcur[q][8 * word +: 8]} : wcur[q][16 * word[3:0] +: 16];
              arr_off[r][b] = osum_now && q == 3'd0;
            end
          end
        end
      end else begin
        if (!c.dw)
          for (int k = 0; k < 16; k++) arr_bmask[k] = 6'(k) < cg.lanes;
        for (int b = 0; b < 9; b++) begin
          if (c.is1x1) begin
            if (4'(b) < c.qw) wblk[b] = c.mode16 ? {8'd0, wcur[b][7:0]} : wcur[b][15:0];
            oblk[b] = osum_now && b == 0;
            arr_sh[b] = 3'(b);
          end else if (!tap_masked(c, 2'(b / 3), 2'(b % 3))) begin
            if (c.dw) begin
              for (int l = 0; l < 8; l++)
                if (4'(l) < c.qw) wblk[b][l] = wcur[l][16 * b + int'(cko_q[3:0])];
            end else wblk[b] = c.mode16 ? {8'd0, wcur[cstep_q[2:0]][8 * b +: 8]} : wcur[cstep_q[2:0]][16 * b +: 16];
            oblk[b] = osum_now;
            arr_sh[b] = cstep_q[2:0];
          end
        end
        for (int r = 0; r < 9; r++) begin
          arr_w[r] = wblk;
          arr_off[r] = oblk;
          for (int b = 0; b < 9; b++)
            // 1x1: pixel r; 3x3 and depthwise: block b is tap (b/3, b%3), read by pixel r at window
            // position (r/3 + b/3, r%3 + b%3)
            arr_x[r][b] = c.is1x1 ? xcur[5'(r)] : xcur[5'((r / 3 + b / 3) * 5 + r % 3 + b % 3)];
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cst_q <= C_IDLE;
      ckom_q <= '0; cim_q <= '0; cjm_q <= '0; ckim_q <= '0; cko_q <= '0; cstep_q <= '0; cxb_q <= 1'b0; cwb_q <= '0;
      for (int k = 0; k < 32; k++) acc_q[k] <= '0;
    end else if (clear_i) begin
      cst_q <= C_IDLE;
    end else if (go) begin
      cst_q <= C_INIT;
      ckom_q <= '0; cim_q <= '0; cjm_q <= '0; ckim_q <= '0; cko_q <= '0; cstep_q <= '0; cxb_q <= 1'b0; cwb_q <= '0;
      for (int k = 0; k < 32; k++) acc_q[k] <= '0;
    end else begin
      // streamin data (4.5): the load stage reads it only while this stage waits in C_INIT
      if (resp && rtag_q.kind == T_SIN)
        for (int j = 0; j < 8; j++) acc_q[{rtag_q.idx[1:0], 3'(j)}][rtag_q.pix] <= rsh[32*j +: 32];
      unique case (cst_q)
        C_IDLE: ;
        C_INIT: if (!c.streamin || sin_fin) begin
          ckim_q <= '0; cko_q <= '0; cstep_q <= '0; cst_q <= C_MAC;
        end
        C_MAC: if (c_ready) begin
          if (osum_now && !c.dw) xsum_q <= arr_xsum;
          if (c.linear) begin
            logic [31:0] s, xs;
            s = '0;
            xs = '0;
            for (int p = 0; p < 9; p++) begin s = s + arr_sum[p]; xs = xs + xs_use[p]; end
            acc_q[cko_q[4:0]][0] <= acc_q[cko_q[4:0]][0] + s + wmin32 * xs;
          end else for (int p = 0; p < 9; p++) acc_q[cko_q[4:0]][p] <= acc_q[cko_q[4:0]][p] + arr_sum[p] + wmin32 * xs_use[p];
          if (!c_last_step) cstep_q <= cstep_q + 4'd1;
          else begin
            cstep_q <= '0;
            if (c_wrel) cwb_q <= cwb_q + 5'(c.qw);
            if (!c_xrel) cko_q <= cko_q + 6'd1;
            else begin
              cko_q <= '0;
              cxb_q <= ~cxb_q;
              if (!cg.last_ki) ckim_q <= ckim_q + 16'd1;
              else cst_q <= C_HAND;
            end
          end
        end
        // the finished subtile goes to the store stage once it is free; the next one starts from zero
        C_HAND: if (handoff) begin
          for (int k = 0; k < 32; k++) acc_q[k] <= '0;
          ckim_q <= '0;
          if (!cg.last_w) begin cjm_q <= cjm_q + 16'd1; cst_q <= C_INIT; end
          else if (!cg.last_h) begin cjm_q <= '0; cim_q <= cim_q + 16'd1; cst_q <= C_INIT; end
          else if (!cg.last_ko) begin cjm_q <= '0; cim_q <= '0; ckom_q <= ckom_q + 16'd1; cst_q <= C_INIT; end
          else cst_q <= C_IDLE;
        end
        default: cst_q <= C_IDLE;
      endcase
    end
  end

  // ================= buffer states =================
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xst_q <= {B_FREE, B_FREE};
      wres_q <= '0; wrdy_q <= '0;
    end else if (clear_i || go) begin
      xst_q <= {B_FREE, B_FREE};
      wres_q <= '0; wrdy_q <= '0;
    end else begin
      if (p_take && pst_q == P_X && pidx_q == 0) xst_q[pxb_q] <= B_FILL;
      if (resp && rtag_q.kind == T_X && rtag_q.last) xst_q[rtag_q.xb] <= B_FULL;
      if (c_xrel) xst_q[cxb_q] <= B_FREE;
      wres_q <= wres_q + ((p_take && pst_q == P_W && pq_q == 0 && pck_q == 0) ? 6'(c.qw) : 6'd0) - (c_wrel ? 6'(c.qw) : 6'd0);
      wrdy_q <= wrdy_q + 6'(resp && rtag_q.kind == T_W && rtag_q.last) - 6'(c_wrel);
    end
  end

  // ================= store stage =================
  logic [15:0] skom_q, sim_q, sjm_q;
  logic [5:0]  sn_ko_q;
  logic [2:0]  sh_out_q, sw_out_q;
  logic [3:0]  spix_q;
  logic [1:0]  swi_q;

  logic [31:0][31:0] obuf_q;   // normalised outputs of pixel spix_q

  // per-channel scale, NORM_BITS wide, zero-extended (3.5)
  logic [31:0][31:0] scale_k;
  always_comb begin
    for (int k = 0; k < 32; k++) begin
      unique case (c.sb)
        3'd1: scale_k[k] = {24'd0, scale_q[8*k +: 8]};
        3'd2: scale_k[k] = {16'd0, scale_q[16*k +: 16]};
        default: scale_k[k] = scale_q[32*k +: 32];
      endcase
    end
  end

  // output word swi_q of the pixel (3.3)
  logic [255:0] st_bytes;
  logic [5:0]   st_n;     // bytes in this word
  logic         more_words, s_en, s_req_v;
  always_comb begin
    logic [5:0] rest;
    st_bytes = '0;
    rest = sn_ko_q - {1'b0, swi_q, 3'd0};
    if (rest > 6'd8) rest = 6'd8;
    if (c.ob == 3'd1) begin
      for (int k = 0; k < 32; k++) st_bytes[8*k +: 8] = obuf_q[k][7:0];
      st_n = sn_ko_q;
    end else if (c.ob == 3'd2) begin
      for (int j = 0; j < 8; j++) st_bytes[16*j +: 16] = obuf_q[{swi_q, 3'(j)}][15:0];
      st_n = 6'(2 * rest);
    end else begin
      for (int j = 0; j < 8; j++) st_bytes[32*j +: 32] = obuf_q[{swi_q, 3'(j)}];
      st_n = 6'(4 * rest);
    end
  end
  assign more_words = c.ob != 3'd1 && ({1'b0, swi_q, 3'd0} + 6'd8) < sn_ko_q;
  assign s_en = spix_q != 4'd9 && pix_enabled(c, spix_q, sh_out_q, sw_out_q);
  assign s_req_v = sst_q == S_WR;

  logic [31:0] s_addr;
  assign s_addr = pix_addr(c, skom_q, sim_q, sjm_q, spix_q) + (c.ob == 3'd1 ? 32'd0 : 32'(swi_q) * c.out_d0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sst_q <= S_IDLE;
      for (int k = 0; k < 32; k++) sacc_q[k] <= '0;
      obuf_q <= '0;
      skom_q <= '0; sim_q <= '0; sjm_q <= '0; sn_ko_q <= '0; sh_out_q <= '0; sw_out_q <= '0; spix_q <= '0; swi_q <= '0;
    end else if (clear_i) begin
      sst_q <= S_IDLE;
    end else if (handoff) begin
      sst_q <= S_NQ;
      sacc_q <= acc_q;
      skom_q <= ckom_q; sim_q <= cim_q; sjm_q <= cjm_q;
      sn_ko_q <= cg.n_ko; sh_out_q <= cg.h_out; sw_out_q <= cg.w_out;
      spix_q <= '0; swi_q <= '0;
    end else begin
      unique case (sst_q)
        S_IDLE: ;
        // one cycle normalises the pixel's channels, then one cycle per output word; disabled pixels cost
        // one cycle each
        S_NQ: begin
          if (spix_q == 4'd9) sst_q <= S_IDLE;
          else if (!s_en) spix_q <= spix_q + 4'd1;
          else begin
            for (int k = 0; k < 32; k++)
              if (6'(k) < sn_ko_q)
                obuf_q[k] <= normquant(c, sacc_q[k][spix_q], scale_k[k], bias_q[32*k +: 32], shift_q[8*k +: 8]);
            swi_q <= '0;
            sst_q <= S_WR;
          end
        end
        S_WR: if (s_take) begin
          if (more_words) swi_q <= swi_q + 2'd1;
          else begin spix_q <= spix_q + 4'd1; sst_q <= S_NQ; end
        end
        default: sst_q <= S_IDLE;
      endcase
    end
  end

  // ================= the port: one registered request, stores first =================
  assign out_rdy = !req_q || gnt_i;
  assign s_take = out_rdy && s_req_v;
  assign p_take = out_rdy && p_req_v && !s_req_v;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      req_q <= 1'b0; wen_q <= 1'b1; add_q <= '0; be_q <= '0; wdata_q <= '0; tag_q <= '0;
      rpend_q <= 1'b0; rtag_q <= '0;
    end else if (clear_i) begin
      req_q <= 1'b0;
      rpend_q <= 1'b0;
    end else begin
      rpend_q <= req_q && gnt_i && wen_q;
      if (req_q && gnt_i) rtag_q <= tag_q;
      if (out_rdy) begin
        if (s_req_v) begin
          req_q <= 1'b1;
          wen_q <= 1'b0;
          add_q <= {s_addr[31:2], 2'b00};
          be_q <= ((36'd1 << st_n) - 36'd1) << s_addr[1:0];
          wdata_q <= {32'd0, st_bytes} << {s_addr[1:0], 3'b000};
          tag_q <= '0;
        end else if (p_req_v) begin
          req_q <= 1'b1;
          wen_q <= 1'b1;
          add_q <= {p_addr[31:2], 2'b00};
          be_q <= '1;
          wdata_q <= '0;
          tag_q <= p_tag;
        end else req_q <= 1'b0;
      end
    end
  end

  // ================= job control =================
  assign go = jst_q == J_CHECK && err_q == 8'd0;
  assign all_idle = pst_q == P_IDLE && cst_q == C_IDLE && sst_q == S_IDLE && !req_q && !rpend_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      jst_q <= J_IDLE; c <= '0; err_q <= '0;
    end else if (clear_i) begin
      jst_q <= J_IDLE;
    end else begin
      unique case (jst_q)
        J_IDLE: if (start_i) begin
          c <= decode(regs_i);
          err_q <= check(decode(regs_i));
          jst_q <= J_CHECK;
        end
        J_CHECK: jst_q <= err_q != 8'd0 ? J_DONE : J_RUN;
        J_RUN: if (all_idle) jst_q <= J_DONE;
        J_DONE: jst_q <= J_IDLE;
        default: jst_q <= J_IDLE;
      endcase
    end
  end

  assign done_o = jst_q == J_DONE;
  assign err_o = err_q;
  assign req_o = req_q;
  assign add_o = add_q;
  assign wen_o = wen_q;
  assign be_o = be_q;
  assign wdata_o = wdata_q;
endmodule
