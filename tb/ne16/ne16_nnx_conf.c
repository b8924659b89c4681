/* pulp-nnx conf.json reader: Debian's jansson parses the file (duplicate keys, trailing data and syntax are
 * its errors, with line and column); every key must be one of the fields below, of its type and within its
 * range; then the checks of Ne16TestConf.py and NnxTestConf's validators. Python's json, which wrote the file,
 * takes the last of duplicated keys: a reader that kept the first would run another layer than the one named. */
#include "ne16_nnx_conf.h"
#include "plusargs.h"
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every field conf.json may hold (NnxTestConf / Ne16TestConf), dotted for the nested objects. The ranges are
 * the bench's: wider than any of the 134 pulp-nnx tests, narrow enough that no product of them overflows. */
typedef enum { F_INT, F_BOOL, F_STR } ftype_t;
typedef struct {
    const char *key;
    ftype_t type;
    long lo, hi;
    bool optional; /* the scale and bias types only matter with norm-quant */
} field_t;
static const field_t fields[] = {
    {"in_height", F_INT, 1, 4096, false},
    {"in_width", F_INT, 1, 4096, false},
    {"in_channel", F_INT, 1, 65535, false},
    {"out_channel", F_INT, 1, 65535, false},
    {"kernel_shape.height", F_INT, 1, 64, false},
    {"kernel_shape.width", F_INT, 1, 64, false},
    {"stride.height", F_INT, 1, 64, false},
    {"stride.width", F_INT, 1, 64, false},
    {"padding.top", F_INT, 0, 64, false},
    {"padding.bottom", F_INT, 0, 64, false},
    {"padding.left", F_INT, 0, 64, false},
    {"padding.right", F_INT, 0, 64, false},
    {"depthwise", F_BOOL, 0, 1, false},
    {"has_norm_quant", F_BOOL, 0, 1, false},
    {"has_bias", F_BOOL, 0, 1, false},
    {"has_relu", F_BOOL, 0, 1, false},
    {"in_type", F_STR, 0, 0, false},
    {"out_type", F_STR, 0, 0, false},
    {"weight_type", F_STR, 0, 0, false},
    {"scale_type", F_STR, 0, 0, true},
    {"bias_type", F_STR, 0, 0, true},
};
enum { NFIELDS = sizeof fields / sizeof *fields };
/* The layer's input, weights and output together: the largest pulp-nnx test needs 107 KiB; beyond this the
 * bench would allocate gigabytes for a layer no NE16 cluster holds. */
#define MAX_LAYER_BYTES (16u << 20)

typedef struct {
    json_t *root;
    const char *path;
    char *err;
    size_t errlen;
    int failed;
} conf_t;

static int cfail(conf_t *p, const char *fmt, const char *key, const char *value)
{
    if (!p->failed) {
        char what[256];
        snprintf(what, sizeof what, fmt, key, value);
        snprintf(p->err, p->errlen, "%s: %s", p->path, what);
    }
    p->failed = 1;
    return -1;
}

static const field_t *field_find(const char *key)
{
    for (size_t i = 0; i < NFIELDS; i++)
        if (!strcmp(fields[i].key, key)) return &fields[i];
    return NULL;
}

/* The value as JSON text, for messages ("70000", "\"uint9\"", "{...}"). */
static void value_text(const json_t *v, char *out, size_t n)
{
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    snprintf(out, n, "%.60s%s", s ? s : "?", s && strlen(s) > 60 ? "..." : "");
    free(s);
}

/* A key that is no field of the table: an error naming it (with the closest field), not a value ignored. */
static int unknown_key(conf_t *p, const char *key, const json_t *v)
{
    const char *names[NFIELDS + 1];
    for (size_t i = 0; i < NFIELDS; i++) names[i] = fields[i].key;
    names[NFIELDS] = NULL;
    const char *best = plusarg_closest(key, strlen(key), names);
    char val[80], msg[200];
    value_text(v, val, sizeof val);
    snprintf(msg, sizeof msg, "key '%%s' (value %%s) is not a conf.json field%s%s%s", best ? "; did you mean '" : "",
             best ? best : "", best ? "'?" : "");
    return cfail(p, msg, key, val);
}

/* Every key of the file, nested objects flattened to "a.b", is a field of the table. */
static int check_keys(conf_t *p, json_t *obj, const char *prefix)
{
    const char *name;
    json_t *v;
    json_object_foreach(obj, name, v)
    {
        char key[128];
        snprintf(key, sizeof key, "%s%s%s", prefix, *prefix ? "." : "", name);
        if (json_is_object(v) && !field_find(key)) {
            bool parent = false; /* an object is known when some field lies below it */
            for (size_t i = 0; i < NFIELDS && !parent; i++)
                parent = !strncmp(fields[i].key, key, strlen(key)) && fields[i].key[strlen(key)] == '.';
            if (!parent) return unknown_key(p, key, v);
            if (check_keys(p, v, key)) return -1;
        } else if (!field_find(key)) {
            return unknown_key(p, key, v);
        }
    }
    return 0;
}

/* The value of a dotted key, checked against its field's type; NULL (and an error unless optional) when absent. */
static json_t *cget(conf_t *p, const char *key)
{
    const field_t *f = field_find(key);
    json_t *v = p->root;
    char part[64];
    for (const char *k = key; v && *k; k += strcspn(k, ".") + (k[strcspn(k, ".")] == '.')) {
        snprintf(part, sizeof part, "%.*s", (int)strcspn(k, "."), k);
        v = json_is_object(v) ? json_object_get(v, part) : NULL;
    }
    if (!v) {
        if (!f->optional) cfail(p, "field %s%s is missing", key, "");
        return NULL;
    }
    static const char *const tname[] = {"an integer", "true or false", "a string"};
    const bool ok = f->type == F_INT ? json_is_integer(v) : f->type == F_BOOL ? json_is_boolean(v) : json_is_string(v);
    if (!ok) {
        char val[80], fmt[96];
        value_text(v, val, sizeof val);
        snprintf(fmt, sizeof fmt, "field %%s = %%s: not %s", tname[f->type]);
        cfail(p, fmt, key, val);
        return NULL;
    }
    return v;
}

static unsigned cnum(conf_t *p, const char *key)
{
    const field_t *f = field_find(key);
    const json_t *v = cget(p, key);
    if (!v) return 0;
    const json_int_t n = json_integer_value(v);
    if (n < f->lo || n > f->hi) {
        char val[32], fmt[96];
        snprintf(val, sizeof val, "%lld", (long long)n);
        snprintf(fmt, sizeof fmt, "field %%s = %%s is outside %ld..%ld", f->lo, f->hi);
        cfail(p, fmt, key, val);
        return 0;
    }
    return (unsigned)n;
}

static bool cbool(conf_t *p, const char *key)
{
    const json_t *v = cget(p, key);
    return v && json_is_true(v);
}

/* An integer type name u?intN: signedness and bits, or 0 bits when malformed. */
static unsigned int_type(const char *name, bool *is_signed)
{
    *is_signed = strncmp(name, "uint", 4) != 0;
    const char *d = name + (*is_signed ? 3 : 4);
    if (strncmp(name, *is_signed ? "int" : "uint", *is_signed ? 3 : 4) || !isdigit((unsigned char)*d)) return 0;
    return (unsigned)atoi(d);
}

static int reject(conf_t *p, const char *fmt, const char *what)
{
    char buf[256];
    snprintf(buf, sizeof buf, fmt, what);
    snprintf(p->err, p->errlen, "%s: not an NE16 layer: %s", p->path, buf);
    return -1;
}

/* A type field: its name, checked against the types NE16 accepts (Ne16TestConf.py). */
static int type_field(conf_t *p, const char *key, const char *const *ok, unsigned *bits, bool *sgn)
{
    const json_t *v = cget(p, key);
    if (!v) return p->failed ? -1 : cfail(p, "field %s%s is missing", key, "");
    const char *s = json_string_value(v);
    *bits = int_type(s, sgn);
    const char *const *ok0 = ok;
    for (; *ok; ok++)
        if (!strcmp(*ok, s)) return 0;
    /* The field and its value, and what NE16 takes: a wrong name must not read as a Neureka layer. */
    char what[160], takes[64] = "";
    for (const char *const *t = ok0; *t; t++)
        snprintf(takes + strlen(takes), sizeof takes - strlen(takes), "%s%s", t == ok0 ? "" : ", ", *t);
    snprintf(what, sizeof what, "field %s = \"%.40s\": NE16 takes %s (any other type is Neureka's or none)", key, s,
             takes);
    return reject(p, "%s", what);
}

static int conf_read(conf_t *p, nnx_conf_t *c);

int nnx_conf_load(const char *path, nnx_conf_t *c, char *err, size_t errlen)
{
    json_error_t je;
    /* Duplicate keys rejected; trailing data is an error by default (no JSON_DISABLE_EOF_CHECK). */
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!root) {
        if (je.line < 0) /* the file could not be opened or read */
            snprintf(err, errlen, "%s: cannot read the pulp-nnx configuration (%s)", path, je.text);
        else snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
        return -1;
    }
    conf_t p = {.root = root, .path = path, .err = err, .errlen = errlen};
    const int rc = conf_read(&p, c);
    json_decref(root);
    return rc;
}

/* The layer of the parsed file: fields, then the layer checks. */
static int conf_read(conf_t *p, nnx_conf_t *c)
{
    if (!json_is_object(p->root)) return cfail(p, "%s%s", "the top level is not an object {...}", "");
    if (check_keys(p, p->root, "")) return -1;

    memset(c, 0, sizeof *c);
    c->in_h = cnum(p, "in_height");
    c->in_w = cnum(p, "in_width");
    c->in_c = cnum(p, "in_channel");
    c->out_c = cnum(p, "out_channel");
    const unsigned kh = cnum(p, "kernel_shape.height"), kw = cnum(p, "kernel_shape.width");
    const unsigned sh = cnum(p, "stride.height"), sw = cnum(p, "stride.width");
    c->pad_t = cnum(p, "padding.top");
    c->pad_b = cnum(p, "padding.bottom");
    c->pad_l = cnum(p, "padding.left");
    c->pad_r = cnum(p, "padding.right");
    c->depthwise = cbool(p, "depthwise");
    c->has_nq = cbool(p, "has_norm_quant");
    c->has_bias = cbool(p, "has_bias");
    c->has_relu = cbool(p, "has_relu");
    if (p->failed) return -1;

    static const char *const in_ok[] = {"uint8", NULL}, *const out_ok[] = {"uint8", "int8", "int32", NULL},
                             *const w_ok[] = {"int8", NULL}, *const scale_ok[] = {"uint8", "uint32", NULL},
                             *const bias_ok[] = {"int32", NULL};
    unsigned bits;
    bool sgn;
    if (type_field(p, "in_type", in_ok, &bits, &sgn)) return -1;
    if (type_field(p, "out_type", out_ok, &c->out_bits, &c->out_signed)) return -1;
    if (type_field(p, "weight_type", w_ok, &bits, &sgn)) return -1;
    /* The scale and bias types only matter with norm-quant (test_128 names a Neureka scale type it never
     * uses: counted as NE16's, which makes the 117 of ../shared/upstream/README.md). */
    if (c->has_nq) {
        if (type_field(p, "scale_type", scale_ok, &c->scale_bits, &sgn)) return -1;
        if (c->has_bias && type_field(p, "bias_type", bias_ok, &bits, &sgn)) return -1;
    }
    if (!((kh == 1 && kw == 1) || (kh == 3 && kw == 3))) return reject(p, "%s", "kernel not 1x1 or 3x3");
    if (!((sh == 1 && sw == 1) || (sh == 2 && sw == 2))) return reject(p, "%s", "stride not 1x1 or 2x2");
    c->k = kh;
    c->stride = sh;
    if (c->stride == 2 && c->out_c * (c->out_bits / 8) % 2) return reject(p, "%s", "stride 2 with odd output bytes");
    if (c->depthwise && (c->k != 3 || c->in_c != c->out_c)) return reject(p, "%s", "depthwise needs 3x3 and Ki = Ko");
    if (c->k == 1 && (c->pad_t | c->pad_b | c->pad_l | c->pad_r)) return reject(p, "%s", "padding on a 1x1 kernel");
    if (!c->has_nq && (c->out_bits != 32 || !c->out_signed)) return reject(p, "%s", "no norm-quant needs int32 output");
    if ((c->has_relu || c->has_bias) && !c->has_nq) return reject(p, "%s", "relu/bias without norm-quant");
    if (c->has_nq && c->has_relu == c->out_signed) return reject(p, "%s", "relu needs an unsigned output, else signed");
    if (c->in_h + c->pad_t + c->pad_b < c->k || c->in_w + c->pad_l + c->pad_r < c->k)
        return reject(p, "%s", "padded input smaller than the kernel");
    c->out_h = (c->in_h + c->pad_t + c->pad_b - c->k) / c->stride + 1;
    c->out_w = (c->in_w + c->pad_l + c->pad_r - c->k) / c->stride + 1;
    /* In 64 bits: the fields' ranges bound every product below 2^60. */
    const unsigned long long in = (unsigned long long)c->in_h * c->in_w * c->in_c,
                             w = (unsigned long long)c->out_c * (c->depthwise ? 1 : c->in_c) * c->k * c->k,
                             out = (unsigned long long)c->out_h * c->out_w * c->out_c * (c->out_bits / 8);
    if (in + w + out > MAX_LAYER_BYTES) {
        snprintf(p->err, p->errlen,
                 "%s: in_height %u x in_width %u x in_channel %u, out_channel %u: the layer's input, weights and "
                 "output need %llu bytes, more than the bench's %u (the largest pulp-nnx test needs 107 KiB)",
                 p->path, c->in_h, c->in_w, c->in_c, c->out_c, in + w + out, MAX_LAYER_BYTES);
        return -1;
    }
    return 0;
}
