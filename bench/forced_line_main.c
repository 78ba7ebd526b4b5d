/* The kernel's own source with a main(): the forced line with no Python around it.
 *
 *     cc -O3 -o forced_line_main bench/forced_line_main.c
 *     ./forced_line_main FIRST COUNT REDEALS WASTE_PLAYABLE PRIVILEGED
 *
 * Plays deals FIRST ... FIRST+COUNT-1 through fl_play_range, in blocks of 65,536 as
 * play_deals would, and prints the same totals as forced_line_plain.c:
 *
 *     games wins score_sum passes_sum seconds
 *
 * (seconds of CPU time: on a busy machine, waiting for a core is not counted).
 */
#include "../src/firstlast/odds/forced_line.c"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define BLOCK 65536

static u8 won[BLOCK];
static i8 score[BLOCK];
static i32 passes[BLOCK];

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s FIRST COUNT REDEALS WASTE_PLAYABLE PRIVILEGED\n", argv[0]);
        return 2;
    }
    u64 first = strtoull(argv[1], NULL, 10);
    long long count = atoll(argv[2]);
    struct fl_job job = {0};
    job.redeals_left = atoi(argv[3]);
    job.flags = (atoi(argv[4]) ? WASTE_PLAYABLE : 0) | (atoi(argv[5]) ? PRIVILEGED : 0);
    long long wins = 0, score_sum = 0, passes_sum = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (long long lo = 0; lo < count; lo += BLOCK) {
        job.rng[0] = first + (u64)lo;
        job.count = (i32)(count - lo < BLOCK ? count - lo : BLOCK);
        fl_play_range(&job, won, score, passes);
        for (i32 i = 0; i < job.count; i++) {
            wins += won[i];
            score_sum += score[i];
            passes_sum += passes[i];
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("%lld %lld %lld %lld %.6f\n", count, wins, score_sum, passes_sum, seconds);
    return 0;
}
