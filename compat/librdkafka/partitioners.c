/*
 * Prints librdkafka's partitioners' choices for keys, for routing-core's cross-client vectors.
 *
 * Reads the key list (compat/make-keys.py's format, uncompressed) on stdin and writes one TSV row per
 * byte key (b:<hex>): the key, then per partitioner the partition for each count, comma-separated.
 * It calls the partitioner functions librdkafka exports (rdkafka.h), the ones a producer runs for
 * partitioner=consistent, consistent_random, murmur2, murmur2_random, fnv1a, fnv1a_random, with a
 * real topic handle (no broker: the random fallback asks the handle which partitions are available).
 * Each call is made twice; a partitioner whose two passes differ for a key is written "*" (random).
 * A cell equal to an earlier column's is written "=<column>" (1-based) to keep the files small.
 * "null" keys are left out: librdkafka's producer sends a message without a key to its sticky
 * random partition before any of these functions is called (rd_kafka_msg_partitioner).
 *
 * Build: cc -O2 -o partitioners partitioners.c -lrdkafka
 */
#include <librdkafka/rdkafka.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int32_t (*partitioner_fn)(const rd_kafka_topic_t *, const void *, size_t, int32_t, void *,
                                  void *);

static const int32_t COUNTS[] = {1, 2, 3, 7, 12, 24, 100, 997, 1024, 65537};
#define NCOUNTS ((int)(sizeof COUNTS / sizeof COUNTS[0]))

static const struct {
        const char *name;
        partitioner_fn fn;
} PARTITIONERS[] = {
    {"consistent", rd_kafka_msg_partitioner_consistent},
    {"consistent_random", rd_kafka_msg_partitioner_consistent_random},
    {"murmur2", rd_kafka_msg_partitioner_murmur2},
    {"murmur2_random", rd_kafka_msg_partitioner_murmur2_random},
    {"fnv1a", rd_kafka_msg_partitioner_fnv1a},
    {"fnv1a_random", rd_kafka_msg_partitioner_fnv1a_random},
};
#define NPART ((int)(sizeof PARTITIONERS / sizeof PARTITIONERS[0]))

static int hexval(int c) {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        return -1;
}

int main(void) {
        char err[512];
        rd_kafka_conf_t *conf = rd_kafka_conf_new();
        /* No broker is contacted: the handle only answers "is partition p available" (no). */
        rd_kafka_conf_set(conf, "log_level", "0", err, sizeof err);
        rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
        if (!rk) {
                fprintf(stderr, "rd_kafka_new: %s\n", err);
                return 2;
        }
        rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, "routingkit-vectors", NULL);
        if (!rkt) {
                fprintf(stderr, "rd_kafka_topic_new failed\n");
                return 2;
        }

        printf("# client: librdkafka %s (rd_kafka_version_str())\n", rd_kafka_version_str());
        printf("# generator: compat/librdkafka/partitioners.c (librdkafka's exported partitioner "
               "functions, called directly)\n");
        printf("# counts:");
        for (int c = 0; c < NCOUNTS; c++) printf(" %d", COUNTS[c]);
        printf("\n# partitioners:");
        for (int p = 0; p < NPART; p++) printf(" %s", PARTITIONERS[p].name);
        printf("\n# row: key, then per partitioner the partition for each count (comma-separated); "
               "* = random (two calls differed), =N = same as column N\n");

        char *line = NULL;
        size_t cap = 0;
        ssize_t len;
        unsigned char *key = NULL;
        size_t keycap = 0;
        char cells[NPART][NCOUNTS * 12 + 2];
        while ((len = getline(&line, &cap, stdin)) >= 0) {
                while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = 0;
                if (len == 0 || line[0] == '#' || strncmp(line, "b:", 2) != 0) continue;
                size_t n = (size_t)(len - 2) / 2;
                if ((size_t)(len - 2) % 2) {
                        fprintf(stderr, "odd hex length: %.40s\n", line);
                        return 2;
                }
                if (n + 1 > keycap) {
                        keycap = 2 * (n + 1);
                        key = realloc(key, keycap);
                }
                for (size_t i = 0; i < n; i++) {
                        int hi = hexval(line[2 + 2 * i]), lo = hexval(line[3 + 2 * i]);
                        if (hi < 0 || lo < 0) {
                                fprintf(stderr, "bad hex: %.40s\n", line);
                                return 2;
                        }
                        key[i] = (unsigned char)(hi << 4 | lo);
                }
                /* An empty key is passed as a non-NULL pointer and length 0, as the producer does
                 * for a key of length 0. */
                fputs(line, stdout);
                for (int p = 0; p < NPART; p++) {
                        int32_t first[NCOUNTS];
                        int random = 0;
                        for (int pass = 0; pass < 2; pass++)
                                for (int c = 0; c < NCOUNTS; c++) {
                                        int32_t r = PARTITIONERS[p].fn(rkt, key, n, COUNTS[c], NULL,
                                                                       NULL);
                                        if (r < 0 || r >= COUNTS[c]) {
                                                fprintf(stderr, "%s gave %d for %d partitions: %.40s\n",
                                                        PARTITIONERS[p].name, r, COUNTS[c], line);
                                                return 3;
                                        }
                                        if (pass == 0) first[c] = r;
                                        else if (r != first[c]) random = 1;
                                }
                        char *s = cells[p];
                        if (random) {
                                strcpy(s, "*");
                        } else {
                                s[0] = 0;
                                for (int c = 0; c < NCOUNTS; c++)
                                        s += sprintf(s, c ? ",%d" : "%d", first[c]);
                        }
                        int same = -1;
                        for (int q = 0; q < p && same < 0; q++)
                                if (strcmp(cells[q], cells[p]) == 0) same = q;
                        if (same >= 0) printf("\t=%d", same + 1);
                        else printf("\t%s", cells[p]);
                }
                putchar('\n');
        }
        free(line);
        free(key);
        rd_kafka_topic_destroy(rkt);
        rd_kafka_destroy(rk);
        return ferror(stdout) ? 2 : 0;
}
