/* pulp-nnx's test application for one layer (pulp_nnx/test/app/src/nnx_layer.c, NE16 branch): task_prepare
 * and task_execute, with the layer's sizes from the run instead of generated headers. Everything it calls is
 * pulp-nnx's driver (ne16/hal, src/pulp_nnx_ne16.c), compiled unmodified. */
#include "ne16_nnx_host.h"
#include "pulp_nnx_ne16.h"

static void task_prepare(const nnx_run_t *r, ne16_task_t *task)
{
    const nnx_conf_t *c = &r->conf;
    ne16_task_init(task);
    ne16_task_set_op_to_conv(task, (uint8_t)c->k, c->depthwise, (uint8_t)c->stride);
    ne16_task_set_bits(task, 8, (uint8_t)c->out_bits, 8);
    ne16_task_set_weight_offset(task, weightOffsetModeLayerWise, -128); /* -(2^(8-1)), HeaderWriter */
    const uint32_t w_in_stride = c->in_c, h_in_stride = c->in_w * w_in_stride;
    const uint32_t w_out_stride = c->out_c * c->out_bits / 8, h_out_stride = c->out_w * w_out_stride;
    if (c->stride == 2)
        ne16_task_set_dims_stride2x2(task, c->in_h, c->in_w, c->in_c, h_in_stride, w_in_stride, c->out_h, c->out_w,
                                     c->out_c, h_out_stride, w_out_stride, (uint8_t)c->k, (uint8_t)c->k,
                                     (uint8_t)c->pad_t, (uint8_t)c->pad_b, (uint8_t)c->pad_l, (uint8_t)c->pad_r);
    else
        ne16_task_set_dims(task, c->in_w, c->in_c, h_in_stride, w_in_stride, c->out_h, c->out_w, c->out_c, h_out_stride,
                           w_out_stride, (uint8_t)c->pad_t, (uint8_t)c->pad_b, (uint8_t)c->pad_l, (uint8_t)c->pad_r);
    ne16_task_set_addr_conv(task, r->a_input, c->in_w, w_in_stride, (uint8_t)c->pad_t, (uint8_t)c->pad_l, r->a_output,
                            r->a_weight);
    if (c->has_nq) {
        const ne16_norm_mode_e mode = c->scale_bits == 8 ? normMode8Bit : normMode32Bit;
        ne16_task_set_norm_quant(task,
                                 (ne16_quant_t){.shift_amount = (uint8_t)r->data.shift,
                                                .function = c->has_relu ? quantFunctionRelu : quantFunctionIdentity,
                                                .flag_rounding = ne16TaskFlagFalse},
                                 (ne16_norm_t){.mode = mode,
                                               .flag_bias = c->has_bias ? ne16TaskFlagTrue : ne16TaskFlagFalse,
                                               .flag_shift = ne16TaskFlagFalse});
        ne16_task_set_addr_norm_quant(task, r->a_scale, 0, c->has_bias ? r->a_bias : 0);
    }
}

void nnx_layer_execute(const nnx_run_t *r)
{
    ne16_task_t task;
    task_prepare(r, &task);
    const ne16_dev_t *dev = ne16_pulp_get_dev();
    ne16_pulp_conf_t conf = {.max_stall = 8};
    ne16_nnx_init(dev, &conf);
    ne16_nnx_dispatch_wait(dev);
    if (r->conf.stride == 2)
        ne16_nnx_dispatch_stride2x2(dev, &task, r->conf.in_w, r->conf.in_c, r->conf.out_h, r->conf.out_w, r->conf.out_c,
                                    (uint8_t)r->conf.k, (uint8_t)r->conf.k);
    else ne16_nnx_dispatch(dev, &task);
    ne16_nnx_resolve_wait(dev, &task);
    ne16_nnx_term(dev);
}
