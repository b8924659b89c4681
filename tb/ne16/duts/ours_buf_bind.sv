// The buffer write monitor (ne16_buf_check.sv) on our engine's weight slots and window buffers.
bind ne16_engine ne16_buf_check u_buf_check (
    .clk        (clk_i),
    .rst_n      (rst_ni),
    .w_resp     (resp && rtag_q.kind == T_W),
    .w_slot_fill(wst_q[rtag_q.slot] == B_FILL),
    .w_first    (rtag_q.idx),
    .w_n        (rtag_q.np),
    .qw         (c.qw),
    .linear     (c.linear),
    .x_resp     (resp && rtag_q.kind == T_X),
    .x_buf_fill (xst_q[rtag_q.xb] == B_FILL)
);
