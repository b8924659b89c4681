/* Firmware-side glue, linked into the SDK's RISC-V images by riscv-none-embed.sh (not part of the simulator):
 * picolibc's stdio writes through the FILE objects stdin/stdout/stderr that the program must define, where the
 * SDK (Boards/MAX78000/Source/stdio.c) provides newlib's _write/_read on the console UART. These streams call
 * them one character at a time, so printf reaches UART0 as it does with newlib-nano. */
#include <stdio.h>

int _write(int file, char *ptr, int len);
int _read(int file, char *ptr, int len);

static int put(char c, FILE *f)
{
    (void)f;
    return _write(1, &c, 1) == 1 ? (unsigned char)c : EOF;
}

static int get(FILE *f)
{
    (void)f;
    char c;
    return _read(0, &c, 1) == 1 ? (unsigned char)c : EOF;
}

static FILE console = FDEV_SETUP_STREAM(put, get, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &console;
FILE *const stdout = &console;
FILE *const stderr = &console;
