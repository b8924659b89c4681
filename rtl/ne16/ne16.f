rtl/ne16/regs/gen/ne16_regs_pkg.sv
rtl/ne16/ne16_pkg.sv
rtl/ne16/regs/gen/ne16_ctx_regfile.sv
rtl/ne16/ne16_ctrl.sv
rtl/ne16/ne16_bitplane_array.sv
rtl/ne16/ne16_engine.sv
rtl/ne16/ne16_top.sv
