// CSC weight side: walks the layer's schedule (kernel group, stripe of output pixels, channel block, kernel row,
// kernel column) and hands out one weight set (8 kernels x 8 channels) a step, read from the CBUF weight banks
// in their memory order. In the direct-convolution format a group's weights are gn x cn bytes a step, packed
// (format.rst: 1x1x8-channel cubes scanned C' -> K -> S -> R -> C), so a byte buffer realigns whole 8-byte
// entries into sets: ceil(gn*cn/8) entry reads a step, overlapped with CMAC's use of the previous set. Each
// stripe re-reads its group's weights from the group's first entry (entry-aligned: a group is 8*R*S*C bytes).
// An entry is read only once CDMA has written it (wt_avail). Weight entry e of the layer sits at ring entry
// e mod ring; a group's entries are released (gbase moves past them, CDMA may overwrite them) when its last
// stripe's last set is out, so weights larger than the ring stream through it a group at a time.
module nvdla_csc_wt
  import nvdla_conv_pkg::*;
(
  input  logic                clk,
  input  logic                rst_n,
  input  logic                start,
  input  logic [13:0]         kernels,        // K
  input  logic [10:0]         groups,         // ceil(K / 8)
  input  logic [10:0]         cblocks,        // ceil(C / 8)
  input  logic [3:0]          c_last,         // channels of the last block (1..8)
  input  logic [5:0]          kh, kw,         // R, S (post-extension: steps of y_ext rows, 1)
  input  logic                row_cn,         // post-extension: bytes a kernel a step by row step, not by block
  input  logic [3:0]          cn_full,        //   y_ext rows x C (<= 8)
  input  logic [3:0]          cn_last,        //   the last step's rows x C
  input  logic [23:0]         rsc,            // R*S*C: entries from one group's weights to the next
  input  logic [17:0]         stripes,        // stripes of STRIPE output pixels a group
  input  logic [WT_CW-1:0]    wt_avail,       // weight entries CDMA has written
  input  logic [CBUF_AW:0]    ring,           // weight ring entries
  output logic [WT_CW-1:0]    rls_base,       // first weight entry not released
  // CBUF weight read
  output logic                rd_en,
  output logic [CBUF_AW-1:0]  rd_addr,
  input  logic [63:0]         rd_data,
  // weight sets, in schedule order
  output logic                set_valid,
  input  logic                set_take,
  output wset_t               set_w,
  output wstep_t              set_step
);
  localparam int BUFB = 128;                  // bytes: a whole set (64) plus entries in flight
  logic [BUFB*8-1:0] buffer;
  logic [7:0]        cnt;                     // valid bytes in buffer
  logic              pend;                    // a read is returning this cycle
  logic              active;
  logic [10:0]       g, cb;
  logic [17:0]       st;
  logic [5:0]        r, s;
  logic [23:0]       gbase;                   // this group's first entry
  logic [23:0]       rp;                      // next entry to read
  logic [CBUF_AW-1:0] gaddr, raddr;           // gbase and rp as ring entries

  wire [3:0]  gn       = g == groups - 11'd1 ? 4'(kernels - {g[10:0], 3'd0}) : 4'd8;
  wire [3:0]  cn       = row_cn ? (r == kh - 6'd1 ? cn_last : cn_full) : cb == cblocks - 11'd1 ? c_last : 4'd8;
  wire [6:0]  nb       = 7'(gn * cn);
  wire [27:0] pbytes   = 28'(gn * rsc);
  wire [23:0] pass_end = gbase + 24'((pbytes + 28'd7) >> 3);
  wire s_end = s == kw - 6'd1, r_end = r == kh - 6'd1, cb_end = cb == cblocks - 11'd1;
  wire pass_last = s_end && r_end && cb_end;
  wire st_end = st == stripes - 18'd1, g_end = g == groups - 11'd1;

  wire   out_free = !set_valid || set_take;
  wire   emit     = active && out_free && cnt >= {1'b0, nb};
  assign rd_en    = active && rp < pass_end && rp < wt_avail && 9'(cnt) + (pend ? 9'd16 : 9'd8) <= 9'(BUFB);
  assign rd_addr  = raddr;
  assign rls_base = gbase;
  // the next group's first ring entry (a group fits the ring when there are several: rsc <= ring)
  wire [24:0] gnext = 25'(gaddr) + 25'(rsc);
  wire [CBUF_AW-1:0] gaddr_next = CBUF_AW'(gnext >= 25'(ring) ? gnext - 25'(ring) : gnext);

  // the set: byte kk*cn + cc of the buffer is kernel kk, channel cc
  wset_t w;
  always_comb begin
    w = '0;
    for (int kk = 0; kk < ATOM; kk++)
      for (int cc = 0; cc < ATOM; cc++)
        if (kk < int'(gn) && cc < int'(cn)) w[(kk*ATOM + cc)*8 +: 8] = buffer[(kk*int'(cn) + cc)*8 +: 8];
  end

  // consume the set's bytes, append the returning entry behind what is left
  logic [BUFB*8-1:0] buf_next;
  logic [7:0]        cnt_next;
  always_comb begin
    buf_next = emit ? buffer >> ({nb, 3'd0}) : buffer;
    cnt_next = emit ? cnt - {1'b0, nb} : cnt;
    if (emit && pass_last) begin            // the pass ends: drop the bytes past its last set
      buf_next = '0;
      cnt_next = '0;
    end
    if (pend) begin
      buf_next = buf_next | ({{(BUFB*8-64){1'b0}}, rd_data} << {cnt_next, 3'd0});
      cnt_next = cnt_next + 8'd8;
    end
  end

  always_ff @(posedge clk or negedge rst_n) begin
    if (!rst_n) begin
      {buffer, cnt, pend, active, g, cb, st, r, s, gbase, rp, gaddr, raddr, set_valid, set_w, set_step} <= '0;
    end else if (start) begin
      {buffer, cnt, pend, g, cb, st, r, s, gbase, rp, gaddr, raddr, set_valid} <= '0;
      active <= 1'b1;
    end else begin
      pend   <= rd_en;
      buffer <= buf_next;
      cnt    <= cnt_next;
      if (rd_en) begin
        rp <= rp + 24'd1;
        raddr <= {1'b0, raddr} + 1'b1 == ring ? '0 : raddr + 1'b1;
      end
      if (set_take) set_valid <= 1'b0;
      if (emit) begin
        set_valid <= 1'b1;
        set_w     <= w;
        set_step  <= '{cb: cb, r: r, s: s, stripe_first: cb == 0 && r == 0 && s == 0, stripe_last: pass_last,
                       group_last: pass_last && st_end, layer_last: st_end && g_end};
        s <= s_end ? 6'd0 : s + 6'd1;
        if (s_end) r <= r_end ? 6'd0 : r + 6'd1;
        if (s_end && r_end) cb <= cb_end ? 11'd0 : cb + 11'd1;
        if (pass_last) begin
          st <= st_end ? 18'd0 : st + 18'd1;
          if (st_end) begin
            g <= g + 11'd1;
            gbase <= gbase + rsc;
            rp <= gbase + rsc;
            gaddr <= gaddr_next;
            raddr <= gaddr_next;
            if (g_end) active <= 1'b0;
          end else begin
            rp <= gbase;
            raddr <= gaddr;
          end
        end
      end
    end
  end
endmodule
