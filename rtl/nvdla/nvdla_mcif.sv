// MCIF: DBB (AXI4 subset) arbiter of spec nvdla.md 3.2 with NRD read clients and NWR write clients.
// Single-beat 8-byte transfers (len 0). Client i uses AXI id RD_IDS/WR_IDS[i]; responses are routed back
// by rid[3:0] / bid[2:0]. Outstanding beats are limited to CFG_OUTSTANDING_CNT + 1 per direction.
// Adding a client: widen NRD/NWR, append its id and weight, connect its ports.
module nvdla_mcif #(
  parameter int NRD = 1,
  parameter int NWR = 1,
  parameter logic [NRD*8-1:0] RD_IDS = '0,
  parameter logic [NWR*8-1:0] WR_IDS = '0,
  parameter int RQ_DEPTH = 4,              // per-client read-return queue
  parameter int WQ_DEPTH = 4               // AW and W queues
) (
  input  logic                  clk,
  input  logic                  rst_n,
  // configuration (MCIF register file)
  input  logic [7:0]            rd_os_cnt,
  input  logic [7:0]            wr_os_cnt,
  input  logic [NRD*8-1:0]      rd_weight,
  input  logic [NWR*8-1:0]      wr_weight,
  // read clients
  input  logic [NRD-1:0]        rd_req_valid,
  output logic [NRD-1:0]        rd_req_ready,
  input  logic [NRD-1:0][31:0]  rd_req_addr,
  output logic [NRD-1:0]        rd_rsp_valid,
  input  logic [NRD-1:0]        rd_rsp_ready,
  output logic [NRD-1:0][63:0]  rd_rsp_data,
  // write clients
  input  logic [NWR-1:0]        wr_req_valid,
  output logic [NWR-1:0]        wr_req_ready,
  input  logic [NWR-1:0][31:0]  wr_req_addr,
  input  logic [NWR-1:0][63:0]  wr_req_data,
  output logic [NWR-1:0]        wr_ack,          // one pulse per B response
  // DBB
  output logic                  aw_awvalid,
  input  logic                  aw_awready,
  output logic [7:0]            aw_awid,
  output logic [3:0]            aw_awlen,
  output logic [31:0]           aw_awaddr,
  output logic                  w_wvalid,
  input  logic                  w_wready,
  output logic [63:0]           w_wdata,
  output logic [7:0]            w_wstrb,
  output logic                  w_wlast,
  input  logic                  b_bvalid,
  output logic                  b_bready,
  input  logic [7:0]            b_bid,
  output logic                  ar_arvalid,
  input  logic                  ar_arready,
  output logic [7:0]            ar_arid,
  output logic [3:0]            ar_arlen,
  output logic [31:0]           ar_araddr,
  input  logic                  r_rvalid,
  output logic                  r_rready,
  input  logic [7:0]            r_rid,
  input  logic [63:0]           r_rdata
);
  // ------------------------------------------------------------------ read request: WRR -> AR register
  logic [NRD-1:0] rgnt;
  logic [8:0]     rd_os;
  logic           rd_can, rd_fire;
  logic [31:0]    rsel_addr;
  logic [7:0]     rsel_id;

  assign rd_can       = (!ar_arvalid || ar_arready) && rd_os < {1'b0, rd_os_cnt} + 9'd1;
  assign rd_req_ready = rd_can ? rgnt : '0;
  assign rd_fire      = rd_can && |(rgnt & rd_req_valid);

  wrr_arbiter #(.N(NRD)) u_rarb (.clk, .rst_n, .req(rd_req_valid), .weight(rd_weight), .accept(rd_fire),
                                 .gnt(rgnt));

  always_comb begin
    rsel_addr = '0;
    rsel_id   = '0;
    for (int i = 0; i < NRD; i++) if (rgnt[i]) begin
      rsel_addr = rd_req_addr[i];
      rsel_id   = RD_IDS[i*8 +: 8];
    end
  end

  assign ar_arlen = 4'd0;
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) ar_arvalid <= 1'b0;
    else if (rd_fire) ar_arvalid <= 1'b1;
    else if (ar_arready) ar_arvalid <= 1'b0;
  end
  always_ff @(posedge clk) begin
    if (rd_fire) begin                       // only loaded when the slot is free: payload held stable
      ar_araddr <= rsel_addr;
      ar_arid   <= rsel_id;
    end
  end

  // ------------------------------------------------------------------ read return: route by rid[3:0]
  logic [NRD-1:0] rq_full, rq_empty;
  wire            r_fire = r_rvalid && r_rready;
  assign r_rready = ~|rq_full;              // drops while any client queue is full

  for (genvar i = 0; i < NRD; i++) begin : g_rq
    logic [$clog2(RQ_DEPTH+1)-1:0] cnt;
    sync_fifo #(.WIDTH(64), .DEPTH(RQ_DEPTH)) u_rq (
      .clk, .rst_n, .push(r_fire && r_rid[3:0] == RD_IDS[i*8 +: 4]), .wr_data(r_rdata),
      .pop(rd_rsp_ready[i]), .rd_data(rd_rsp_data[i]), .full(rq_full[i]), .empty(rq_empty[i]), .count(cnt));
    /* verilator lint_off UNUSED */
    wire unused_cnt = &{1'b0, cnt};
    /* verilator lint_on UNUSED */
  end
  assign rd_rsp_valid = ~rq_empty;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) rd_os <= '0;
    else if (rd_fire != r_fire) rd_os <= rd_fire ? rd_os + 1'b1 : rd_os - 1'b1;
  end

  // ------------------------------------------------------------------ write request: WRR -> AW + W queues
  logic [NWR-1:0] wgnt;
  logic [8:0]     wr_os;
  logic           awq_full, awq_empty, wq_full, wq_empty, wr_can, wr_fire;
  logic [31:0]    wsel_addr;
  logic [63:0]    wsel_data;
  logic [7:0]     wsel_id;

  assign wr_can       = !awq_full && !wq_full && wr_os < {1'b0, wr_os_cnt} + 9'd1;
  assign wr_req_ready = wr_can ? wgnt : '0;
  assign wr_fire      = wr_can && |(wgnt & wr_req_valid);

  wrr_arbiter #(.N(NWR)) u_warb (.clk, .rst_n, .req(wr_req_valid), .weight(wr_weight), .accept(wr_fire),
                                 .gnt(wgnt));

  always_comb begin
    wsel_addr = '0;
    wsel_data = '0;
    wsel_id   = '0;
    for (int i = 0; i < NWR; i++) if (wgnt[i]) begin
      wsel_addr = wr_req_addr[i];
      wsel_data = wr_req_data[i];
      wsel_id   = WR_IDS[i*8 +: 8];
    end
  end

  // AW and W of one request are queued together, then presented independently
  logic [$clog2(WQ_DEPTH+1)-1:0] awq_cnt, wq_cnt;
  sync_fifo #(.WIDTH(40), .DEPTH(WQ_DEPTH)) u_awq (
    .clk, .rst_n, .push(wr_fire), .wr_data({wsel_id, wsel_addr}), .pop(aw_awready),
    .rd_data({aw_awid, aw_awaddr}), .full(awq_full), .empty(awq_empty), .count(awq_cnt));
  sync_fifo #(.WIDTH(64), .DEPTH(WQ_DEPTH)) u_wq (
    .clk, .rst_n, .push(wr_fire), .wr_data(wsel_data), .pop(w_wready),
    .rd_data(w_wdata), .full(wq_full), .empty(wq_empty), .count(wq_cnt));
  assign aw_awvalid = !awq_empty;
  assign aw_awlen   = 4'd0;
  assign w_wvalid   = !wq_empty;
  assign w_wstrb    = 8'hFF;
  assign w_wlast    = 1'b1;

  // ------------------------------------------------------------------ write response: route by bid[2:0]
  wire b_fire = b_bvalid && b_bready;
  assign b_bready = 1'b1;                   // acks are counted by the clients, never back-pressured
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      wr_os  <= '0;
      wr_ack <= '0;
    end else begin
      if (wr_fire != b_fire) wr_os <= wr_fire ? wr_os + 1'b1 : wr_os - 1'b1;
      for (int i = 0; i < NWR; i++) wr_ack[i] <= b_fire && b_bid[2:0] == WR_IDS[i*8 +: 3];
    end
  end

  /* verilator lint_off UNUSED */
  wire unused = &{1'b0, awq_cnt, wq_cnt, r_rid[7:4], b_bid[7:3]};
  /* verilator lint_on UNUSED */
endmodule
