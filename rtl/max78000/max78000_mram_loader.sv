// max78000_mram_loader: APB write side of one quadrant's MRAM (spec 3.3).
// Non-express (D29): +0x0/+0x4/+0x8 fill a 72-bit staging register, +0xC commits it to W[proc][word].
// Express (D30, CTRL.mexpress=1): a write with PADDR[1:0]!=0 sets processor/start word; each later
// write appends its strobed bytes (PWDATA[31:24] first) from slot 8 down; the 9th byte commits the word.
module max78000_mram_loader (
  input  logic        clk,
  input  logic        rst_n,
  input  logic        wr,          // one APB write to this quadrant's MRAM window (valid address)
  input  logic [17:0] off,         // PADDR - (QB + 0x8_0000): proc = off[17:14], t = off[13:0]
  input  logic [31:0] wdata,
  input  logic [3:0]  wstrb,
  input  logic        mexpress,
  output logic        we,          // commit one 72-bit word
  output logic [3:0]  we_proc,
  output logic [11:0] we_word,     // dropped by the RAM when >= 768
  output logic [71:0] we_data
);
  logic [71:0] stage;                       // non-express staging register
  logic        xv;                          // express address valid
  logic [3:0]  xproc;
  logic [11:0] xword;
  logic [3:0]  xn;                          // bytes assembled 0..8
  logic [71:0] xbuf;

  // Express assembly of one write: at most one word completes (4 bytes < 9).
  logic [71:0] nbuf;
  logic [3:0]  nn;
  logic        ndone;
  logic [71:0] ndata;
  always_comb begin
    nbuf  = xbuf;
    nn    = xn;
    ndone = 1'b0;
    ndata = '0;
    for (int b = 3; b >= 0; b--) begin
      if (wstrb[b]) begin
        nbuf[8*(8 - 32'(nn)) +: 8] = wdata[8*b +: 8];
        if (nn == 4'd8) begin
          ndone = 1'b1;
          ndata = nbuf;
          nn    = 4'd0;
        end else begin
          nn = nn + 4'd1;
        end
      end
    end
  end

  wire setaddr = wr && mexpress && off[1:0] != 2'b00;
  wire xdata   = wr && mexpress && off[1:0] == 2'b00 && xv;

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      stage <= '0; xv <= 1'b0; xproc <= '0; xword <= '0; xn <= '0; xbuf <= '0;
    end else begin
      if (setaddr) begin
        xv <= 1'b1; xproc <= off[17:14]; xword <= off[13:2]; xn <= '0;
      end else if (xdata) begin
        xbuf <= nbuf;
        xn   <= nn;
        if (ndone) xword <= xword + 12'd1;
      end
      if (wr && !mexpress) begin
        case (off[3:2])
          2'd0: if (wstrb[0]) stage[71:64] <= wdata[7:0];
          2'd1: for (int b = 0; b < 4; b++) if (wstrb[b]) stage[32 + 8*b +: 8] <= wdata[8*b +: 8];
          2'd2: for (int b = 0; b < 4; b++) if (wstrb[b]) stage[8*b +: 8] <= wdata[8*b +: 8];
          default: ;
        endcase
      end
    end
  end

  always_comb begin
    we = 1'b0; we_proc = off[17:14]; we_word = {2'b00, off[13:4]}; we_data = stage;
    if (xdata && ndone) begin
      we = 1'b1; we_proc = xproc; we_word = xword; we_data = ndata;
    end else if (wr && !mexpress && off[3:2] == 2'd3) begin
      we = 1'b1;
    end
  end
endmodule
