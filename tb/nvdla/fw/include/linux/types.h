/* Host stand-in for <linux/types.h>, the one Linux header NVIDIA's firmware interface includes
 * (nvdla_sw/kmd/include/nvdla_interface.h): fixed-width types and the two attributes it uses. */
#ifndef FW_HOST_LINUX_TYPES_H
#define FW_HOST_LINUX_TYPES_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#define __packed __attribute__((packed))
#define __aligned(x) __attribute__((aligned(x)))
#endif
