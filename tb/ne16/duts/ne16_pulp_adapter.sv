// APB4-to-hwpe-ctrl adapter: PULP's NE16 (ne16_top_wrap, hwpe-ctrl v1.6 peripheral target, flat TCDM ports)
// behind the port list of our NE16 (spec ne16.md 1.1), so that tb_ne16.sv instantiates it unchanged.
// - Registers: hwpe-ctrl v1.6 reserves 8 generic registers at 0x20-0x3C, so our job registers 0x20-0x7C sit
//   at 0x40-0x9C upstream; 0x00-0x1C (TRIGGER ... SW_SYNC) keep their offsets. PADDR[31:8] is ignored (1.1).
// - Read data: hwpe-ctrl answers the cycle after the request (periph_r_data with r_valid), so the request is
//   issued in the APB SETUP cycle and its data is on PRDATA in the ACCESS cycle; PREADY stays 1 (D3). Writes
//   are issued in SETUP too: their side effects happen one edge earlier than ours, still before the next
//   transfer. hwpe-ctrl has no error response: PSLVERR is always 0.
// - Byte enables: APB4 drives PSTRB=0 on reads; the hwpe-ctrl register file masks read data with be, so reads
//   go out with be=1111.
// - The committing core: every request carries periph_id = core 0 (one-hot), so the job-done event of the
//   job is evt_o[0][0]. hwpe-ctrl registers that event from its done flag at the same edge where its busy_o
//   (is_working) falls, so the event comes in the first cycle without busy, and a queued job raises busy
//   again one cycle later. Our busy_o means "a job is executing, up to its completion cycle inclusive", with
//   at least one idle cycle between jobs (spec 1.4): hwpe-ctrl's busy delayed by one cycle is exactly that
//   (done in its last cycle, the gap kept). Memory traffic outside it is still the engine's and still checked. hwpe-ctrl's SW events stay inside its slave (not on ne16_top_wrap's ports): sw_evt_o=0.
// - TCDM: ne16_top_wrap already has 9 lock-stepped 32-bit HWPE-Mem ports (wen=1 read), wired straight through.
module ne16_pulp_adapter (
    input  logic             clk_i,
    input  logic             rst_ni,
    input  logic             psel_i,
    input  logic             penable_i,
    input  logic             pwrite_i,
    input  logic [31:0]      paddr_i,
    input  logic [31:0]      pwdata_i,
    input  logic [3:0]       pstrb_i,
    input  logic [2:0]       pprot_i,
    output logic             pready_o,
    output logic             pslverr_o,
    output logic [31:0]      prdata_o,
    output logic [8:0]       tcdm_req_o,
    input  logic [8:0]       tcdm_gnt_i,
    output logic [8:0][31:0] tcdm_add_o,
    output logic [8:0]       tcdm_wen_o,
    output logic [8:0][3:0]  tcdm_be_o,
    output logic [8:0][31:0] tcdm_data_o,
    input  logic [8:0][31:0] tcdm_r_data_i,
    input  logic [8:0]       tcdm_r_valid_i,
    output logic             evt_done_o,
    output logic             busy_o,
    output logic [7:0]       sw_evt_o
);
  localparam int unsigned NCORES = 9;   // ne16_package::NR_CORES
  localparam int unsigned NEVT = 2;     // hwpe_ctrl_package::REGFILE_N_EVT
  localparam int unsigned IDW = 16;     // ne16_package::ID_WIDTH

  logic                        periph_req, periph_gnt, periph_r_valid;
  logic [31:0]                 periph_add, periph_r_data;
  logic [3:0]                  periph_be;
  logic [IDW-1:0]              periph_r_id;
  logic [NCORES-1:0][NEVT-1:0] evt;
  logic [7:0]                  off;
  logic                        pulp_busy;

  assign off        = paddr_i[7:0];
  assign periph_req = psel_i & ~penable_i;
  assign periph_add = {23'd0, {1'b0, off} + (off >= 8'h20 ? 9'h20 : 9'h00)};
  assign periph_be  = pwrite_i ? pstrb_i : 4'b1111;

  ne16_top_wrap i_pulp (
      .clk_i,
      .rst_ni,
      .test_mode_i   (1'b0),
      .evt_o         (evt),
      .busy_o        (pulp_busy),
      .tcdm_req      (tcdm_req_o),
      .tcdm_gnt      (tcdm_gnt_i),
      .tcdm_add      (tcdm_add_o),
      .tcdm_wen      (tcdm_wen_o),
      .tcdm_be       (tcdm_be_o),
      .tcdm_data     (tcdm_data_o),
      .tcdm_r_data   (tcdm_r_data_i),
      .tcdm_r_valid  (tcdm_r_valid_i),
      .periph_req,
      .periph_gnt,
      .periph_add,
      .periph_wen    (~pwrite_i),
      .periph_be,
      .periph_data   (pwdata_i),
      .periph_id     (IDW'(1)),
      .periph_r_data,
      .periph_r_valid,
      .periph_r_id
  );

  assign pready_o   = 1'b1;
  assign pslverr_o  = 1'b0;
  assign prdata_o   = (psel_i & penable_i & ~pwrite_i) ? periph_r_data : 32'd0;
  assign evt_done_o = evt[0][0];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) busy_o <= 1'b0;
    else busy_o <= pulp_busy;
  end
  assign sw_evt_o   = 8'd0;

  logic unused;
  assign unused = ^{pprot_i, paddr_i[31:8], periph_gnt, periph_r_valid, periph_r_id, evt[NCORES-1:1], evt[0][1]};
endmodule
