// max78000_cnn: top of the MAX78000 CNN accelerator model (shared/spec/max78000.md).
//
// Ports
//   PCLK, PRESETn          clock and active-low asynchronous reset of the APB and the accelerator (1.1)
//   PSEL, PENABLE, PWRITE  APB4 slave. PSEL covers 0x5000_0000-0x510F_FFFF and the fast FIFO's registers at
//   PADDR[31:0]            0x400C_0400 (a peripheral of its own on the chip, modelled here because it feeds the
//                          CNN directly); PADDR is the full system address (D01). Byte/halfword writes keep
//                          PADDR[1:0] and use PSTRB (D02, D03).
//   PWDATA[31:0], PSTRB[3:0], PPROT[2:0] (ignored)
//   PRDATA[31:0]           read data (whole word)
//   PREADY                 low for rdy_sel wait states of the addressed window (D04)
//   PSLVERR                invalid address, or a memory access while a run is in progress (D05)
//   irq                    level, OR of the four CTRL.cnn_irq bits (D06)
//   busy                   debug: a run is in progress
//   run_cycles[31:0]       debug: clock cycles of the last (or current) run
//
// Structure: generated register files (global block, 4 quadrants), per-quadrant MRAM loaders
// (express and non-express), the memories (16 data SRAMs 8192x32, 64 MRAMs 768x72 with two read ports so
// that the engine gets a kernel's taps even where they cross a word, 4 BRAMs 512x8, 64 TRAMs 3072x16),
// and the engine (layer sequencer + 64-processor datapath). During a run the engine owns the memory
// ports; APB memory accesses then get PSLVERR (D05), register accesses always work.
module max78000_cnn
  import max78000_pkg::*;
  import max78000_regs_pkg::*;
(
  input  logic        PCLK,
  // Asynchronous reset of the registers, synchronous clear of the RAMs' written bits (max78000_ram_mr.sv says
  // why): Verilator 5.049 on flags the net for both (SYNCASYNCNET), 5.006 does not.
  /* verilator lint_off SYNCASYNCNET */
  input  logic        PRESETn,
  /* verilator lint_on SYNCASYNCNET */
  input  logic        PSEL,
  input  logic        PENABLE,
  input  logic        PWRITE,
  input  logic [31:0] PADDR,
  input  logic [31:0] PWDATA,
  input  logic [3:0]  PSTRB,
  input  logic [2:0]  PPROT,
  output logic [31:0] PRDATA,
  output logic        PREADY,
  output logic        PSLVERR,
  output logic        irq,
  output logic        busy,
  output logic [31:0] run_cycles
);
  wire clk = PCLK;
  wire rst_n = PRESETn;

  // ---------------- address decode ----------------
  logic        in_glob, in_quad;
  logic [31:0] qoff;
  logic [1:0]  aq;
  logic [21:0] ao;
  logic [10:0] regw;
  mem_dec_t    md;
  logic        glob_hit, quad_hit;
  logic [3:0]  qhit;
  logic [31:0] glob_rdata;
  logic [31:0] quad_rdata [4];

  assign in_glob = PADDR[31:20] == 12'h500;
  wire in_ff = PADDR[31:10] == 22'(FFIFO_BASE >> 10);
  wire [10:0] ffw = {6'd0, PADDR[6:2]};
  logic ff_rdhit;
  wire ff_hit = in_ff && PADDR[9:7] == 3'd0 && ff_rdhit;
  assign qoff = PADDR - QUAD_BASE;
  assign in_quad = PADDR >= QUAD_BASE && qoff < 32'h0100_0000;
  assign aq = qoff[23:22];
  assign ao = qoff[21:0];
  assign regw = in_glob ? PADDR[12:2] : ao[12:2];
  assign glob_hit = in_glob && PADDR[19:13] == 7'd0 && glob_rdhit;
  assign quad_hit = in_quad && ao[21:13] == 9'd0 && qhit[aq];

  max78000_mem_decode u_dec (.q(aq), .o(ao), .d(md));
  wire is_mem = in_quad && md.kind != M_NONE;
  wire valid = glob_hit || quad_hit || is_mem || ff_hit;

  logic glob_rdhit;
  logic [31:0] fifo_ctrl_q, aod_ctrl_q;
  logic [31:0] ctrl_q [4], lcnt_q [4];
  wire ff_sel = ctrl_q[0][22];          // quadrant 0's CTRL.ffifo_en: the fast FIFO feeds it (below)
  wire ff_quad = ff_sel && ctrl_q[0][31];   // and qupac: it feeds every quadrant

  // ---------------- APB protocol: wait states, errors ----------------
  logic [1:0] ws_cnt;
  logic       err_q;
  wire setup = PSEL && !PENABLE;
  wire access = PSEL && PENABLE;
  logic [1:0] ws;
  always_comb begin
    if (!valid || (is_mem && busy)) ws = 2'd0;
    else if (in_ff) ws = 2'd0;                             // no rdy_sel covers the fast FIFO
    else if (in_glob) ws = (PADDR[19:12] == 8'h01) ? aod_ctrl_q[1:0] : fifo_ctrl_q[1:0];
    else ws = ctrl_q[aq][2:1];
  end
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      ws_cnt <= '0; err_q <= 1'b0;
    end else if (setup) begin
      ws_cnt <= ws; err_q <= !valid || (is_mem && busy);
    end else if (access && ws_cnt != 2'd0) begin
      ws_cnt <= ws_cnt - 2'd1;
    end
  end
  assign PREADY = !access || ws_cnt == 2'd0;
  assign PSLVERR = access && PREADY && err_q;
  wire commit = access && PREADY && !err_q;
  wire wcommit = commit && PWRITE;
  wire mem_re = setup && !PWRITE && is_mem && !busy;     // memories: read issued in the setup phase

  // ---------------- register files ----------------
  logic [31:0] fifo_stat;
  logic        fifo_wr_we [4];
  max78000_glob_regs u_glob (
    .clk, .rst_n, .wr_en(wcommit && glob_hit), .waddr(regw), .wdata(PWDATA), .wstrb(PSTRB), .raddr(regw),
    .rdata(glob_rdata), .rhit(glob_rdhit), .fifo_ctrl_q, .fifo_stat_ro_i(fifo_stat), .fifo_wr_we,
    .aod_ctrl_q
  );

  // ---------------- input FIFOs (2.1, D10) and their drain into the data memories (D46) ----------------
  logic [31:0] fifo_head [4];
  logic [3:0]  fifo_empty, fifo_pop, fifo_memw;
  logic [21:0] fifo_stat_b;
  logic        fifo_irq;
  logic [19:0] ifrm [4], fifo_cnt [4];
  logic [12:0] fifo_rptr [4], fifo_waddr [4];
  logic [16:0] fifo_roll [4];
  logic [3:0]  fifo_lw;
  max78000_fifo u_fifo (
    .clk, .rst_n, .ctrl(fifo_ctrl_q),
    .push({fifo_wr_we[3], fifo_wr_we[2], fifo_wr_we[1], fifo_wr_we[0]}), .wdata(PWDATA),
    .pop(fifo_pop & ~{{3{ff_quad}}, ff_sel}),   // a FIFO the fast FIFO replaces keeps its words
    .head(fifo_head), .empty(fifo_empty), .stat(fifo_stat_b), .irq(fifo_irq)
  );
  assign fifo_stat = {10'd0, fifo_stat_b};

  // The fast FIFO (M3) takes FIFO 0's place while quadrant 0's CTRL.ffifo_en is set (ai8x-synthesis: it feeds
  // processors 0-3; FIFO_CTRL is not written then). With qupac too (--fast-fifo-quad) it feeds processors
  // 0-3 of every quadrant: the four drains step together on its words. src_* are what the drain and the engine
  // see as FIFO k.
  logic [31:0] ff_rdata, ff_head;
  logic        ff_empty;
  max78000_ffifo u_ffifo (
    .clk, .rst_n, .wr_en(wcommit && ff_hit), .regw(ffw), .wdata(PWDATA), .wstrb(PSTRB), .rdata(ff_rdata),
    .rhit(ff_rdhit), .pop(fifo_pop[0] && ff_sel), .head(ff_head), .empty(ff_empty)
  );
  logic [31:0] src_head [4];
  logic [3:0]  src_empty, src_fen;
  always_comb begin
    src_head = fifo_head;
    src_empty = fifo_empty;
    src_fen = fifo_ctrl_q[15:12];
    for (int k = 0; k < 4; k++)
      if (k == 0 ? ff_sel : ff_quad) begin
        src_head[k] = ff_head;
        src_empty[k] = ff_empty;
        src_fen[k] = 1'b1;
      end
  end
  wire fifo_run = busy && ctrl_q[master_q][15];        // the master's CTRL.fifo_en
  max78000_fifo_drain u_drain (
    .clk, .rst_n, .start(start_hit != 4'd0 && !busy), .active(fifo_run), .fen(src_fen),
    .cpl(fifo_ctrl_q[11] || ff_quad), .ifrm, .rptr(fifo_rptr), .fempty(src_empty), .mem_busy(fifo_memw),
    .roll(fifo_roll), .pop(fifo_pop), .waddr(fifo_waddr), .lw(fifo_lw), .cnt(fifo_cnt)
  );
  for (genvar k = 0; k < 4; k++) begin : g_fmem
    assign fifo_memw[k] = dm_we && dm_wg == 4'(4 * k);
  end

  lparams_t lp_in [4];
  logic [4:0] layer;
  logic       done;
  logic [3:0] cnn_en;
  logic [3:0] start_hit;
  logic [3:0] start_oneshot;            // CTRL.oneshot as the start write leaves it

  for (genvar q = 0; q < 4; q++) begin : g_quad
    logic [31:0] sram_q, test_q, ifrm_q;
    logic [31:0] rcnt_q [32], ccnt_q [32], oned_q [32], prcnt_q [32], pccnt_q [32], stride_q [32];
    logic [31:0] wptr_base_q [32], wptr_toff_q [32], wptr_moff_q [32], wptr_choff_q [32], rptr_base_q [32];
    logic [31:0] lctrl0_q [32], mcnt_q [32], tptr_q [32], en_q [32], post_q [32], lctrl1_q [32];
    logic [31:0] strm0_q [8], strm1_q [8], fbuf_q [8];
    logic [31:0] ctrl_set, zero32;
    logic [31:0] lr [16];
    assign zero32 = '0;                                 // TEST status (BIST/zeroize: not modelled)
    assign ctrl_set = (done && ctrl_q[q][0]) ? 32'h0000_1000 : 32'h0;   // D44
    wire wr_here = wcommit && quad_hit && aq == 2'(q);
    max78000_quad_regs u_regs (
      .clk, .rst_n, .wr_en(wr_here), .waddr(regw), .wdata(PWDATA), .wstrb(PSTRB), .raddr(regw),
      .rdata(quad_rdata[q]), .rhit(qhit[q]), .ctrl_q(ctrl_q[q]), .ctrl_set_i(ctrl_set), .sram_q,
      .lcnt_max_q(lcnt_q[q]), .test_q, .test_ro_i(zero32), .rcnt_q, .ccnt_q, .oned_q, .prcnt_q, .pccnt_q,
      .stride_q, .wptr_base_q, .wptr_toff_q, .wptr_moff_q, .wptr_choff_q, .rptr_base_q, .lctrl0_q, .mcnt_q,
      .tptr_q, .en_q, .post_q, .strm0_q, .strm1_q, .fbuf_q, .ifrm_q, .lctrl1_q, .mlat_ro_i(mlat_data)
    );
    // D42: a CTRL write that changes a master's cnn_en from 0 to 1 starts a run.
    logic [31:0] bm, nv;
    always_comb begin
      bm = {{8{PSTRB[3]}}, {8{PSTRB[2]}}, {8{PSTRB[1]}}, {8{PSTRB[0]}}};
      nv = (ctrl_q[q] & ~bm) | (PWDATA & bm);
      start_hit[q] = wr_here && regw == 11'd0 && !ctrl_q[q][0] && nv[0]
                     && (!nv[11] || nv[10:9] == 2'(q));
      start_oneshot[q] = nv[8];
    end
    assign cnn_en[q] = ctrl_q[q][0];
    // mlator (3.12): a CTRL write that takes mlat_ld from 0 to 1 with cnn_en = 0 loads the pointer from
    // layer 0's WPTR_BASE; each MLAT read returns a group, the first read after a load does not advance.
    always_ff @(posedge clk or negedge rst_n)
      if (!rst_n) begin
        mlat_ptr[q] <= '0; mlat_primed[q] <= 1'b0;
      end else if (wr_here && regw == 11'd0 && !ctrl_q[q][16] && nv[16] && !nv[0]) begin
        mlat_ptr[q] <= wptr_base_q[0][16:0]; mlat_primed[q] <= 1'b0;
      end else if (mlat_rd && aq == 2'(q)) begin
        if (mlat_primed[q]) mlat_ptr[q] <= 17'(32'(mlat_ptr[q]) + 32'd4 * 32'(mlat_d[q]));
        mlat_primed[q] <= 1'b1;
      end
    assign mlat_d[q] = 5'(lctrl1_q[0][7:4]) + 5'd1;
    assign ifrm[q] = ifrm_q[19:0];
    assign fifo_rptr[q] = rptr_base_q[0][12:0];
    assign fifo_roll[q] = (ctrl_q[q][14] && ctrl_q[q][19]) ? fbuf_q[0][16:0] : 17'd0;   // 2.4
    always_comb begin
      lr[0] = rcnt_q[layer];  lr[1] = ccnt_q[layer];  lr[2] = oned_q[layer];  lr[3] = prcnt_q[layer];
      lr[4] = pccnt_q[layer]; lr[5] = stride_q[layer]; lr[6] = wptr_base_q[layer];
      lr[7] = wptr_toff_q[layer]; lr[8] = wptr_moff_q[layer]; lr[9] = wptr_choff_q[layer];
      lr[10] = rptr_base_q[layer]; lr[11] = lctrl0_q[layer]; lr[12] = mcnt_q[layer]; lr[13] = tptr_q[layer];
      lr[14] = en_q[layer]; lr[15] = post_q[layer];
    end
    logic [31:0] fb, fbn;
    assign fb = (layer < 5'd8) ? fbuf_q[layer[2:0]] : 32'd0;
    assign fbn = (layer < 5'd7) ? fbuf_q[3'(layer + 5'd1)] : 32'd0;
    max78000_lparams u_lp (.lr, .lctrl1(lctrl1_q[layer]), .ctrl(ctrl_q[q]), .fbuf(fb), .fbuf_next(fbn),
                           .p(lp_in[q]));
    // Stored-only registers (D11, D22, M3 streaming).
    wire unused = ^{sram_q, test_q, nv[31:12], nv[7:1], ifrm_q[31:20], rptr_base_q[0][31:13], strm0_q[0],
                    strm1_q[0]};
  end

  // ---------------- mlator (3.12): four words per MLAT read, one lane each ----------------
  logic [16:0] mlat_ptr [4];
  logic        mlat_primed [4];
  logic [4:0]  mlat_d [4];
  logic [16:0] mlat_wp [4];             // the group's four word pointers (addressed quadrant)
  logic [31:0] mlat_data;
  logic [31:0] mlat_rd_word [16][4];
  wire mlat_hit = in_quad && ao[21:13] == 9'd0 && regw == 11'h400;
  wire mlat_re = setup && !PWRITE && mlat_hit && !busy;        // the memories read in the setup phase
  wire mlat_rd = commit && !PWRITE && mlat_hit;
  always_comb begin
    for (int m = 0; m < 4; m++) mlat_wp[m] = 17'(32'(mlat_ptr[aq]) + 32'(m) * 32'(mlat_d[aq]));
    for (int m = 0; m < 4; m++)
      mlat_data[8 * m +: 8] = mlat_rd_word[mlat_wp[m][16:13]][m][8 * ctrl_q[aq][18:17] +: 8];
  end

  assign irq = ctrl_q[0][12] | ctrl_q[1][12] | ctrl_q[2][12] | ctrl_q[3][12] | fifo_irq;   // D06

  logic [1:0] start_q;
  always_comb begin
    start_q = 2'd0;
    for (int q = 3; q >= 0; q--) if (start_hit[q]) start_q = 2'(q);
  end
  logic [1:0] master_q;
  always_ff @(posedge clk or negedge rst_n)
    if (!rst_n) master_q <= '0;
    else if (start_hit != 4'd0 && !busy) master_q <= start_q;
  wire [1:0] mq = (start_hit != 4'd0 && !busy) ? start_q : master_q;

  // ---------------- engine ----------------
  logic        dm_re, dm_we;
  logic [12:0] dm_raddr [16];
  logic [31:0] dm_rdata [16];
  logic [3:0]  dm_wg, dm_wbe;
  logic [12:0] dm_waddr;
  logic [31:0] dm_wdata;
  logic        mr_re, br_re;
  logic [11:0] mr_addr [4][2];
  logic [71:0] mr_rdata [64][2];
  logic [8:0]  br_addr [4];
  logic [7:0]  br_rdata [4];

  max78000_engine u_eng (
    .clk, .rst_n, .start(start_hit != 4'd0), .start_q, .cnn_en, .lcnt(lcnt_q[mq][4:0]),
    // the start write's own oneshot bit: the register takes it only at the end of this cycle
    .oneshot(start_hit != 4'd0 && !busy ? start_oneshot[start_q] : ctrl_q[mq][8]),
    .layer, .lp_in, .busy, .done, .cycles(run_cycles),
    .dm_re, .dm_raddr, .dm_rdata, .dm_we, .dm_wg, .dm_waddr, .dm_wdata, .dm_wbe,
    .mr_re, .mr_addr, .mr_rdata, .br_re, .br_addr, .br_rdata,
    .fifo_feed(fifo_run ? src_fen : 4'd0), .fifo_cnt, .ifrm, .fifo_lw, .fifo_data(src_head), .quad(ff_quad)
  );

  // ---------------- memories ----------------
  for (genvar g = 0; g < 16; g++) begin : g_dmem
    wire apb_w = wcommit && is_mem && md.kind == M_DSRAM && md.g == 4'(g);
    wire apb_r = mem_re && md.kind == M_DSRAM && md.g == 4'(g);
    wire ew = dm_we && dm_wg == 4'(g);
    wire fw = (g % 4 == 0) && fifo_pop[g / 4];          // FIFO g/4 delivers into memory 4k (D46)
    // port 0: engine or APB; ports 1-4: the mlator's four words (read only when idle)
    logic [12:0] ra [5];
    logic [31:0] rd [5];
    assign ra[0] = busy ? dm_raddr[g] : md.idx;
    for (genvar m = 0; m < 4; m++) begin : g_mp
      assign ra[m + 1] = mlat_wp[m][12:0];
      assign mlat_rd_word[g][m] = rd[m + 1];
    end
    assign dm_rdata[g] = rd[0];
    max78000_ram_mr #(.DEPTH(8192), .NB(4), .NR(5), .AW(13), .ZERO_RESET(1'b1)) u_ram (
      .clk, .rst_n, .re(busy ? dm_re : (apb_r || mlat_re)), .raddr(ra), .rdata(rd),
      .we(busy ? (ew || fw) : apb_w), .waddr(!busy ? md.idx : ew ? dm_waddr : fifo_waddr[g / 4]),
      .wdata(!busy ? PWDATA : ew ? dm_wdata : src_head[g / 4]), .wbe(!busy ? PSTRB : ew ? dm_wbe : 4'hF)
    );
  end

  for (genvar q = 0; q < 4; q++) begin : g_qmem
    logic        lw;
    logic [3:0]  lproc;
    logic [11:0] lword;
    logic [71:0] ldata;
    logic [31:0] moff;
    assign moff = 32'(ao) - 32'h8_0000;
    max78000_mram_loader u_ld (
      .clk, .rst_n, .wr(wcommit && is_mem && md.kind == M_MRAM && aq == 2'(q)), .off(moff[17:0]),
      .wdata(PWDATA), .wstrb(PSTRB), .mexpress(ctrl_q[q][20]), .we(lw), .we_proc(lproc), .we_word(lword),
      .we_data(ldata)
    );
    for (genvar i = 0; i < 16; i++) begin : g_proc
      wire apb_r = mem_re && md.kind == M_MRAM && aq == 2'(q) && md.proc == 4'(i);
      logic [11:0] mra [2];
      assign mra[0] = busy ? mr_addr[q][0] : md.idx[11:0];      // APB reads use port 0
      assign mra[1] = mr_addr[q][1];
      max78000_ram_mr #(.DEPTH(768), .NB(9), .NR(2), .AW(12), .ZERO_RESET(1'b1)) u_mram (
        .clk, .rst_n, .re(busy ? mr_re : apb_r), .raddr(mra), .rdata(mr_rdata[16*q + i]),
        .we(lw && lproc == 4'(i)), .waddr(lword), .wdata(ldata), .wbe(9'h1FF)
      );
      logic [15:0] trd;
      wire tw = wcommit && is_mem && md.kind == M_TRAM && aq == 2'(q) && md.proc == 4'(i);
      wire tr = mem_re && md.kind == M_TRAM && aq == 2'(q) && md.proc == 4'(i);
      max78000_ram #(.DEPTH(3072), .NB(2), .ZERO_RESET(1'b1)) u_tram (
        .clk, .rst_n, .re(tr), .raddr(md.idx[11:0]), .rdata(trd), .we(tw), .waddr(md.idx[11:0]),
        .wdata(PWDATA[15:0]), .wbe(PSTRB[1:0])
      );
      assign tram_rdata[16*q + i] = trd;
    end
    wire bw = wcommit && is_mem && md.kind == M_BRAM && aq == 2'(q);
    wire br = mem_re && md.kind == M_BRAM && aq == 2'(q);
    max78000_ram #(.DEPTH(512), .NB(1), .ZERO_RESET(1'b1)) u_bram (
      .clk, .rst_n, .re(busy ? br_re : br), .raddr(busy ? br_addr[q] : md.idx[8:0]), .rdata(br_rdata[q]),
      .we(bw), .waddr(md.idx[8:0]), .wdata(PWDATA[7:0]), .wbe(PSTRB[0])
    );
    wire unused_lw = ^moff[31:18];
  end
  logic [15:0] tram_rdata [64];

  // ---------------- read data ----------------
  logic [71:0] mw;
  always_comb begin
    mw = mr_rdata[{aq, md.proc}][0];
    PRDATA = '0;
    if (access && !err_q && !PWRITE) begin
      if (glob_hit) PRDATA = glob_rdata;
      else if (ff_hit) PRDATA = ff_rdata;
      else if (quad_hit) PRDATA = quad_rdata[aq];
      else case (md.kind)
        M_DSRAM: PRDATA = dm_rdata[md.g];
        M_BRAM:  PRDATA = {24'd0, br_rdata[aq]};
        M_TRAM:  PRDATA = {16'd0, tram_rdata[{aq, md.proc}]};
        M_MRAM:  case (md.part)
                   2'd0: PRDATA = {24'd0, mw[71:64]};
                   2'd1: PRDATA = mw[63:32];
                   2'd2: PRDATA = mw[31:0];
                   default: PRDATA = '0;
                 endcase
        default: PRDATA = '0;
      endcase
    end
  end

  wire unused = ^{PPROT, md.q, aod_ctrl_q[31:2], qoff[31:24], dm_re};
endmodule
