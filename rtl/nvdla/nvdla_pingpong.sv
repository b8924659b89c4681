// Ping-pong register-group control of one NVDLA unit (spec nvdla.md 4.2), instantiated by every generated
// ping-pong register file. Holds PRODUCER, CONSUMER, op_en[2] and the per-group RO result copies; the
// D_ configuration storage itself lives in the generated register file.
module nvdla_pingpong #(
  parameter int RES_W = 1              // bits of the unit's per-group RO result fields
) (
  input  logic             clk,
  input  logic             rst_n,
  input  logic             ptr_wr,      // CSB write to S_POINTER
  input  logic             op_en_wr,    // CSB write to D_OP_ENABLE (protection applied here)
  input  logic             wdat0,       // req_wdat[0]
  output logic             producer,    // S_POINTER.PRODUCER: group that CSB D_ accesses use
  output logic             consumer,    // S_POINTER.CONSUMER: group the datapath runs
  output logic             d_wr_ok,     // D_ writes allowed: op_en[PRODUCER] = 0 (rule 2)
  output logic             op_en_prod,  // D_OP_ENABLE read value
  output logic [31:0]      s_status,    // S_STATUS (rule 7)
  output logic             dp_op_en,    // op_en[CONSUMER]
  input  logic             dp_done,     // layer completion (rule 6)
  input  logic [RES_W-1:0] dp_res,      // result values to capture at completion
  output logic [RES_W-1:0] res_prod     // PRODUCER group's captured results (rule 4)
);
  logic [1:0]       op_en;
  logic [RES_W-1:0] res_q [2];

  assign d_wr_ok    = ~op_en[producer];
  assign op_en_prod = op_en[producer];
  assign dp_op_en   = op_en[consumer];
  assign res_prod   = res_q[producer];

  // 0 idle, 1 running (enabled consumer), 2 pending (enabled, not consumer)
  function automatic logic [1:0] grp_state(input logic en, input logic is_consumer);
    return !en ? 2'd0 : (is_consumer ? 2'd1 : 2'd2);
  endfunction
  assign s_status = {14'd0, grp_state(op_en[1], consumer), 14'd0, grp_state(op_en[0], !consumer)};

  // an enable write lands only when the producer group is idle (write of 0 cannot cancel)
  wire enable = op_en_wr && !op_en[producer] && wdat0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      producer <= 1'b0;
      consumer <= 1'b0;
      op_en    <= 2'b00;
    end else begin
      if (ptr_wr) producer <= wdat0;
      if (enable) op_en[producer] <= 1'b1;
      if (dp_done && op_en[consumer]) begin
        op_en[consumer] <= 1'b0;   // producer != consumer here or the enable above was blocked
        consumer        <= ~consumer;
      end
    end
  end

  // per-group results: cleared when the group is enabled, loaded when it completes
  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      res_q[0] <= '0;
      res_q[1] <= '0;
    end else begin
      if (enable) res_q[producer] <= '0;
      if (dp_done && op_en[consumer]) res_q[consumer] <= dp_res;
    end
  end
endmodule
