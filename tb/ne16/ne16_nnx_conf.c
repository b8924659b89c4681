/* pulp-nnx conf.json reader: a small JSON parser that flattens the file into "a.b" keys (objects of numbers,
 * strings, booleans and null, which is all conf.json holds), then the checks of Ne16TestConf.py and
 * NnxTestConf's validators. */
#include "ne16_nnx_conf.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 64

typedef enum { J_NUM, J_STR, J_BOOL, J_NULL } jtype_t;
typedef struct {
    char key[64];
    jtype_t type;
    long num;
    char str[32];
} jent_t;
typedef struct {
    const char *s, *path;
    size_t pos;
    jent_t ent[MAX_KEYS];
    unsigned n;
    char *err;
    size_t errlen;
    int failed;
} jp_t;

static int jfail(jp_t *p, const char *what)
{
    if (!p->failed) snprintf(p->err, p->errlen, "%s: byte %zu: %s", p->path, p->pos, what);
    p->failed = 1;
    return -1;
}

static void ws(jp_t *p)
{
    while (isspace((unsigned char)p->s[p->pos])) p->pos++;
}

static int jstring(jp_t *p, char *out, size_t n)
{
    if (p->s[p->pos] != '"') return jfail(p, "expected a string");
    p->pos++;
    size_t k = 0;
    while (p->s[p->pos] && p->s[p->pos] != '"') {
        if (p->s[p->pos] == '\\') return jfail(p, "escapes are not used by conf.json");
        if (k + 1 < n) out[k++] = p->s[p->pos];
        p->pos++;
    }
    if (p->s[p->pos] != '"') return jfail(p, "unterminated string");
    p->pos++;
    out[k] = 0;
    return 0;
}

static jent_t *jnew(jp_t *p, const char *key)
{
    if (p->n == MAX_KEYS) {
        jfail(p, "too many fields");
        return NULL;
    }
    jent_t *e = &p->ent[p->n++];
    snprintf(e->key, sizeof e->key, "%s", key);
    return e;
}

static int jvalue(jp_t *p, const char *key);

static int jobject(jp_t *p, const char *prefix)
{
    p->pos++; /* '{' */
    ws(p);
    if (p->s[p->pos] == '}') {
        p->pos++;
        return 0;
    }
    for (;;) {
        char name[48], key[64];
        ws(p);
        if (jstring(p, name, sizeof name)) return -1;
        ws(p);
        if (p->s[p->pos] != ':') return jfail(p, "expected ':'");
        p->pos++;
        snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", name);
        if (jvalue(p, key)) return -1;
        ws(p);
        if (p->s[p->pos] == ',') {
            p->pos++;
            continue;
        }
        if (p->s[p->pos] == '}') {
            p->pos++;
            return 0;
        }
        return jfail(p, "expected ',' or '}'");
    }
}

static int jvalue(jp_t *p, const char *key)
{
    ws(p);
    const char c = p->s[p->pos];
    if (c == '{') return jobject(p, key);
    jent_t *e = jnew(p, key);
    if (!e) return -1;
    if (c == '"') {
        e->type = J_STR;
        return jstring(p, e->str, sizeof e->str);
    }
    if (!strncmp(p->s + p->pos, "true", 4)) {
        e->type = J_BOOL;
        e->num = 1;
        p->pos += 4;
        return 0;
    }
    if (!strncmp(p->s + p->pos, "false", 5)) {
        e->type = J_BOOL;
        e->num = 0;
        p->pos += 5;
        return 0;
    }
    if (!strncmp(p->s + p->pos, "null", 4)) {
        e->type = J_NULL;
        p->pos += 4;
        return 0;
    }
    if (c == '-' || isdigit((unsigned char)c)) {
        char *end;
        e->type = J_NUM;
        e->num = strtol(p->s + p->pos, &end, 10);
        p->pos = (size_t)(end - p->s);
        return 0;
    }
    return jfail(p, "expected a value");
}

static const jent_t *jget(jp_t *p, const char *key, jtype_t type)
{
    for (unsigned i = 0; i < p->n; i++) {
        if (strcmp(p->ent[i].key, key)) continue;
        if (p->ent[i].type == type) return &p->ent[i];
        if (!p->failed) snprintf(p->err, p->errlen, "%s: field %s has the wrong type", p->path, key);
        p->failed = 1;
        return NULL;
    }
    if (!p->failed) snprintf(p->err, p->errlen, "%s: field %s is missing", p->path, key);
    p->failed = 1;
    return NULL;
}

static unsigned jnum(jp_t *p, const char *key, long lo, long hi)
{
    const jent_t *e = jget(p, key, J_NUM);
    if (!e) return 0;
    if (e->num < lo || e->num > hi) {
        if (!p->failed) snprintf(p->err, p->errlen, "%s: %s = %ld, outside %ld..%ld", p->path, key, e->num, lo, hi);
        p->failed = 1;
        return 0;
    }
    return (unsigned)e->num;
}

static bool jbool(jp_t *p, const char *key)
{
    const jent_t *e = jget(p, key, J_BOOL);
    return e && e->num;
}

/* An integer type name u?intN: signedness and bits, or 0 bits when malformed. */
static unsigned int_type(const char *name, bool *is_signed)
{
    *is_signed = strncmp(name, "uint", 4) != 0;
    const char *d = name + (*is_signed ? 3 : 4);
    if (strncmp(name, *is_signed ? "int" : "uint", *is_signed ? 3 : 4) || !isdigit((unsigned char)*d)) return 0;
    return (unsigned)atoi(d);
}

static int reject(jp_t *p, const char *fmt, const char *what)
{
    char buf[128];
    snprintf(buf, sizeof buf, fmt, what);
    snprintf(p->err, p->errlen, "%s: not an NE16 layer: %s", p->path, buf);
    return -1;
}

/* A type field: its name, checked against the types NE16 accepts (Ne16TestConf.py). */
static int type_field(jp_t *p, const char *key, const char *const *ok, unsigned *bits, bool *sgn)
{
    const jent_t *e = jget(p, key, J_STR);
    if (!e) return -1;
    *bits = int_type(e->str, sgn);
    for (; *ok; ok++)
        if (!strcmp(*ok, e->str)) return 0;
    char what[80];
    snprintf(what, sizeof what, "%s %s (Neureka's)", key, e->str);
    return reject(p, "%s", what);
}

int nnx_conf_load(const char *path, nnx_conf_t *c, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read the pulp-nnx configuration", path);
        return -1;
    }
    char buf[8192];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    const int toolong = !feof(f);
    fclose(f);
    if (toolong) {
        snprintf(err, errlen, "%s: longer than %zu bytes, not a conf.json", path, sizeof buf - 1);
        return -1;
    }
    buf[n] = 0;
    jp_t p = {.s = buf, .path = path, .err = err, .errlen = errlen};
    ws(&p);
    if (buf[p.pos] != '{') return jfail(&p, "expected '{'");
    if (jobject(&p, "")) return -1;

    memset(c, 0, sizeof *c);
    c->in_h = jnum(&p, "in_height", 1, 4096);
    c->in_w = jnum(&p, "in_width", 1, 4096);
    c->in_c = jnum(&p, "in_channel", 1, 65535);
    c->out_c = jnum(&p, "out_channel", 1, 65535);
    const unsigned kh = jnum(&p, "kernel_shape.height", 1, 64), kw = jnum(&p, "kernel_shape.width", 1, 64);
    const unsigned sh = jnum(&p, "stride.height", 1, 64), sw = jnum(&p, "stride.width", 1, 64);
    c->pad_t = jnum(&p, "padding.top", 0, 64);
    c->pad_b = jnum(&p, "padding.bottom", 0, 64);
    c->pad_l = jnum(&p, "padding.left", 0, 64);
    c->pad_r = jnum(&p, "padding.right", 0, 64);
    c->depthwise = jbool(&p, "depthwise");
    c->has_nq = jbool(&p, "has_norm_quant");
    c->has_bias = jbool(&p, "has_bias");
    c->has_relu = jbool(&p, "has_relu");
    if (p.failed) return -1;

    static const char *const in_ok[] = {"uint8", NULL}, *const out_ok[] = {"uint8", "int8", "int32", NULL},
                             *const w_ok[] = {"int8", NULL}, *const scale_ok[] = {"uint8", "uint32", NULL},
                             *const bias_ok[] = {"int32", NULL};
    unsigned bits;
    bool sgn;
    if (type_field(&p, "in_type", in_ok, &bits, &sgn)) return -1;
    if (type_field(&p, "out_type", out_ok, &c->out_bits, &c->out_signed)) return -1;
    if (type_field(&p, "weight_type", w_ok, &bits, &sgn)) return -1;
    /* The scale and bias types only matter with norm-quant (test_128 names a Neureka scale type it never
     * uses: counted as NE16's, which makes the 117 of ../shared/upstream/README.md). */
    if (c->has_nq) {
        if (type_field(&p, "scale_type", scale_ok, &c->scale_bits, &sgn)) return -1;
        if (c->has_bias && type_field(&p, "bias_type", bias_ok, &bits, &sgn)) return -1;
    }
    if (!((kh == 1 && kw == 1) || (kh == 3 && kw == 3))) return reject(&p, "%s", "kernel not 1x1 or 3x3");
    if (!((sh == 1 && sw == 1) || (sh == 2 && sw == 2))) return reject(&p, "%s", "stride not 1x1 or 2x2");
    c->k = kh;
    c->stride = sh;
    if (c->stride == 2 && c->out_c * (c->out_bits / 8) % 2) return reject(&p, "%s", "stride 2 with odd output bytes");
    if (c->depthwise && (c->k != 3 || c->in_c != c->out_c)) return reject(&p, "%s", "depthwise needs 3x3 and Ki = Ko");
    if (c->k == 1 && (c->pad_t | c->pad_b | c->pad_l | c->pad_r)) return reject(&p, "%s", "padding on a 1x1 kernel");
    if (!c->has_nq && (c->out_bits != 32 || !c->out_signed))
        return reject(&p, "%s", "no norm-quant needs int32 output");
    if ((c->has_relu || c->has_bias) && !c->has_nq) return reject(&p, "%s", "relu/bias without norm-quant");
    if (c->has_nq && c->has_relu == c->out_signed)
        return reject(&p, "%s", "relu needs an unsigned output, else signed");
    if (c->in_h + c->pad_t + c->pad_b < c->k || c->in_w + c->pad_l + c->pad_r < c->k)
        return reject(&p, "%s", "padded input smaller than the kernel");
    c->out_h = (c->in_h + c->pad_t + c->pad_b - c->k) / c->stride + 1;
    c->out_w = (c->in_w + c->pad_l + c->pad_r - c->k) / c->stride + 1;
    return 0;
}
