/* A plain C forced line: the baseline bench/kernel_speed.py measures the kernel against.
 *
 *     cc -O3 -o forced_line_plain bench/forced_line_plain.c
 *     ./forced_line_plain FIRST COUNT REDEALS WASTE_PLAYABLE PRIVILEGED
 *
 * Deals FIRST ... FIRST+COUNT-1 played out (REDEALS -1: unlimited), written the obvious
 * way from docs/rules.md, as tests/naive.py reads the rules: the reserve as its eight
 * slots (the leftmost fitting card leaves, R6, and the refill takes its slot), one card
 * turned at a time, the waste copied back into the stock on a redeal. Same stream
 * (section 4) as the engine, so the same results as the kernel, which the bench checks
 * by comparing the totals printed on stdout:
 *
 *     games wins score_sum passes_sum seconds
 *
 * (seconds of CPU time: on a busy machine, waiting for a core is not counted).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t next(uint64_t s[4]) {
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static uint64_t below(uint64_t s[4], uint64_t n) {
    uint64_t m = (next(s) >> 32) * n;
    uint64_t low = m & 0xFFFFFFFFull;
    if (low < n) {
        uint64_t t = ((1ull << 32) - n) % n;
        while (low < t) {
            m = (next(s) >> 32) * n;
            low = m & 0xFFFFFFFFull;
        }
    }
    return m >> 32;
}

static void shuffle(int *a, int len, uint64_t s[4]) {
    for (int i = len - 1; i > 0; i--) {
        int j = (int)below(s, (uint64_t)(i + 1));
        int tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
}

struct game {
    int first[8], reserve[8];
    int stock[104], stock_len, turned; /* stock[turned ... stock_len-1] still face down */
    int waste[104], waste_len;
};

/* R7: the card that fills a gap: the waste's top, else the stock's next, else none. */
static int refill(struct game *g) {
    if (g->waste_len > 0)
        return g->waste[--g->waste_len];
    if (g->turned < g->stock_len)
        return g->stock[g->turned++];
    return -1;
}

static void play(uint64_t deal, int redeals, int waste_playable, int privileged, int *won, int *score, int *passes) {
    struct game g;
    uint64_t s[4], st = deal;
    int ranks[104];
    for (int i = 0; i < 104; i++)
        ranks[i] = i % 13;
    for (int i = 0; i < 4; i++)
        s[i] = splitmix(&st);
    shuffle(ranks, 104, s);
    for (int i = 0; i < 8; i++) {
        g.first[i] = ranks[i];
        g.reserve[i] = ranks[8 + i];
    }
    for (int i = 0; i < 88; i++)
        g.stock[i] = ranks[16 + i];
    g.stock_len = 88;
    g.turned = 0;
    g.waste_len = 0;
    int k = 0, held = 0, made = 0;
    for (;;) {
        if (held == 12) { /* R5 */
            k++;
            held = 0;
            if (k == 8) {
                *won = 1;
                *score = 104;
                *passes = made + 1;
                return;
            }
        }
        int need = (g.first[k] + 1 + held) % 13;
        int slot = -1;
        for (int i = 0; i < 8; i++)
            if (g.reserve[i] == need) {
                slot = i;
                break;
            }
        if (privileged && k < 7 && g.first[7] == need) { /* R8 */
            g.first[7] = refill(&g);
        } else if (slot >= 0) { /* R6: the leftmost reserve card */
            g.reserve[slot] = refill(&g);
        } else if (waste_playable && g.waste_len > 0 && g.waste[g.waste_len - 1] == need) { /* V2 */
            g.waste_len--;
        } else if (g.turned < g.stock_len) { /* R9: turn one card */
            int card = g.stock[g.turned++];
            if (card != need) {
                g.waste[g.waste_len++] = card;
                continue;
            }
        } else if (g.waste_len > 0 && (redeals < 0 || made < redeals)) { /* R10 */
            shuffle(g.waste, g.waste_len, s);
            memcpy(g.stock, g.waste, sizeof(int) * (size_t)g.waste_len);
            g.stock_len = g.waste_len;
            g.turned = 0;
            g.waste_len = 0;
            made++;
            continue;
        } else { /* R11 */
            *won = 0;
            *score = 13 * k + held;
            *passes = made + 1;
            return;
        }
        held++;
    }
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s FIRST COUNT REDEALS WASTE_PLAYABLE PRIVILEGED\n", argv[0]);
        return 2;
    }
    uint64_t first = strtoull(argv[1], NULL, 10);
    long long count = atoll(argv[2]);
    int redeals = atoi(argv[3]), waste_playable = atoi(argv[4]), privileged = atoi(argv[5]);
    long long wins = 0, score_sum = 0, passes_sum = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long long i = 0; i < count; i++) {
        int won, score, passes;
        play(first + (uint64_t)i, redeals, waste_playable, privileged, &won, &score, &passes);
        wins += won;
        score_sum += score;
        passes_sum += passes;
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%lld %lld %lld %lld %.6f\n", count, wins, score_sum, passes_sum, seconds);
    return 0;
}
