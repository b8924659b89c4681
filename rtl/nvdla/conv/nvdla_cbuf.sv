// CBUF: 32 banks of 512 x 8 bytes. The first DATA_BANK+1 banks hold the input (data entry e in bank e / 512),
// the next WEIGHT_BANK+1 the weights (weight entry e in bank DATA_BANK+1 + e / 512), as nv_small splits it
// (CDMA/CSC D_BANK). Two writers (CDMA's feature and weight fetch) and two readers (CSC's data and weight
// sides) use disjoint banks, so every bank needs one write and one read port; image reads take a second
// data entry (the next one) in the same cycle through a second read port.
module nvdla_cbuf
  import nvdla_conv_pkg::*;
(
  input  logic                clk,
  input  logic [4:0]          data_bank,      // D_BANK.DATA_BANK (banks - 1)
  input  logic                dwr_en,
  input  logic [CBUF_AW-1:0]  dwr_addr,
  input  logic [63:0]         dwr_data,
  input  logic                wwr_en,
  input  logic [CBUF_AW-1:0]  wwr_addr,
  input  logic [63:0]         wwr_data,
  input  logic                drd_en,
  input  logic [CBUF_AW-1:0]  drd_addr,
  output logic [63:0]         drd_data,       // the cycle after drd_en
  input  logic                drd2_en,        // the data entry after drd_addr (image reads)
  output logic [63:0]         drd2_data,
  input  logic                wrd_en,
  input  logic [CBUF_AW-1:0]  wrd_addr,
  output logic [63:0]         wrd_data        // the cycle after wrd_en
);
  wire [4:0] wbase = data_bank + 5'd1;
  wire [4:0] dw_bank = dwr_addr[13:9], dr_bank = drd_addr[13:9];
  wire [4:0] ww_bank = wwr_addr[13:9] + wbase, wr_bank = wrd_addr[13:9] + wbase;
  wire [CBUF_AW-1:0] drd2_addr = drd_addr + 1'b1;
  wire [4:0]   dr2_bank = drd2_addr[13:9];
  logic [4:0]  dr_bank_q, wr_bank_q, dr2_bank_q;
  logic [63:0] rd_data [CBUF_BANKS];
  logic [63:0] rd2_data [CBUF_BANKS];

  for (genvar b = 0; b < CBUF_BANKS; b++) begin : g_bank
    wire dw = dwr_en && dw_bank == 5'(b), ww = wwr_en && ww_bank == 5'(b);
    wire dr = drd_en && dr_bank == 5'(b), wr = wrd_en && wr_bank == 5'(b);
    nvdla_cbuf_bank u_bank (
      .clk, .wr_en(dw || ww), .wr_addr(dw ? dwr_addr[8:0] : wwr_addr[8:0]), .wr_data(dw ? dwr_data : wwr_data),
      .rd_en(dr || wr), .rd_addr(dr ? drd_addr[8:0] : wrd_addr[8:0]), .rd_data(rd_data[b]),
      .rd2_en(drd2_en && dr2_bank == 5'(b)), .rd2_addr(drd2_addr[8:0]), .rd2_data(rd2_data[b]));
  end

  always_ff @(posedge clk) begin
    if (drd_en) dr_bank_q <= dr_bank;
    if (wrd_en) wr_bank_q <= wr_bank;
    if (drd2_en) dr2_bank_q <= dr2_bank;
  end
  assign drd_data = rd_data[dr_bank_q];
  assign wrd_data = rd_data[wr_bank_q];
  assign drd2_data = rd2_data[dr2_bank_q];
endmodule
