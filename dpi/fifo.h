/* Growable ring buffer of fixed-size elements, shared by the bus models. It grows by doubling only when
 * full, so after warm-up a model's tick never allocates. */
#ifndef FIFO_H
#define FIFO_H
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fifo {
    unsigned char *buf;
    size_t elem, cap, head, count; /* cap is a power of two */
} fifo_t;

static inline void fifo_init(fifo_t *f, size_t elem, size_t cap)
{
    size_t c = 4;
    while (c < cap) c <<= 1;
    f->elem = elem;
    f->cap = c;
    f->head = f->count = 0;
    f->buf = malloc(elem * c);
    if (!f->buf) {
        fprintf(stderr, "fifo: out of memory\n");
        abort();
    }
}

static inline void fifo_free(fifo_t *f)
{
    free(f->buf);
    f->buf = NULL;
}
static inline size_t fifo_count(const fifo_t *f) { return f->count; }
static inline bool fifo_empty(const fifo_t *f) { return f->count == 0; }

/* Element i from the head (0 = oldest). */
static inline void *fifo_at(const fifo_t *f, size_t i) { return f->buf + ((f->head + i) & (f->cap - 1)) * f->elem; }

static inline void fifo_push(fifo_t *f, const void *e)
{
    if (f->count == f->cap) {
        unsigned char *nb = malloc(f->elem * f->cap * 2);
        if (!nb) {
            fprintf(stderr, "fifo: out of memory\n");
            abort();
        }
        for (size_t i = 0; i < f->count; i++) memcpy(nb + i * f->elem, fifo_at(f, i), f->elem);
        free(f->buf);
        f->buf = nb;
        f->head = 0;
        f->cap *= 2;
    }
    memcpy(f->buf + ((f->head + f->count) & (f->cap - 1)) * f->elem, e, f->elem);
    f->count++;
}

static inline void fifo_pop(fifo_t *f, void *e)
{
    if (e) memcpy(e, fifo_at(f, 0), f->elem);
    f->head = (f->head + 1) & (f->cap - 1);
    f->count--;
}
#endif
