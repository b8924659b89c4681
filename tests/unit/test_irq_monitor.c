/* Unit tests of the interrupt monitor: counting, last cycle, spurious detection, pulse width. */
#include "irq_monitor.h"
#include "unit.h"

static void drive(unit_env_t *e, irq_monitor_t *m, const char *wave)
{
    for (const char *c = wave; *c; c++, e->cycle++) irq_monitor_tick(m, *c == '1');
}

static void test_level(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    irq_monitor_t *m = irq_monitor_new(&e.env, "dla_intr", IRQ_LEVEL);
    irq_monitor_arm(m, true);
    drive(&e, m, "0011110001");
    CHECK_EQ(irq_monitor_count(m), 2);
    CHECK_EQ(irq_monitor_last_cycle(m), 9);
    CHECK(irq_monitor_level(m), "line should be high at the last edge");
    CHECK(e.errors == 0, "armed level interrupt reported errors:\n%s", e.err);
    irq_monitor_arm(m, false);
    drive(&e, m, "1110"); /* staying high while disarmed is fine */
    CHECK_EQ(e.errors, 0);
    drive(&e, m, "01"); /* a new rise is not */
    CHECK(unit_env_has(&e, "spurious", "cycle 15"), "spurious rise not reported:\n%s", e.err);
    CHECK_EQ(irq_monitor_count(m), 3);
    irq_monitor_free(m);
}

static void test_pulse(unit_t *u)
{
    unit_env_t e;
    unit_env_init(&e);
    irq_monitor_t *m = irq_monitor_new(&e.env, "evt_done", IRQ_PULSE);
    irq_monitor_arm(m, true);
    drive(&e, m, "0101001");
    CHECK_EQ(irq_monitor_count(m), 3);
    CHECK_EQ(e.errors, 0);
    drive(&e, m, "0111");
    CHECK(unit_env_has(&e, "more than one cycle", "cycle 9"), "long pulse not reported:\n%s", e.err);
    CHECK_EQ(e.errors, 1); /* once per pulse */
    CHECK_EQ(irq_monitor_count(m), 4);
    irq_monitor_free(m);
}

int main(void)
{
    unit_t u = {.name = "irq_monitor"};
    UNIT_RUN(&u, test_level);
    UNIT_RUN(&u, test_pulse);
    return unit_done(&u);
}
