/* The camera path of the virtual platform (vp_camera.c): the devices the SDK's camera examples touch (the
 * pulse-train generator that clocks the sensor, an OV7692 sensor on the SCCB bus bit-banged over GPIO0, the
 * parallel camera interface PCIF, the push buttons, UART1), the frame from a file, and the end of a firmware
 * that loops for ever (one frame per button press). vp_periph.c hands them the addresses they own. */
#ifndef VP_CAMERA_H
#define VP_CAMERA_H
#include "vp.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct vp_cam vp_cam_t;
/* without: a block's name left unmodelled (+fw_unmodel=: PTG, PCIF, UART1, OV7692). */
vp_cam_t *vp_cam_new(vp_t *v, const char *without);
void vp_cam_free(vp_cam_t *c);
/* Does a model of this file own addr (then vp_cam_read/vp_cam_write perform the access)? */
bool vp_cam_owns(const vp_cam_t *c, uint32_t addr);
uint32_t vp_cam_read(vp_cam_t *c, uint32_t addr, unsigned size);
void vp_cam_write(vp_cam_t *c, uint32_t addr, unsigned size, uint32_t value);
/* A GPIO input register's value as the devices on its pins drive them (SCCB lines, push buttons); v: as stored. */
uint32_t vp_cam_pins(vp_cam_t *c, uint32_t addr, uint32_t v);
/* GPIO0's outputs changed (the SCCB master's SCL/SDA). */
void vp_cam_gpio0(vp_cam_t *c, uint32_t out, uint32_t outen);
/* A line the firmware printed on UART0 (the frames' results). */
void vp_cam_line(vp_cam_t *c, const char *line, size_t n);
#endif
