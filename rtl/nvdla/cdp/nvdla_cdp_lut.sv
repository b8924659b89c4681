// CDP LUT storage and its CSB access port (spec nvdla.md 4.4): LE = table 0 (65 entries), LO = table 1
// (257 entries), 16-bit. S_LUT_ACCESS_CFG sets the address; each DATA access (write with ACCESS_TYPE=1,
// read with ACCESS_TYPE=0) uses table[addr] and then increments addr, saturating at the last index.
// The address read back through S_LUT_ACCESS_CFG is the live one. The datapath reads entries idx and
// idx+1 of each table (interpolation needs both; beyond the last entry reads 0).
module nvdla_cdp_lut (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        cfg_wr,        // CSB write to S_LUT_ACCESS_CFG
  input  logic        data_wr,       // CSB write to S_LUT_ACCESS_DATA
  input  logic        data_rd,       // CSB read of S_LUT_ACCESS_DATA
  input  logic [15:0] wdat,          // req_wdat[15:0]
  input  logic        table_id,      // S_LUT_ACCESS_CFG.LUT_TABLE_ID (stored by the register file)
  input  logic        access_type,   // S_LUT_ACCESS_CFG.LUT_ACCESS_TYPE: 1 write, 0 read
  output logic [9:0]  lut_addr,      // live LUT_ADDR
  output logic [15:0] lut_rdata,     // table[lut_addr] for DATA reads
  // datapath read ports
  input  logic [6:0]  le_idx,
  output logic [15:0] le_data,
  output logic [15:0] le_data1,
  input  logic [8:0]  lo_idx,
  output logic [15:0] lo_data,
  output logic [15:0] lo_data1
);
  localparam int LE_N = 65, LO_N = 257;
  logic [LE_N-1:0][15:0] le;        // packed so that reset clears them in one assignment
  logic [LO_N-1:0][15:0] lo;

  wire [9:0] last   = table_id ? 10'(LO_N - 1) : 10'(LE_N - 1);
  wire       access = (data_wr && access_type) || (data_rd && !access_type);
  wire       in_rng = lut_addr <= last;

  assign lut_rdata = !in_rng ? 16'd0 : table_id ? lo[lut_addr[8:0]] : le[lut_addr[6:0]];
  assign le_data   = (le_idx < 7'(LE_N)) ? le[le_idx] : 16'd0;
  assign lo_data   = (lo_idx < 9'(LO_N)) ? lo[lo_idx] : 16'd0;
  wire [7:0] le_idx1 = {1'b0, le_idx} + 8'd1;
  wire [9:0] lo_idx1 = {1'b0, lo_idx} + 10'd1;
  assign le_data1  = (le_idx1 < 8'(LE_N)) ? le[le_idx1[6:0]] : 16'd0;
  assign lo_data1  = (lo_idx1 < 10'(LO_N)) ? lo[lo_idx1[8:0]] : 16'd0;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) lut_addr <= '0;
    else if (cfg_wr) lut_addr <= wdat[9:0];
    else if (access && lut_addr < last) lut_addr <= lut_addr + 1'b1;
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      le <= '0;
      lo <= '0;
    end else if (data_wr && access_type && in_rng) begin
      if (table_id) lo[lut_addr[8:0]] <= wdat[15:0];
      else          le[lut_addr[6:0]] <= wdat[15:0];
    end
  end
endmodule
