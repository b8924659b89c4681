// NVDLA (nv_small + BDMA) top level. Ports exactly as upstream nv_small NV_nvdla (spec nvdla.md 2).
// Single clock: dla_csb_clk is the same clock as dla_core_clk (spec DECISION), so everything runs on
// dla_core_clk. Structure: CSB slave -> 15 generated register files; GLB interrupt logic; BDMA; MCIF.
// Datapath hook per ping-pong unit: <unit>_op_en / _grp / _cfg (consumer group) out, _done / _res in.
// The convolution units (CDMA, CSC, CMAC_A, CMAC_B, CACC) share one engine (conv/nvdla_conv.sv) and complete
// together.
module NV_nvdla
  import nvdla_regs_pkg::*;
(
  input  logic        dla_core_clk,
  input  logic        dla_csb_clk,
  input  logic        global_clk_ovr_on,
  input  logic        tmc2slcg_disable_clock_gating,
  input  logic        dla_reset_rstn,
  input  logic        direct_reset_,
  input  logic        test_mode,
  input  logic        csb2nvdla_valid,
  output logic        csb2nvdla_ready,
  input  logic [15:0] csb2nvdla_addr,
  input  logic [31:0] csb2nvdla_wdat,
  input  logic        csb2nvdla_write,
  input  logic        csb2nvdla_nposted,
  output logic        nvdla2csb_valid,
  output logic [31:0] nvdla2csb_data,
  output logic        nvdla2csb_wr_complete,
  output logic        nvdla_core2dbb_aw_awvalid,
  input  logic        nvdla_core2dbb_aw_awready,
  output logic [7:0]  nvdla_core2dbb_aw_awid,
  output logic [3:0]  nvdla_core2dbb_aw_awlen,
  output logic [31:0] nvdla_core2dbb_aw_awaddr,
  output logic        nvdla_core2dbb_w_wvalid,
  input  logic        nvdla_core2dbb_w_wready,
  output logic [63:0] nvdla_core2dbb_w_wdata,
  output logic [7:0]  nvdla_core2dbb_w_wstrb,
  output logic        nvdla_core2dbb_w_wlast,
  input  logic        nvdla_core2dbb_b_bvalid,
  output logic        nvdla_core2dbb_b_bready,
  input  logic [7:0]  nvdla_core2dbb_b_bid,
  output logic        nvdla_core2dbb_ar_arvalid,
  input  logic        nvdla_core2dbb_ar_arready,
  output logic [7:0]  nvdla_core2dbb_ar_arid,
  output logic [3:0]  nvdla_core2dbb_ar_arlen,
  output logic [31:0] nvdla_core2dbb_ar_araddr,
  input  logic        nvdla_core2dbb_r_rvalid,
  output logic        nvdla_core2dbb_r_rready,
  input  logic [7:0]  nvdla_core2dbb_r_rid,
  input  logic        nvdla_core2dbb_r_rlast,
  input  logic [63:0] nvdla_core2dbb_r_rdata,
  output logic        dla_intr,
  input  logic [31:0] nvdla_pwrbus_ram_c_pd,
  input  logic [31:0] nvdla_pwrbus_ram_ma_pd,
  input  logic [31:0] nvdla_pwrbus_ram_mb_pd,
  input  logic [31:0] nvdla_pwrbus_ram_p_pd,
  input  logic [31:0] nvdla_pwrbus_ram_o_pd,
  input  logic [31:0] nvdla_pwrbus_ram_a_pd
);
  wire clk   = dla_core_clk;
  wire rst_n = dla_reset_rstn;    // the bench drives direct_reset_ together with it (test_mode = 0)

  // ------------------------------------------------------------------------------------------ CSB
  localparam int NUNIT = 15;
  localparam int U_CFGROM = 0, U_GLB = 1, U_MCIF = 2, U_CDMA = 3, U_CSC = 4, U_CMAC_A = 5, U_CMAC_B = 6,
                 U_CACC = 7, U_SDP_RDMA = 8, U_SDP = 9, U_PDP_RDMA = 10, U_PDP = 11, U_CDP_RDMA = 12,
                 U_CDP = 13, U_BDMA = 14;
  localparam logic [NUNIT*6-1:0] WINS = {WIN_BDMA, WIN_CDP, WIN_CDP_RDMA, WIN_PDP, WIN_PDP_RDMA, WIN_SDP,
                                         WIN_SDP_RDMA, WIN_CACC, WIN_CMAC_B, WIN_CMAC_A, WIN_CSC, WIN_CDMA,
                                         WIN_MCIF, WIN_GLB, WIN_CFGROM};

  logic [NUNIT-1:0] req_vld;
  logic             req_wr;
  logic [9:0]       req_woff;
  logic [31:0]      req_wdat;
  logic [31:0]      rdata [NUNIT];

  nvdla_csb_slave #(.NUNIT(NUNIT), .WINS(WINS)) u_csb (
    .clk, .rst_n,
    .csb_valid(csb2nvdla_valid), .csb_ready(csb2nvdla_ready), .csb_addr(csb2nvdla_addr),
    .csb_wdat(csb2nvdla_wdat), .csb_write(csb2nvdla_write), .csb_nposted(csb2nvdla_nposted),
    .rsp_valid(nvdla2csb_valid), .rsp_data(nvdla2csb_data), .rsp_wr_complete(nvdla2csb_wr_complete),
    .req_vld, .req_wr, .req_woff, .req_wdat, .unit_rdata(rdata));

  // ------------------------------------------------------------------------------------------ CFGROM, GLB
  nvdla_cfgrom_regfile u_cfgrom (.clk, .rst_n, .req_vld(req_vld[U_CFGROM]), .req_wr, .req_woff, .req_wdat,
                                 .rd_data(rdata[U_CFGROM]));

  glb_s_t      glb_cfg;
  logic [31:0] intr_status, intr_mask, intr_set;
  logic        intr_set_wr;
  logic [21:0] intr_done;          // done pulses in GLB bit positions

  nvdla_glb_regfile u_glb (.clk, .rst_n, .req_vld(req_vld[U_GLB]), .req_wr, .req_woff, .req_wdat,
                           .rd_data(rdata[U_GLB]), .s_cfg(glb_cfg), .s_intr_status_0_set(intr_set),
                           .s_intr_status_0_q(intr_status), .s_intr_mask_0_q(intr_mask),
                           .s_intr_set_0_wr(intr_set_wr));
  nvdla_glb_intr u_glb_intr (.clk, .rst_n, .done(intr_done), .set_wr(intr_set_wr), .wdat(req_wdat),
                             .status_q(intr_status), .mask_q(intr_mask), .status_set(intr_set), .dla_intr);

  // ------------------------------------------------------------------------------------------ MCIF regs
  mcif_s_t mcif_cfg;
  nvdla_mcif_regfile u_mcif_regs (.clk, .rst_n, .req_vld(req_vld[U_MCIF]), .req_wr, .req_woff, .req_wdat,
                                  .rd_data(rdata[U_MCIF]), .s_cfg(mcif_cfg), .s_hw('{idle: 1'b1}));

  // ------------------------------------------------------------------------------------------ ping-pong units
  // CDMA
  cdma_s_t   cdma_s;
  cdma_d_t   cdma_cfg;
  cdma_res_t cdma_res;
  logic      cdma_op_en, cdma_grp, cdma_done, cdma_flush_done;
  logic      conv_done;
  nvdla_cdma_flush u_cdma_flush (.clk, .rst_n, .flush_done(cdma_flush_done));
  nvdla_cdma_regfile u_cdma (.clk, .rst_n, .req_vld(req_vld[U_CDMA]), .req_wr, .req_woff, .req_wdat,
                             .rd_data(rdata[U_CDMA]), .s_cfg(cdma_s), .s_hw('{flush_done: cdma_flush_done}),
                             .dp_cfg(cdma_cfg), .dp_op_en(cdma_op_en), .dp_group(cdma_grp),
                             .dp_done(cdma_done), .dp_res(cdma_res));
  assign cdma_done = conv_done;
  assign cdma_res  = '0;             // NaN/Inf counts (INT8: none) and the optional perf counters

  // CSC, CMAC_A, CMAC_B (no per-group results)
  csc_d_t    csc_cfg;
  cmac_a_d_t cmac_a_cfg;
  cmac_b_d_t cmac_b_cfg;
  logic      csc_op_en, csc_grp, cmac_a_op_en, cmac_a_grp, cmac_b_op_en, cmac_b_grp;
  nvdla_csc_regfile u_csc (.clk, .rst_n, .req_vld(req_vld[U_CSC]), .req_wr, .req_woff, .req_wdat,
                           .rd_data(rdata[U_CSC]), .dp_cfg(csc_cfg), .dp_op_en(csc_op_en), .dp_group(csc_grp),
                           .dp_done(conv_done));
  nvdla_cmac_a_regfile u_cmac_a (.clk, .rst_n, .req_vld(req_vld[U_CMAC_A]), .req_wr, .req_woff, .req_wdat,
                                 .rd_data(rdata[U_CMAC_A]), .dp_cfg(cmac_a_cfg), .dp_op_en(cmac_a_op_en),
                                 .dp_group(cmac_a_grp), .dp_done(conv_done));
  nvdla_cmac_b_regfile u_cmac_b (.clk, .rst_n, .req_vld(req_vld[U_CMAC_B]), .req_wr, .req_woff, .req_wdat,
                                 .rd_data(rdata[U_CMAC_B]), .dp_cfg(cmac_b_cfg), .dp_op_en(cmac_b_op_en),
                                 .dp_group(cmac_b_grp), .dp_done(conv_done));

  // CACC
  cacc_d_t   cacc_cfg;
  cacc_res_t cacc_res;
  logic      cacc_op_en, cacc_grp, cacc_done;
  nvdla_cacc_regfile u_cacc (.clk, .rst_n, .req_vld(req_vld[U_CACC]), .req_wr, .req_woff, .req_wdat,
                             .rd_data(rdata[U_CACC]), .dp_cfg(cacc_cfg), .dp_op_en(cacc_op_en),
                             .dp_group(cacc_grp), .dp_done(cacc_done), .dp_res(cacc_res));
  assign cacc_done = conv_done;

  // SDP_RDMA, SDP
  sdp_rdma_d_t   sdp_rdma_cfg;
  sdp_rdma_res_t sdp_rdma_res;
  logic          sdp_rdma_op_en, sdp_rdma_grp, sdp_rdma_done;
  nvdla_sdp_rdma_regfile u_sdp_rdma (.clk, .rst_n, .req_vld(req_vld[U_SDP_RDMA]), .req_wr, .req_woff,
                                     .req_wdat, .rd_data(rdata[U_SDP_RDMA]), .dp_cfg(sdp_rdma_cfg),
                                     .dp_op_en(sdp_rdma_op_en), .dp_group(sdp_rdma_grp),
                                     .dp_done(sdp_rdma_done), .dp_res(sdp_rdma_res));
  assign sdp_rdma_res  = '0;

  sdp_s_t   sdp_s;
  sdp_d_t   sdp_cfg;
  sdp_res_t sdp_res;
  logic     sdp_op_en, sdp_grp, sdp_done;
  nvdla_sdp_regfile u_sdp (.clk, .rst_n, .req_vld(req_vld[U_SDP]), .req_wr, .req_woff, .req_wdat,
                           .rd_data(rdata[U_SDP]), .s_cfg(sdp_s), .dp_cfg(sdp_cfg), .dp_op_en(sdp_op_en),
                           .dp_group(sdp_grp), .dp_done(sdp_done), .dp_res(sdp_res));

  // PDP_RDMA, PDP
  pdp_rdma_d_t   pdp_rdma_cfg;
  pdp_rdma_res_t pdp_rdma_res;
  logic          pdp_rdma_op_en, pdp_rdma_grp, pdp_rdma_done;
  nvdla_pdp_rdma_regfile u_pdp_rdma (.clk, .rst_n, .req_vld(req_vld[U_PDP_RDMA]), .req_wr, .req_woff,
                                     .req_wdat, .rd_data(rdata[U_PDP_RDMA]), .dp_cfg(pdp_rdma_cfg),
                                     .dp_op_en(pdp_rdma_op_en), .dp_group(pdp_rdma_grp),
                                     .dp_done(pdp_rdma_done), .dp_res(pdp_rdma_res));
  assign pdp_rdma_res  = '0;

  pdp_d_t   pdp_cfg;
  pdp_res_t pdp_res;
  logic     pdp_op_en, pdp_grp, pdp_done;
  nvdla_pdp_regfile u_pdp (.clk, .rst_n, .req_vld(req_vld[U_PDP]), .req_wr, .req_woff, .req_wdat,
                           .rd_data(rdata[U_PDP]), .dp_cfg(pdp_cfg), .dp_op_en(pdp_op_en), .dp_group(pdp_grp),
                           .dp_done(pdp_done), .dp_res(pdp_res));

  // CDP_RDMA, CDP (+ LUT)
  cdp_rdma_d_t   cdp_rdma_cfg;
  cdp_rdma_res_t cdp_rdma_res;
  logic          cdp_rdma_op_en, cdp_rdma_grp, cdp_rdma_done;
  nvdla_cdp_rdma_regfile u_cdp_rdma (.clk, .rst_n, .req_vld(req_vld[U_CDP_RDMA]), .req_wr, .req_woff,
                                     .req_wdat, .rd_data(rdata[U_CDP_RDMA]), .dp_cfg(cdp_rdma_cfg),
                                     .dp_op_en(cdp_rdma_op_en), .dp_group(cdp_rdma_grp),
                                     .dp_done(cdp_rdma_done), .dp_res(cdp_rdma_res));
  assign cdp_rdma_res  = '0;

  cdp_s_t      cdp_s;
  cdp_d_t      cdp_cfg;
  cdp_res_t    cdp_res;
  logic        cdp_op_en, cdp_grp, cdp_done;
  logic        lut_cfg_wr, lut_data_wr, lut_data_rd;
  logic [9:0]  lut_addr;
  logic [15:0] lut_rdata, cdp_le_d0, cdp_le_d1, cdp_lo_d0, cdp_lo_d1;
  logic [6:0]  cdp_le_idx;
  logic [8:0]  cdp_lo_idx;
  nvdla_cdp_regfile u_cdp (.clk, .rst_n, .req_vld(req_vld[U_CDP]), .req_wr, .req_woff, .req_wdat,
                           .rd_data(rdata[U_CDP]), .s_cfg(cdp_s), .dp_cfg(cdp_cfg), .dp_op_en(cdp_op_en),
                           .dp_group(cdp_grp), .dp_done(cdp_done), .dp_res(cdp_res),
                           .s_lut_access_cfg_0_wr(lut_cfg_wr), .s_lut_access_data_0_wr(lut_data_wr),
                           .s_lut_access_data_0_rd(lut_data_rd), .ext_s_lut_access_cfg_0_lut_addr(lut_addr),
                           .ext_s_lut_access_data_0_lut_data(lut_rdata));
  nvdla_cdp_lut u_cdp_lut (.clk, .rst_n, .cfg_wr(lut_cfg_wr), .data_wr(lut_data_wr), .data_rd(lut_data_rd),
                           .wdat(req_wdat[15:0]), .table_id(cdp_s.lut_table_id), .access_type(cdp_s.lut_access_type),
                           .lut_addr, .lut_rdata, .le_idx(cdp_le_idx), .le_data(cdp_le_d0), .le_data1(cdp_le_d1),
                           .lo_idx(cdp_lo_idx), .lo_data(cdp_lo_d0), .lo_data1(cdp_lo_d1));

  // ------------------------------------------------------------------------------------------ BDMA
  bdma_s_t     bdma_s;
  bdma_hw_t    bdma_hw;
  logic        bdma_op_wr, bdma_launch0_wr, bdma_launch1_wr;
  logic [1:0]  bdma_done;
  nvdla_bdma_regfile u_bdma_regs (.clk, .rst_n, .req_vld(req_vld[U_BDMA]), .req_wr, .req_woff, .req_wdat,
                                  .rd_data(rdata[U_BDMA]), .s_cfg(bdma_s), .s_hw(bdma_hw),
                                  .cfg_op_0_wr(bdma_op_wr), .cfg_launch0_0_wr(bdma_launch0_wr),
                                  .cfg_launch1_0_wr(bdma_launch1_wr));

  // ------------------------------------------------------------------------------------------ MCIF
  // read clients: [0] BDMA (id 0), [1] SDP MRDMA (1), [2] SDP BRDMA (SDP_B, 5), [3] SDP NRDMA (SDP_N, 6),
  //               [4] PDP_RDMA (2), [5] CDP_RDMA (3), [6] CDMA_DAT (8), [7] CDMA_WT (9)
  // write clients: [0] BDMA (id 0), [1] SDP (1), [2] PDP (2), [3] CDP (3)
  localparam int NRD = 8, NWR = 4;
  logic [NRD-1:0]       rd_req_valid, rd_req_ready, rd_rsp_valid, rd_rsp_ready;
  logic [NRD-1:0][31:0] rd_req_addr;
  logic [NRD-1:0][63:0] rd_rsp_data;
  logic [NWR-1:0]       wr_req_valid, wr_req_ready, wr_ack;
  logic [NWR-1:0][31:0] wr_req_addr;
  logic [NWR-1:0][63:0] wr_req_data;

  nvdla_bdma u_bdma (
    .clk, .rst_n, .cfg(bdma_s), .op_wr(bdma_op_wr), .launch0_wr(bdma_launch0_wr),
    .launch1_wr(bdma_launch1_wr), .wdat0(req_wdat[0]), .hw(bdma_hw), .done(bdma_done),
    .rd_req_valid(rd_req_valid[0]), .rd_req_ready(rd_req_ready[0]), .rd_req_addr(rd_req_addr[0]),
    .rd_rsp_valid(rd_rsp_valid[0]), .rd_rsp_ready(rd_rsp_ready[0]), .rd_rsp_data(rd_rsp_data[0]),
    .wr_req_valid(wr_req_valid[0]), .wr_req_ready(wr_req_ready[0]), .wr_req_addr(wr_req_addr[0]),
    .wr_req_data(wr_req_data[0]), .wr_ack(wr_ack[0]));

  // Convolution: CDMA -> CBUF -> CSC -> CMAC -> CACC, into SDP on the fly
  logic        conv_fly_valid, conv_fly_ready, conv_fly_last, conv_dat_done, conv_wt_done, conv_cacc_done;
  logic [31:0] conv_fly_data;
  nvdla_conv u_conv (
    .clk, .rst_n, .cdma(cdma_cfg), .csc(csc_cfg), .cacc(cacc_cfg),
    .op_en(cdma_op_en && csc_op_en && cmac_a_op_en && cmac_b_op_en && cacc_op_en),
    .done(conv_done), .dat_done(conv_dat_done), .wt_done(conv_wt_done), .cacc_done(conv_cacc_done),
    .sat_count(cacc_res.sat_count), .fly_valid(conv_fly_valid), .fly_data(conv_fly_data), .fly_ready(conv_fly_ready),
    .fly_last(conv_fly_last),
    .rd_req_valid(rd_req_valid[7:6]), .rd_req_ready(rd_req_ready[7:6]), .rd_req_addr(rd_req_addr[7:6]),
    .rd_rsp_valid(rd_rsp_valid[7:6]), .rd_rsp_ready(rd_rsp_ready[7:6]), .rd_rsp_data(rd_rsp_data[7:6]));

  // SDP: memory input or CACC's stream on the fly; output to memory or on the fly to PDP
  logic sdp_pdp_valid, sdp_pdp_ready;
  logic [63:0] sdp_pdp_data;
  nvdla_sdp u_sdp_dp (
    .clk, .rst_n, .cfg(sdp_cfg), .rcfg(sdp_rdma_cfg), .op_en(sdp_op_en), .rdma_op_en(sdp_rdma_op_en),
    .done(sdp_done), .rdma_done(sdp_rdma_done), .res(sdp_res),
    .fly_valid(conv_fly_valid), .fly_data(conv_fly_data), .fly_ready(conv_fly_ready),
    .pdp_valid(sdp_pdp_valid), .pdp_ready(sdp_pdp_ready), .pdp_data(sdp_pdp_data),
    .rd_req_valid(rd_req_valid[3:1]), .rd_req_ready(rd_req_ready[3:1]), .rd_req_addr(rd_req_addr[3:1]),
    .rd_rsp_valid(rd_rsp_valid[3:1]), .rd_rsp_ready(rd_rsp_ready[3:1]), .rd_rsp_data(rd_rsp_data[3:1]),
    .wr_req_valid(wr_req_valid[1]), .wr_req_ready(wr_req_ready[1]), .wr_req_addr(wr_req_addr[1]),
    .wr_req_data(wr_req_data[1]), .wr_ack(wr_ack[1]));

  // PDP (+PDP_RDMA): memory input, or the SDP stream on the fly
  nvdla_pdp u_pdp_dp (
    .clk, .rst_n, .cfg(pdp_cfg), .rcfg(pdp_rdma_cfg), .op_en(pdp_op_en), .rdma_op_en(pdp_rdma_op_en),
    .done(pdp_done), .rdma_done(pdp_rdma_done), .res(pdp_res),
    .fly_valid(sdp_pdp_valid), .fly_ready(sdp_pdp_ready), .fly_data(sdp_pdp_data),
    .rd_req_valid(rd_req_valid[4]), .rd_req_ready(rd_req_ready[4]), .rd_req_addr(rd_req_addr[4]),
    .rd_rsp_valid(rd_rsp_valid[4]), .rd_rsp_ready(rd_rsp_ready[4]), .rd_rsp_data(rd_rsp_data[4]),
    .wr_req_valid(wr_req_valid[2]), .wr_req_ready(wr_req_ready[2]), .wr_req_addr(wr_req_addr[2]),
    .wr_req_data(wr_req_data[2]), .wr_ack(wr_ack[2]));

  // CDP (+CDP_RDMA, LUT)
  nvdla_cdp u_cdp_dp (
    .clk, .rst_n, .cfg(cdp_cfg), .scfg(cdp_s), .rcfg(cdp_rdma_cfg), .op_en(cdp_op_en),
    .rdma_op_en(cdp_rdma_op_en), .done(cdp_done), .rdma_done(cdp_rdma_done), .res(cdp_res),
    .le_idx(cdp_le_idx), .le_d0(cdp_le_d0), .le_d1(cdp_le_d1), .lo_idx(cdp_lo_idx), .lo_d0(cdp_lo_d0),
    .lo_d1(cdp_lo_d1),
    .rd_req_valid(rd_req_valid[5]), .rd_req_ready(rd_req_ready[5]), .rd_req_addr(rd_req_addr[5]),
    .rd_rsp_valid(rd_rsp_valid[5]), .rd_rsp_ready(rd_rsp_ready[5]), .rd_rsp_data(rd_rsp_data[5]),
    .wr_req_valid(wr_req_valid[3]), .wr_req_ready(wr_req_ready[3]), .wr_req_addr(wr_req_addr[3]),
    .wr_req_data(wr_req_data[3]), .wr_ack(wr_ack[3]));

  nvdla_mcif #(.NRD(NRD), .NWR(NWR), .RD_IDS({8'd9, 8'd8, 8'd3, 8'd2, 8'd6, 8'd5, 8'd1, 8'd0}),
               .WR_IDS({8'd3, 8'd2, 8'd1, 8'd0})) u_mcif (
    .clk, .rst_n,
    .rd_os_cnt(mcif_cfg.rd_os_cnt), .wr_os_cnt(mcif_cfg.wr_os_cnt),
    .rd_weight({mcif_cfg.rd_weight_cdma_wt, mcif_cfg.rd_weight_cdma_dat, mcif_cfg.rd_weight_cdp, mcif_cfg.rd_weight_pdp, mcif_cfg.rd_weight_sdp_n, mcif_cfg.rd_weight_sdp_b,
                mcif_cfg.rd_weight_sdp, mcif_cfg.rd_weight_bdma}),
    .wr_weight({mcif_cfg.wr_weight_cdp, mcif_cfg.wr_weight_pdp, mcif_cfg.wr_weight_sdp, mcif_cfg.wr_weight_bdma}),
    .rd_req_valid, .rd_req_ready, .rd_req_addr, .rd_rsp_valid, .rd_rsp_ready, .rd_rsp_data,
    .wr_req_valid, .wr_req_ready, .wr_req_addr, .wr_req_data, .wr_ack,
    .aw_awvalid(nvdla_core2dbb_aw_awvalid), .aw_awready(nvdla_core2dbb_aw_awready),
    .aw_awid(nvdla_core2dbb_aw_awid), .aw_awlen(nvdla_core2dbb_aw_awlen), .aw_awaddr(nvdla_core2dbb_aw_awaddr),
    .w_wvalid(nvdla_core2dbb_w_wvalid), .w_wready(nvdla_core2dbb_w_wready), .w_wdata(nvdla_core2dbb_w_wdata),
    .w_wstrb(nvdla_core2dbb_w_wstrb), .w_wlast(nvdla_core2dbb_w_wlast),
    .b_bvalid(nvdla_core2dbb_b_bvalid), .b_bready(nvdla_core2dbb_b_bready), .b_bid(nvdla_core2dbb_b_bid),
    .ar_arvalid(nvdla_core2dbb_ar_arvalid), .ar_arready(nvdla_core2dbb_ar_arready),
    .ar_arid(nvdla_core2dbb_ar_arid), .ar_arlen(nvdla_core2dbb_ar_arlen), .ar_araddr(nvdla_core2dbb_ar_araddr),
    .r_rvalid(nvdla_core2dbb_r_rvalid), .r_rready(nvdla_core2dbb_r_rready), .r_rid(nvdla_core2dbb_r_rid),
    .r_rdata(nvdla_core2dbb_r_rdata));

  // ------------------------------------------------------------------------------------------ interrupts
  //                SDP 0/1   CDP 2/3   PDP 4/5   BDMA 6/7   RUBIK 8/9  CDMA_DAT 16/17 CDMA_WT 18/19 CACC 20/21
  wire [1:0] sdp_intr = {sdp_done && sdp_grp, sdp_done && !sdp_grp};
  wire [1:0] pdp_intr = {pdp_done && pdp_grp, pdp_done && !pdp_grp};
  wire [1:0] cdp_intr = {cdp_done && cdp_grp, cdp_done && !cdp_grp};
  wire [1:0] dat_intr  = {conv_dat_done && cdma_grp, conv_dat_done && !cdma_grp};
  wire [1:0] wt_intr   = {conv_wt_done && cdma_grp, conv_wt_done && !cdma_grp};
  wire [1:0] cacc_intr = {conv_cacc_done && cacc_grp, conv_cacc_done && !cacc_grp};
  assign intr_done = {cacc_intr, wt_intr, dat_intr, 6'd0, 2'b00, bdma_done, pdp_intr, cdp_intr, sdp_intr};

  // ------------------------------------------------------------------------------------------ unused
  // Ignored inputs (spec 2) and datapath hooks that no engine consumes yet.
  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, dla_csb_clk, global_clk_ovr_on, tmc2slcg_disable_clock_gating, direct_reset_,
                  test_mode, nvdla_core2dbb_r_rlast, nvdla_pwrbus_ram_c_pd, nvdla_pwrbus_ram_ma_pd,
                  nvdla_pwrbus_ram_mb_pd, nvdla_pwrbus_ram_p_pd, nvdla_pwrbus_ram_o_pd, nvdla_pwrbus_ram_a_pd,
                  glb_cfg, mcif_cfg, cdma_s, csc_grp, cmac_a_cfg, cmac_a_grp, cmac_b_cfg, cmac_b_grp,
                  sdp_rdma_grp, sdp_s, pdp_rdma_grp, cdp_rdma_grp, conv_fly_last};
  /* verilator lint_on UNUSED */
endmodule
