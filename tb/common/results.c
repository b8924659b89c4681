#include "results.h"
#include <stdio.h>

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

void results_write(const char *path, const results_info_t *ri)
{
    if (!path || !*path) return;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "ERROR: cannot write results file %s\n", path);
        return;
    }
    fprintf(f, "{\"acc\": ");
    json_str(f, ri->acc);
    fprintf(f, ", \"dut\": ");
    json_str(f, ri->dut);
    fprintf(f, ", \"test\": ");
    json_str(f, ri->test);
    fprintf(f, ", \"seed\": %llu, \"verdict\": ", (unsigned long long)ri->seed);
    json_str(f, ri->verdict);
    fprintf(f, ", \"reason\": ");
    json_str(f, ri->reason);
    fprintf(f, ", \"cycles\": %llu, \"wall_s\": %.6f, \"jobs\": [", (unsigned long long)ri->cycles, ri->wall_s);
    for (size_t i = 0; i < sb_njobs(ri->sb); i++) {
        const sb_job_t *j = sb_job(ri->sb, i);
        fprintf(f, "%s\n  {\"name\": ", i ? "," : "");
        json_str(f, j->name);
        fprintf(f,
                ", \"start\": %llu, \"end\": %llu, \"bytes_compared\": %llu, \"out_digest\": \"0x%08x\", "
                "\"mismatches\": %llu, \"errors\": %u, \"failed\": %s, \"first_error_cycle\": %llu, \"first_error\": ",
                (unsigned long long)j->start, (unsigned long long)j->end, (unsigned long long)j->bytes_compared,
                j->out_digest, (unsigned long long)j->mismatches, j->errors, sb_job_failed(j) ? "true" : "false",
                (unsigned long long)j->first_error_cycle);
        json_str(f, j->first_error);
        fputc('}', f);
    }
    fprintf(f, "],\n \"errors\": [");
    for (int i = 0; i < ri->nerrors; i++) {
        fprintf(f, "%s\n  ", i ? "," : "");
        json_str(f, ri->errors[i]);
    }
    fprintf(f, "]}\n");
    fclose(f);
}

void results_write_setup_error(const char *acc, const char *path, const char *msg, uint64_t seed)
{
    if (!path || !*path) return;
    FILE *f = fopen(path, "w");
    if (!f) return;
    fprintf(f, "{\"acc\": ");
    json_str(f, acc);
    fprintf(f, ", \"test\": \"\", \"seed\": %llu, \"verdict\": \"FAIL\", \"reason\": ", (unsigned long long)seed);
    json_str(f, msg);
    fprintf(f, ", \"cycles\": 0, \"wall_s\": 0, \"jobs\": [], \"errors\": [");
    json_str(f, msg);
    fprintf(f, "]}\n");
    fclose(f);
}
