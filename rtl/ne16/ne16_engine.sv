// NE16 engine: runs one job (spec ne16.md section 4) with a load-compute-store schedule per output
// subtile (3x3 pixels x KO_SUB channels): parameters (per Ko subtile), streamin, then per Ki subtile the
// input window (F x F pixels of 16 bytes, padding applied on capture) and per output channel its Qw
// weight planes followed by MAC steps on the 144-MAC array (9 taps for 3x3/DW, 1 for 1x1, 2/4 for
// linear); finally one normalised value per cycle and the output words. One memory transaction at a time
// over the 9 lock-stepped ports (req held until gnt; read data one cycle after the grant).
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
  typedef enum logic [4:0] {
    S_IDLE, S_CHECK, S_KOM, S_PAR_SC, S_PAR_SC_D, S_PAR_BI, S_PAR_BI_D, S_PAR_SH, S_PAR_SH_D, S_SUB,
    S_SIN, S_SIN_D, S_KIM, S_LDX, S_LDX_D, S_LDW, S_LDW_D, S_MAC, S_ST_PIX, S_ST_NQ, S_ST_WR, S_ST_WR_D,
    S_NEXT, S_MEM, S_DONE
  } state_e;

  state_e      state_q, ret_q;
  cfg_t        cfg_q;
  logic [7:0]  err_q;
  // loop counters
  logic [15:0] kom_q, im_q, jm_q, kim_q;
  logic [5:0]  ko_q;
  logic [3:0]  q_q, step_q, pix_q;
  logic [2:0]  xr_q, xc_q, chunk_q;
  logic [5:0]  idx_q;
  logic [1:0]  wi_q;
  // buffers
  logic [31:0][127:0] xbuf_q;              // input window (25 pixels) or linear words (16/32)
  logic [7:0][255:0]  wpl_q;               // weight planes of one output channel
  logic [31:0][8:0][31:0] acc_q;           // accumulators [ko][pixel]
  logic [31:0][31:0]  obuf_q;              // normalised outputs of one pixel
  logic [1023:0]      scale_q, bias_q;
  logic [255:0]       shift_q;
  logic [255:0]       rbuf_q;              // read data, aligned to the requested byte address
  // transaction registers
  logic         req_q, wen_q, rwait_q;
  logic [31:0]  add_q;
  logic [1:0]   off_q;
  logic [35:0]  be_q;
  logic [287:0] wdata_q;

  // ---------------- per-subtile geometry ----------------
  cfg_t c;
  assign c = cfg_q;
  logic        last_ko, last_h, last_w, last_ki;
  logic [5:0]  n_ko, lanes;
  logic [2:0]  h_out, w_out, h_in, w_in;
  logic [15:0] nki;
  assign last_ko = kom_q == c.nb_ko - 16'd1;
  assign last_h  = im_q == c.nb_ho - 16'd1;
  assign last_w  = jm_q == c.nb_wo - 16'd1;
  assign nki     = c.dw ? 16'd1 : c.nb_ki;
  assign last_ki = kim_q == nki - 16'd1;
  assign n_ko  = (last_ko && c.rem_ko != 0) ? c.rem_ko[5:0] : c.ko_sub;
  assign h_out = (last_h && c.rem_ho != 0) ? c.rem_ho[2:0] : 3'd3;
  assign w_out = (last_w && c.rem_wo != 0) ? c.rem_wo[2:0] : 3'd3;
  assign h_in  = (last_h && c.rem_hi != 0) ? c.rem_hi[2:0] : c.f;
  assign w_in  = (last_w && c.rem_wi != 0) ? c.rem_wi[2:0] : c.f;
  assign lanes = c.dw ? n_ko : ((last_ki && c.rem_ki != 0) ? c.rem_ki[5:0] : c.ki_full);

  // verilator lint_off UNUSEDSIGNAL
  function automatic logic pix_enabled(input cfg_t cf, input logic [3:0] p, input logic [2:0] ho, input logic [2:0] wo);
    logic [1:0] i, j;
    i = p >= 4'd6 ? 2'd2 : p >= 4'd3 ? 2'd1 : 2'd0;
    j = 2'(p - 4'(3 * i));
    if (p >= 4'd9) return 1'b0;
    if (cf.linear) return p == 4'd0;
    if (3'(i) >= ho || 3'(j) >= wo) return 1'b0;
    return !cf.strided || ((i != 2'd1) && (j != 2'd1));
  endfunction

  // ---------------- addresses ----------------
  logic [1:0]  pi, pj;
  logic [31:0] pix_addr, win_base, s_ki, s_ko, wpl_addr, ldx_addr, ko_off;
  assign pi = pix_q >= 4'd6 ? 2'd2 : pix_q >= 4'd3 ? 2'd1 : 2'd0;
  assign pj = 2'(pix_q - 4'(3 * pi));
  assign ko_off = 32'(kom_q) * 32'(c.ko_sub) * 32'(c.ob);
  assign pix_addr = c.outfeat + ko_off + (32'(3 * 32'(im_q)) + 32'(pi)) * c.out_d2 + (32'(3 * 32'(jm_q)) + 32'(pj)) * c.out_d1;
  assign win_base = c.infeat + 32'(3 * 32'(im_q)) * c.in_d1 + 32'(3 * 32'(jm_q)) * c.in_d0 +
                    (c.linear ? 32'(kim_q) * (c.mode16 ? 32'd512 : 32'd256) : 32'd16 * 32'(c.dw ? 32'(kom_q) : 32'(kim_q)));
  assign ldx_addr = c.linear ? win_base + 32'(idx_q) * c.in_d0 : win_base + 32'(xr_q) * c.in_d1 + 32'(xc_q) * c.in_d0;
  assign s_ki = c.is1x1 ? 32'(c.qw) * 32'(c.mode16 ? 1 : 2) : 32'(c.qw) * 32'd9 * 32'(c.mode16 ? 1 : 2);
  assign s_ko = 32'd32 * 32'(c.nb_ki) * s_ki;
  always_comb begin
    if (c.linear)   wpl_addr = c.weights + 32'(kom_q) * c.w_d2 + 32'(kim_q) * 32'd32 + 32'(ko_q) * c.w_d1 + 32'(q_q) * c.w_d0;
    else if (c.dw)  wpl_addr = c.weights + 32'(kom_q) * 32'(c.qw) * 32'd18 + 32'(ko_q) * c.w_d1 + 32'(q_q) * c.w_d0;
    else if (c.is1x1) wpl_addr = c.weights + 32'(kom_q) * s_ko + 32'(kim_q) * s_ki + 32'(ko_q) * c.w_d1 + 32'(q_q) * 32'(c.mode16 ? 1 : 2);
    else            wpl_addr = c.weights + 32'(kom_q) * s_ko + 32'(kim_q) * s_ki + 32'(ko_q) * c.w_d1 + 32'(q_q) * c.w_d0;
  end

  // ---------------- padding on window capture (4.2) ----------------
  logic [127:0] xpad;
  always_comb begin
    logic implicit_zero, explicit_pad;
    implicit_zero = xr_q >= h_in || xc_q >= w_in;
    explicit_pad = (im_q == 0 && 4'(xr_q) < c.pad_top) || (last_h && 5'(xr_q) + 5'(c.pad_bottom) >= 5'd5) ||
                   (jm_q == 0 && 4'(xc_q) < c.pad_left) || (last_w && 5'(xc_q) + 5'(c.pad_right) >= 5'd5);
    if (c.linear) xpad = rbuf_q[127:0];
    else if (implicit_zero) xpad = '0;
    else if (explicit_pad) xpad = c.mode16 ? {8{c.pad_value}} : {16{c.pad_value[7:0]}};
    else xpad = rbuf_q[127:0];
  end

  // ---------------- MAC operands ----------------
  logic [8:0][15:0][16:0] mac_x;
  logic [8:0][15:0][9:0]  mac_w;
  logic [8:0][31:0]       mac_sum;
  ne16_mac_array i_mac (.x_i(mac_x), .w_i(mac_w), .sum_o(mac_sum));

  function automatic logic [9:0] wval(input cfg_t cf, input logic [7:0][255:0] pl, input int bitpos);
    logic [8:0] u;
    u = '0;
    for (int qq = 0; qq < 8; qq++) begin
      if (4'(qq) < cf.qw) u[qq] = pl[qq][bitpos];
    end
    return 10'($signed({1'b0, u}) + cf.wmin);
  endfunction
  // verilator lint_on UNUSEDSIGNAL

  always_comb begin
    logic [1:0] fy, fx;
    logic       masked;
    logic [5:0] word;
    logic [127:0] xv;
    mac_x = '0;
    mac_w = '0;
    word = '0;
    xv = '0;
    fy = step_q >= 4'd6 ? 2'd2 : step_q >= 4'd3 ? 2'd1 : 2'd0;
    fx = 2'(step_q - 4'(3 * fy));
    masked = !c.is1x1 && (8'(fy) < c.mask_top || 9'(fy) + 9'(c.mask_bottom) >= 9'd3 ||
                          8'(fx) < c.mask_left || 9'(fx) + 9'(c.mask_right) >= 9'd3);
    for (int r = 0; r < 9; r++) begin
      int pr, pc;
      pr = r / 3;
      pc = r % 3;
      if (c.linear) begin
        word = 6'(9 * int'(step_q) + r);
        xv = xbuf_q[word[4:0]];
        for (int l = 0; l < 16; l++) begin
          if (!c.mode16 && word < lanes && word < 6'd16) begin
            mac_x[r][l] = {9'd0, xv[8*l +: 8]};
            mac_w[r][l] = wval(c, wpl_q, 16 * int'(word) + l);
          end else if (c.mode16 && l < 8 && word < lanes) begin
            mac_x[r][l] = {1'b0, xv[16*l +: 16]};
            mac_w[r][l] = wval(c, wpl_q, 8 * int'(word) + l);
          end
        end
      end else begin
        if (c.is1x1) xv = xbuf_q[5'(pr * 3 + pc)];
        else xv = xbuf_q[5'((pr + int'(fy)) * 5 + pc + int'(fx))];
        for (int l = 0; l < 16; l++) begin
          if (c.dw) begin
            if (6'(l) == ko_q) begin
              mac_x[r][l] = {9'd0, xv[8*l +: 8]};
              mac_w[r][l] = masked ? 10'd0 : wval(c, wpl_q, 16 * int'(step_q) + l);
            end
          end else if (c.mode16) begin
            if (l < 8) begin
              mac_x[r][l] = {1'b0, (6'(2*l+1) < lanes) ? xv[16*l+8 +: 8] : 8'd0, (6'(2*l) < lanes) ? xv[16*l +: 8] : 8'd0};
              mac_w[r][l] = masked ? 10'd0 : wval(c, wpl_q, 8 * int'(step_q) + l);
            end
          end else begin
            if (6'(l) < lanes) begin
              mac_x[r][l] = {9'd0, xv[8*l +: 8]};
              mac_w[r][l] = masked ? 10'd0 : wval(c, wpl_q, 16 * int'(step_q) + l);
            end
          end
        end
      end
    end
  end

  logic [3:0] mac_steps;
  assign mac_steps = c.linear ? (c.mode16 ? 4'd4 : 4'd2) : (c.is1x1 ? 4'd1 : 4'd9);

  // ---------------- normalisation of (ko_q, pix_q) ----------------
  logic [31:0] nq_scale, nq_y;
  always_comb begin
    unique case (c.sb)
      3'd1: nq_scale = {24'd0, scale_q[8*ko_q +: 8]};
      3'd2: nq_scale = {16'd0, scale_q[16*ko_q +: 16]};
      default: nq_scale = scale_q[32*ko_q +: 32];
    endcase
  end
  ne16_normquant i_nq (
    .cfg_i(c), .acc_i(acc_q[ko_q[4:0]][pix_q]), .scale_i(nq_scale), .bias_i(bias_q[32*ko_q +: 32]),
    .shift_i(shift_q[8*ko_q +: 8]), .y_o(nq_y)
  );

  // ---------------- output word packing ----------------
  logic [255:0] st_bytes;
  logic [5:0]   st_n;     // bytes in this word
  always_comb begin
    logic [5:0] rest;
    st_bytes = '0;
    rest = n_ko - {1'b0, wi_q, 3'd0};
    if (rest > 6'd8) rest = 6'd8;
    if (c.ob == 3'd1) begin
      for (int k = 0; k < 32; k++) st_bytes[8*k +: 8] = obuf_q[k][7:0];
      st_n = n_ko;
    end else if (c.ob == 3'd2) begin
      for (int j = 0; j < 8; j++) st_bytes[16*j +: 16] = obuf_q[{wi_q, 3'(j)}][15:0];
      st_n = 6'(2 * rest);
    end else begin
      for (int j = 0; j < 8; j++) st_bytes[32*j +: 32] = obuf_q[{wi_q, 3'(j)}];
      st_n = 6'(4 * rest);
    end
  end

  // more output words after wi_q (16/32-bit outputs)
  logic more_words;
  assign more_words = c.ob != 3'd1 && ({1'b0, wi_q, 3'd0} + 6'd8) < n_ko;

  // ---------------- FSM ----------------
  task automatic issue(input logic [31:0] byte_addr, input logic write, input logic [5:0] nbytes,
                       input logic [255:0] data, input state_e ret);
    logic [35:0] mask;
    mask = (36'd1 << nbytes) - 36'd1;
    add_q <= {byte_addr[31:2], 2'b00};
    off_q <= byte_addr[1:0];
    wen_q <= ~write;
    be_q <= write ? (mask << byte_addr[1:0]) : '1;
    wdata_q <= write ? ({32'd0, data} << {byte_addr[1:0], 3'b000}) : '0;
    req_q <= 1'b1;
    rwait_q <= 1'b0;
    ret_q <= ret;
    state_q <= S_MEM;
  endtask

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= S_IDLE; ret_q <= S_IDLE; cfg_q <= '0; err_q <= '0;
      kom_q <= '0; im_q <= '0; jm_q <= '0; kim_q <= '0; ko_q <= '0; q_q <= '0; step_q <= '0; pix_q <= '0;
      xr_q <= '0; xc_q <= '0; chunk_q <= '0; idx_q <= '0; wi_q <= '0;
      xbuf_q <= '0; wpl_q <= '0; obuf_q <= '0;
      for (int k = 0; k < 32; k++) acc_q[k] <= '0; scale_q <= '0; bias_q <= '0; shift_q <= '0;
      rbuf_q <= '0; req_q <= 1'b0; wen_q <= 1'b1; rwait_q <= 1'b0; add_q <= '0; off_q <= '0; be_q <= '0;
      wdata_q <= '0;
    end else if (clear_i) begin
      state_q <= S_IDLE;
      req_q <= 1'b0;
      rwait_q <= 1'b0;
    end else begin
      unique case (state_q)
        S_IDLE: if (start_i) begin
          cfg_q <= decode(regs_i);
          err_q <= check(decode(regs_i));
          state_q <= S_CHECK;
        end
        S_CHECK: begin
          kom_q <= '0;
          state_q <= err_q != 8'd0 ? S_DONE : S_KOM;
        end
        S_KOM: begin
          im_q <= '0; jm_q <= '0; chunk_q <= '0;
          state_q <= c.streamout ? S_PAR_SC : S_SUB;
        end
        // ---- per-channel parameters of the Ko subtile (3.5), 32-byte chunks ----
        S_PAR_SC: issue(c.scale + ko_off / 32'(c.ob) * 32'(c.sb) + 32'({chunk_q, 5'd0}), 1'b0, 6'd32, '0, S_PAR_SC_D);
        S_PAR_SC_D: begin
          scale_q[256*chunk_q[1:0] +: 256] <= rbuf_q;
          if ((9'(chunk_q) + 9'd1) * 9'd32 < 9'(n_ko) * 9'(c.sb) && chunk_q != 3'd3) begin
            chunk_q <= chunk_q + 3'd1; state_q <= S_PAR_SC;
          end else begin
            chunk_q <= '0;
            state_q <= c.norm_bias ? S_PAR_BI : c.norm_shift ? S_PAR_SH : S_SUB;
          end
        end
        S_PAR_BI: issue(c.scale_bias + ko_off / 32'(c.ob) * 32'd4 + 32'({chunk_q, 5'd0}), 1'b0, 6'd32, '0, S_PAR_BI_D);
        S_PAR_BI_D: begin
          bias_q[256*chunk_q[1:0] +: 256] <= rbuf_q;
          if ((7'(chunk_q) + 7'd1) * 7'd8 < 7'(n_ko) && chunk_q != 3'd3) begin
            chunk_q <= chunk_q + 3'd1; state_q <= S_PAR_BI;
          end else begin
            chunk_q <= '0;
            state_q <= c.norm_shift ? S_PAR_SH : S_SUB;
          end
        end
        S_PAR_SH: issue(c.scale_shift + ko_off / 32'(c.ob), 1'b0, 6'd32, '0, S_PAR_SH_D);
        S_PAR_SH_D: begin
          shift_q <= rbuf_q;
          state_q <= S_SUB;
        end
        // ---- output subtile ----
        S_SUB: begin
          for (int k = 0; k < 32; k++) acc_q[k] <= '0;
          pix_q <= '0; wi_q <= '0; kim_q <= '0;
          state_q <= c.streamin ? S_SIN : S_KIM;
        end
        S_SIN: begin
          if (pix_q == 4'd9) begin
            pix_q <= '0; state_q <= S_KIM;
          end else if (!pix_enabled(c, pix_q, h_out, w_out)) begin
            pix_q <= pix_q + 4'd1;
          end else begin
            issue(pix_addr + 32'(wi_q) * c.out_d0, 1'b0, 6'd32, '0, S_SIN_D);
          end
        end
        S_SIN_D: begin
          for (int j = 0; j < 8; j++) acc_q[{wi_q, 3'(j)}][pix_q] <= rbuf_q[32*j +: 32];
          if (({1'b0, wi_q, 3'd0} + 6'd8) < n_ko) wi_q <= wi_q + 2'd1;
          else begin wi_q <= '0; pix_q <= pix_q + 4'd1; end
          state_q <= S_SIN;
        end
        // ---- Ki subtile: input window ----
        S_KIM: begin
          xr_q <= '0; xc_q <= '0; idx_q <= '0;
          state_q <= S_LDX;
        end
        S_LDX: issue(ldx_addr, 1'b0, 6'd16, '0, S_LDX_D);
        S_LDX_D: begin
          xbuf_q[idx_q[4:0]] <= xpad;
          idx_q <= idx_q + 6'd1;
          if (xc_q == c.f - 3'd1) begin xc_q <= '0; xr_q <= xr_q + 3'd1; end
          else xc_q <= xc_q + 3'd1;
          if (c.linear ? (idx_q == c.ki_full - 6'd1) : (xr_q == c.f - 3'd1 && xc_q == c.f - 3'd1)) begin
            ko_q <= '0; q_q <= '0; state_q <= S_LDW;
          end else state_q <= S_LDX;
        end
        // ---- per output channel: weight planes, then MAC steps ----
        S_LDW: issue(wpl_addr, 1'b0, 6'd32, '0, S_LDW_D);
        S_LDW_D: begin
          wpl_q[q_q[2:0]] <= rbuf_q;
          if (q_q + 4'd1 < c.qw) begin q_q <= q_q + 4'd1; state_q <= S_LDW; end
          else begin q_q <= '0; step_q <= '0; state_q <= S_MAC; end
        end
        S_MAC: begin
          if (c.linear) acc_q[ko_q[4:0]][0] <= acc_q[ko_q[4:0]][0] + mac_sum[0] + mac_sum[1] + mac_sum[2] + mac_sum[3] +
                                            mac_sum[4] + mac_sum[5] + mac_sum[6] + mac_sum[7] + mac_sum[8];
          else for (int p = 0; p < 9; p++) acc_q[ko_q[4:0]][p] <= acc_q[ko_q[4:0]][p] + mac_sum[p];
          if (step_q + 4'd1 < mac_steps) step_q <= step_q + 4'd1;
          else if (ko_q + 6'd1 < n_ko) begin ko_q <= ko_q + 6'd1; state_q <= S_LDW; end
          else if (!last_ki) begin kim_q <= kim_q + 16'd1; state_q <= S_KIM; end
          else begin pix_q <= '0; state_q <= S_ST_PIX; end
        end
        // ---- store (4.6): per enabled pixel, one normalised value per cycle, then the words ----
        S_ST_PIX: begin
          if (pix_q == 4'd9) state_q <= S_NEXT;
          else if (!pix_enabled(c, pix_q, h_out, w_out)) pix_q <= pix_q + 4'd1;
          else begin ko_q <= '0; state_q <= S_ST_NQ; end
        end
        S_ST_NQ: begin
          obuf_q[ko_q[4:0]] <= nq_y;
          if (ko_q + 6'd1 < n_ko) ko_q <= ko_q + 6'd1;
          else begin wi_q <= '0; state_q <= S_ST_WR; end
        end
        S_ST_WR: issue(c.ob == 3'd1 ? pix_addr : pix_addr + 32'(wi_q) * c.out_d0, 1'b1, st_n, st_bytes, S_ST_WR_D);
        S_ST_WR_D: begin
          if (more_words) begin wi_q <= wi_q + 2'd1; state_q <= S_ST_WR; end
          else begin pix_q <= pix_q + 4'd1; state_q <= S_ST_PIX; end
        end
        S_NEXT: begin
          if (!last_w) begin jm_q <= jm_q + 16'd1; state_q <= S_SUB; end
          else if (!last_h) begin jm_q <= '0; im_q <= im_q + 16'd1; state_q <= S_SUB; end
          else if (!last_ko) begin kom_q <= kom_q + 16'd1; state_q <= S_KOM; end
          else state_q <= S_DONE;
        end
        // ---- one transaction ----
        S_MEM: begin
          if (req_q) begin
            if (gnt_i) begin
              req_q <= 1'b0;
              if (!wen_q) state_q <= ret_q;
              else rwait_q <= 1'b1;
            end
          end else if (rwait_q && r_valid_i) begin
            rwait_q <= 1'b0;
            rbuf_q <= 256'(r_data_i >> {off_q, 3'b000});
            state_q <= ret_q;
          end
        end
        S_DONE: state_q <= S_IDLE;
        default: state_q <= S_IDLE;
      endcase
    end
  end

  assign done_o = state_q == S_DONE;
  assign err_o = err_q;
  assign req_o = req_q;
  assign add_o = add_q;
  assign wen_o = wen_q;
  assign be_o = be_q;
  assign wdata_o = wdata_q;
endmodule
