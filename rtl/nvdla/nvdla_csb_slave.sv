// CSB slave (spec nvdla.md 3.1): accepts one request per cycle, decodes the 4 KiB unit window (word address
// bits [15:10]), presents the access to the selected unit register file for one cycle and returns read data
// and non-posted write completions in request order, three cycles after acceptance. A fixed-latency
// pipeline, so responses never collide. Holes: reads return 0, writes are dropped, completions still come.
module nvdla_csb_slave #(
  parameter int NUNIT = 15,
  parameter logic [NUNIT*6-1:0] WINS = '0      // unit i answers window WINS[i*6 +: 6]
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             csb_valid,
  output logic             csb_ready,
  input  logic [15:0]      csb_addr,          // word address
  input  logic [31:0]      csb_wdat,
  input  logic             csb_write,
  input  logic             csb_nposted,
  output logic             rsp_valid,         // nvdla2csb_valid
  output logic [31:0]      rsp_data,
  output logic             rsp_wr_complete,
  // to the unit register files
  output logic [NUNIT-1:0] req_vld,           // one-hot access strobe
  output logic             req_wr,
  output logic [9:0]       req_woff,
  output logic [31:0]      req_wdat,
  input  logic [31:0]      unit_rdata [NUNIT] // registered read data, valid one cycle after req_vld
);
  logic             a_vld, a_np, b_vld, b_wr, b_np;
  logic [NUNIT-1:0] a_sel, b_sel, sel;

  always_comb begin
    for (int i = 0; i < NUNIT; i++) sel[i] = csb_addr[15:10] == WINS[i*6 +: 6];
  end

  wire accept = csb_valid && csb_ready;

  // ready: high from the first cycle after reset (spec allows it to drop; we never need to)
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) csb_ready <= 1'b0;
    else        csb_ready <= 1'b1;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      a_vld <= 1'b0;
      b_vld <= 1'b0;
      b_wr  <= 1'b0;
      b_np  <= 1'b0;
      b_sel <= '0;
      req_wr <= 1'b0;
      rsp_valid <= 1'b0;
      rsp_wr_complete <= 1'b0;
    end else begin
      a_vld <= accept;
      b_vld <= a_vld;
      b_wr  <= req_wr;
      b_np  <= a_np;
      b_sel <= a_sel;
      if (accept) req_wr <= csb_write;
      rsp_valid       <= b_vld && !b_wr;
      rsp_wr_complete <= b_vld && b_wr && b_np;
    end
  end

  always_ff @(posedge clk) begin
    if (accept) begin
      a_sel    <= sel;
      a_np     <= csb_nposted;
      req_woff <= csb_addr[9:0];
      req_wdat <= csb_wdat;
    end
  end
  assign req_vld = a_vld ? a_sel : '0;

  // response data: only the selected unit (none for a hole) contributes
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) rsp_data <= '0;
    else if (b_vld && !b_wr) begin
      rsp_data <= '0;
      for (int i = 0; i < NUNIT; i++) if (b_sel[i]) rsp_data <= unit_rdata[i];
    end
  end
endmodule
