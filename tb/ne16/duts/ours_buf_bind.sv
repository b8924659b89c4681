// The buffer write monitor (ne16_buf_check.sv) on our engine's weight-plane ring and window buffers.
bind ne16_engine ne16_buf_check #(.NPL(NPL)) u_buf_check (
    .clk       (clk_i),
    .rst_n     (rst_ni),
    .w_resp    (resp && rtag_q.kind == T_W),
    .w_first   (rtag_q.wb),
    .w_n       (rtag_q.np),
    .ring_base (cwb_q),
    .ring_used (wres_q),
    .x_resp    (resp && rtag_q.kind == T_X),
    .x_buf_fill(xst_q[rtag_q.xb] == B_FILL)
);
