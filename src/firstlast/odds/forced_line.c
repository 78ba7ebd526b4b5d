/* The forced line of First and Last, on ranks, in freestanding C.
 *
 * firstlast.engine.Position is the rules; this file is a *derived* implementation of
 * its forced line (R2-R11, V1-V3, docs/rules.md) and of the deal-number random stream
 * (docs/rules.md section 4). It is trusted only because tests/odds proves it equal to
 * the engine, deal for deal under every variant and sample for sample, natively and as
 * WebAssembly (docs/odds.md).
 *
 * One source for every runtime: CPython compiles it at first use with the system's C
 * compiler (`cc -O3 -shared -fPIC`, firstlast.odds.fastline) and calls it with ctypes;
 * scripts/build_wasm.py compiles it to forced_line.wasm (clang --target=wasm32
 * -nostdlib), which wasmtime runs where there is no compiler and the browser runs under
 * Pyodide. So it uses no library at all: no libc, no malloc, integer types from the
 * compiler's builtins, every buffer on the stack or in the caller's memory. WebAssembly
 * callers, which cannot hand over their own memory, write their inputs into a static
 * arena (fl_arena) and read the results back from it.
 *
 * The stream (section 4): xoshiro256** seeded by four SplitMix64 outputs (4.1), Lemire's
 * unbiased draw on 32-bit values (4.2), Fisher-Yates from the top down (4.3). The deal
 * (4.5) shuffles the 104 cards in their unshuffled order (rank = index mod 13); each
 * redeal shuffles the waste with the same stream (4.6).
 *
 * Three things make the line fast without changing a single result:
 * - the reserve is kept as a count per rank: ranks alone decide play, and which of two
 *   equal reserve cards leaves (the leftmost, R6) only decides which slot the refill
 *   lands in, which no later rule can see;
 * - turning scans the stock for the needed rank in a tight loop: while cards miss, none
 *   of the other sources can start to fit (a missing card pushed on the waste is not
 *   the needed rank, so not even V2's waste top changes that);
 * - the stock and the waste are two 104-slot buffers that swap roles on a redeal.
 *
 * Every exported function takes pointers and small counts only (32-bit in WebAssembly):
 * 64-bit numbers (deal numbers, seeds, streams, redeal counts) travel in memory, in a
 * struct fl_job, so no caller needs 64-bit integers at the call boundary (JavaScript's
 * WebAssembly API would want BigInts there).
 */

typedef __UINT64_TYPE__ u64;
typedef __INT64_TYPE__ i64;
typedef __UINT32_TYPE__ u32;
typedef __INT32_TYPE__ i32;
typedef __UINT8_TYPE__ u8;
typedef __INT8_TYPE__ i8;

#if defined(__wasm__)
#define FL_API(name) __attribute__((export_name(#name)))
#else
#define FL_API(name) __attribute__((visibility("default")))
#endif

/* Bumped whenever the layout or the functions change: callers check it (fl_info). */
#define FL_ABI 2
/* Pass counts 0 ... FL_PASS_BINS-1 have their own bin in fl_tally_range. */
#define FL_PASS_BINS 256
/* fl_tally_stuck: score histograms of the games with 0 ... FL_STUCK_PASSES-1 redeals. */
#define FL_STUCK_PASSES 16
/* Bytes of the WebAssembly callers' scratch arena. */
#define FL_ARENA_BYTES (1 << 20)

/* What to play, written by the caller. Little-endian in WebAssembly, native byte order
 * natively; no padding (checked below). */
struct fl_job {
    u64 rng[4];       /*   0: fl_play_line: the stream the redeals continue;
                             fl_sample_*: rng[0] is the seed; fl_play_range and
                             fl_tally_*: rng[0] is the first deal number */
    i64 first_index;  /*  32: fl_sample_*: the first sample's index */
    i64 redeals_used; /*  40: redeals made so far (positions) */
    i64 redeals_left; /*  48: redeals still allowed, -1 for unlimited (V1); for deals
                             from their start: the variant's redeals */
    i32 count;        /*  56: deals or samples */
    i32 active;       /*  60: the active pile, 0...7 (R3) */
    i32 held;         /*  64: its cards without the base */
    i32 stock_len;    /*  68 */
    i32 waste_len;    /*  72 */
    i32 flags;        /*  76: 1 waste playable (V2), 2 privileged last card (V3) */
    i8 first[8];      /*  80: ranks 0...12 at F1...F8, -1 for a gap */
    i8 rcount[16];    /*  88: reserve cards of each rank (13 used) */
    i8 stock[104];    /* 104: in turning order */
    i8 waste[104];    /* 208: bottom to top */
};                    /* 312 */

_Static_assert(sizeof(struct fl_job) == 312, "fl_job layout");
_Static_assert(__builtin_offsetof(struct fl_job, count) == 56, "fl_job layout");
_Static_assert(__builtin_offsetof(struct fl_job, first) == 80, "fl_job layout");
_Static_assert(__builtin_offsetof(struct fl_job, waste) == 208, "fl_job layout");

#define WASTE_PLAYABLE 1
#define PRIVILEGED 2

/* ------------------------------------------------------------------ random stream */
#define GOLDEN 0x9E3779B97F4A7C15ull
#define MIX1 0xBF58476D1CE4E5B9ull
#define MIX2 0x94D049BB133111EBull

static inline u64 splitmix(u64 *state) {
    u64 z = (*state += GOLDEN);
    z = (z ^ (z >> 30)) * MIX1;
    z = (z ^ (z >> 27)) * MIX2;
    return z ^ (z >> 31);
}

/* 4.1: the xoshiro256** state of deal `deal`. */
static inline void seed_state(u64 deal, u64 s[4]) {
    u64 st = deal;
    s[0] = splitmix(&st);
    s[1] = splitmix(&st);
    s[2] = splitmix(&st);
    s[3] = splitmix(&st);
}

static inline u64 rotl(u64 x, int k) { return (x << k) | (x >> (64 - k)); }

/* One xoshiro256** step. */
static inline u64 next(u64 s[4]) {
    u64 result = rotl(s[1] * 5, 7) * 9;
    u64 t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* 4.2: Lemire's unbiased draw in [0, n) on 32-bit values, 0 < n < 2^32. */
static inline u64 below(u64 s[4], u64 n) {
    u64 m = (next(s) >> 32) * n;
    u64 low = m & 0xFFFFFFFFull;
    if (low < n) {
        u64 t = ((1ull << 32) - n) % n;
        while (low < t) {
            m = (next(s) >> 32) * n;
            low = m & 0xFFFFFFFFull;
        }
    }
    return m >> 32;
}

/* 4.3: Fisher-Yates of a[0...len-1] from the top down. The state lives in locals. */
static void shuffle(i8 *a, i32 len, u64 state[4]) {
    u64 s[4] = {state[0], state[1], state[2], state[3]};
    for (i32 i = len - 1; i > 0; i--) {
        u64 j = below(s, (u64)(i + 1));
        i8 tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
    state[0] = s[0];
    state[1] = s[1];
    state[2] = s[2];
    state[3] = s[3];
}

/* Sample i's own stream: the 4.1 seeding of (the SplitMix64 output of seed) + i, so the
 * samples of one seed, and the streams of different seeds, are unrelated. */
static inline void sample_stream(u64 seed, u64 i, u64 s[4]) {
    u64 st = seed;
    seed_state(splitmix(&st) + i, s);
}

/* ------------------------------------------------------------------ the forced line */
struct outcome {
    i32 won;
    i32 score;
    i64 passes;
};

/* Play the forced line from any position to its end. first: ranks at F1...F8 (-1 for a
 * gap); rcount: reserve cards per rank; stock[sp...sl-1] in turning order; waste[0...wl-1]
 * bottom to top (both buffers hold 104); k: the active pile, held: its cards without the
 * base; redeals: made so far; redeals_left: -1 for unlimited; s: the stream the redeals
 * continue. Every buffer is changed. stuck: null, or where the score (cards on the
 * piles) is written as redeal r is made, at stuck[r] for r < FL_STUCK_PASSES: the score
 * at which the same game with r redeals allowed stops (R11), as it is the same up to
 * there (4.6). */
static struct outcome forced_line(i8 *first, i32 *rcount, i8 *stock, i32 sp, i32 sl, i8 *waste, i32 wl,
                                  i32 k, i32 held, i64 redeals, i64 redeals_left, i32 flags, u64 s[4],
                                  i32 *stuck) {
    const int waste_playable = (flags & WASTE_PLAYABLE) != 0;
    const int privileged = (flags & PRIVILEGED) != 0;
    struct outcome out;
    i32 done = 13 * k;
    i32 need = (first[k] + 1 + held) % 13;
    for (;;) {
        if (held == 12) { /* R5: the base ends the pile */
            done += 13;
            k += 1;
            if (k == 8) {
                out.won = 1;
                out.score = 104;
                out.passes = redeals + 1;
                return out;
            }
            held = 0;
            need = (first[k] + 1) % 13;
            continue;
        }
        if (privileged && k < 7 && first[7] == need) { /* R8, with precedence */
            if (wl > 0) /* R7 refill: waste top, else stock, else a gap */
                first[7] = waste[--wl];
            else if (sp < sl)
                first[7] = stock[sp++];
            else
                first[7] = -1;
        } else if (rcount[need] > 0) { /* a reserve card (which slot cannot matter) */
            rcount[need] -= 1;
            if (wl > 0)
                rcount[waste[--wl]] += 1;
            else if (sp < sl)
                rcount[stock[sp++]] += 1;
        } else if (waste_playable && wl > 0 && waste[wl - 1] == need) { /* V2 */
            wl -= 1;
        } else if (sp < sl) { /* R9: turn until a card fits */
            while (sp < sl && stock[sp] != need)
                waste[wl++] = stock[sp++];
            if (sp == sl)
                continue;
            sp += 1;
        } else if (wl > 0 && redeals_left != 0) { /* R10, 4.6: the waste, shuffled, turned from 0 */
            if (stuck && redeals >= 0 && redeals < FL_STUCK_PASSES)
                stuck[redeals] = done + held;
            shuffle(waste, wl, s);
            i8 *tmp = stock;
            stock = waste;
            waste = tmp;
            sp = 0;
            sl = wl;
            wl = 0;
            redeals += 1;
            redeals_left -= 1;
            continue;
        } else { /* R11 */
            out.won = 0;
            out.score = done + held;
            out.passes = redeals + 1;
            return out;
        }
        held += 1;
        need = need == 12 ? 0 : need + 1;
    }
}

/* The 104 cards' ranks in the unshuffled order of 4.4. */
static const i8 RANKS0[104] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
};

/* Deal `deal` (R2, 4.5) and play it out (stuck: see forced_line). */
static struct outcome play_deal(u64 deal, i64 redeals, i32 flags, i32 *stuck) {
    i8 ranks[104];
    i8 first[8];
    i32 rcount[13] = {0};
    i8 waste[104];
    u64 s[4];
    for (i32 i = 0; i < 104; i++)
        ranks[i] = RANKS0[i];
    seed_state(deal, s);
    shuffle(ranks, 104, s);
    for (i32 i = 0; i < 8; i++) {
        first[i] = ranks[i];
        rcount[ranks[8 + i]] += 1;
    }
    /* The stock is ranks[16...103]; it never grows, so the buffer can be `ranks`
     * itself, and after a redeal `waste` (104 slots) holds at most 88 cards. */
    return forced_line(first, rcount, ranks, 16, 104, waste, 0, 0, 0, 0, redeals, flags, s, stuck);
}

static inline void store(struct outcome o, i64 i, u8 *won, i8 *score, i32 *passes) {
    won[i] = (u8)o.won;
    score[i] = (i8)o.score;
    passes[i] = (i32)o.passes;
}

/* ------------------------------------------------------------------ exported */
static u64 arena[FL_ARENA_BYTES / 8];

/* The scratch arena of WebAssembly callers (8-byte aligned), and its size. */
FL_API(fl_arena) void *fl_arena(void) { return arena; }

/* out[0...3]: ABI version, sizeof(struct fl_job), arena bytes, pass bins (the stuck
 * passes of fl_tally_stuck are FL_STUCK_PASSES, part of ABI 2). */
FL_API(fl_info) void fl_info(i32 *out) {
    out[0] = FL_ABI;
    out[1] = (i32)sizeof(struct fl_job);
    out[2] = FL_ARENA_BYTES;
    out[3] = FL_PASS_BINS;
}

/* Deals rng[0] ... rng[0]+count-1 (mod 2^64) from their start: won, score, passes. */
FL_API(fl_play_range) void fl_play_range(const struct fl_job *job, u8 *won, i8 *score, i32 *passes) {
    const u64 start = job->rng[0];
    const i64 redeals = job->redeals_left;
    const i32 flags = job->flags;
    for (i32 i = 0; i < job->count; i++)
        store(play_deal(start + (u64)i, redeals, flags, 0), i, won, score, passes);
}

/* Deals deals[0...count-1] from their start. */
FL_API(fl_play_list) void fl_play_list(const struct fl_job *job, const u64 *deals, u8 *won, i8 *score,
                                       i32 *passes) {
    const i64 redeals = job->redeals_left;
    const i32 flags = job->flags;
    for (i32 i = 0; i < job->count; i++)
        store(play_deal(deals[i], redeals, flags, 0), i, won, score, passes);
}

/* Deals rng[0] ... rng[0]+count-1 counted, not listed; counts[] is added to:
 * [0] games, [1] wins, [2] games with FL_PASS_BINS passes or more (in no pass bin),
 * [3...107] games by score 0...104, then FL_PASS_BINS bins of games by passes, then
 * FL_PASS_BINS bins of won games by passes. */
FL_API(fl_tally_range) void fl_tally_range(const struct fl_job *job, u64 *counts) {
    const u64 start = job->rng[0];
    const i64 redeals = job->redeals_left;
    const i32 flags = job->flags;
    u64 *scores = counts + 3;
    u64 *passes_all = scores + 105;
    u64 *passes_won = passes_all + FL_PASS_BINS;
    for (i32 i = 0; i < job->count; i++) {
        struct outcome o = play_deal(start + (u64)i, redeals, flags, 0);
        counts[0] += 1;
        counts[1] += (u64)o.won;
        scores[o.score] += 1;
        if (o.passes >= 0 && o.passes < FL_PASS_BINS) {
            passes_all[o.passes] += 1;
            passes_won[o.passes] += (u64)o.won;
        } else {
            counts[2] += 1;
        }
    }
}

/* As fl_tally_range, for a game whose first passes are those of the games with fewer
 * redeals (a game with r redeals plays exactly the first r + 1 passes of the same deal
 * with more, 4.6), counting these too: after the fl_tally_range layout come
 * FL_STUCK_PASSES histograms of 105 scores, histogram r (0 ... FL_STUCK_PASSES-1)
 * counting the games that would not be won with r redeals, by the score they would stop
 * at (whether this game goes on past that point or stops there itself). Meant for
 * unlimited redeals: then one run counts every finite redeal count r too. A histogram r
 * with r >= the job's redeals is left alone (its games stop with fewer passes than
 * r + 1). */
FL_API(fl_tally_stuck) void fl_tally_stuck(const struct fl_job *job, u64 *counts) {
    const u64 start = job->rng[0];
    const i64 redeals = job->redeals_left;
    const i32 flags = job->flags;
    u64 *scores = counts + 3;
    u64 *passes_all = scores + 105;
    u64 *passes_won = passes_all + FL_PASS_BINS;
    u64 *hist = passes_won + FL_PASS_BINS;
    i32 stuck[FL_STUCK_PASSES];
    const i32 top = redeals < 0 || redeals >= FL_STUCK_PASSES ? FL_STUCK_PASSES : (i32)redeals;
    for (i32 i = 0; i < job->count; i++) {
        struct outcome o = play_deal(start + (u64)i, redeals, flags, stuck);
        counts[0] += 1;
        counts[1] += (u64)o.won;
        scores[o.score] += 1;
        if (o.passes >= 0 && o.passes < FL_PASS_BINS) {
            passes_all[o.passes] += 1;
            passes_won[o.passes] += (u64)o.won;
        } else {
            counts[2] += 1;
        }
        /* With r redeals: the game ends after min(r + 1, passes) passes. Past its own
         * end it stops where it stops (lost) or is not counted (won); before, it stops
         * where redeal r was made. */
        for (i32 r = 0; r < top; r++) {
            if ((i64)r + 1 < o.passes)
                hist[105 * r + stuck[r]] += 1;
            else if (!o.won)
                hist[105 * r + o.score] += 1;
        }
    }
}

/* A position played out as it stands, its redeals shuffled with the stream rng:
 * out[0...2] = won, score, passes. */
FL_API(fl_play_line) void fl_play_line(const struct fl_job *job, i32 *out) {
    i8 first[8];
    i32 rcount[13];
    i8 stock[104];
    i8 waste[104];
    u64 s[4] = {job->rng[0], job->rng[1], job->rng[2], job->rng[3]};
    for (i32 i = 0; i < 8; i++)
        first[i] = job->first[i];
    for (i32 i = 0; i < 13; i++)
        rcount[i] = job->rcount[i];
    for (i32 i = 0; i < job->stock_len; i++)
        stock[i] = job->stock[i];
    for (i32 i = 0; i < job->waste_len; i++)
        waste[i] = job->waste[i];
    struct outcome o = forced_line(first, rcount, stock, 0, job->stock_len, waste, job->waste_len, job->active,
                                   job->held, job->redeals_used, job->redeals_left, job->flags, s, 0);
    out[0] = o.won;
    out[1] = o.score;
    out[2] = (i32)o.passes;
}

/* A position played out as samples first_index ... first_index+count-1 (results at
 * 0...count-1), each from the sample's own stream (sample_stream of rng[0]): first the
 * unseen stock is shuffled with it (Fisher-Yates of the stock in turning order, 4.3),
 * then the forced line is played with the redeals continuing it (4.6). */
FL_API(fl_sample_lines) void fl_sample_lines(const struct fl_job *job, u8 *won, i8 *score, i32 *passes) {
    i8 first[8];
    i32 rcount[13];
    i8 stock[104];
    i8 waste[104];
    u64 s[4];
    const i32 sl = job->stock_len;
    const i32 wl = job->waste_len;
    for (i32 n = 0; n < job->count; n++) {
        for (i32 i = 0; i < 8; i++)
            first[i] = job->first[i];
        for (i32 i = 0; i < 13; i++)
            rcount[i] = job->rcount[i];
        for (i32 i = 0; i < sl; i++)
            stock[i] = job->stock[i];
        for (i32 i = 0; i < wl; i++)
            waste[i] = job->waste[i];
        sample_stream(job->rng[0], (u64)job->first_index + (u64)n, s);
        shuffle(stock, sl, s);
        store(forced_line(first, rcount, stock, 0, sl, waste, wl, job->active, job->held, job->redeals_used,
                          job->redeals_left, job->flags, s, 0),
              n, won, score, passes);
    }
}

/* The stream sample first_index of seed rng[0] starts from, into out[0...3]. */
FL_API(fl_sample_start) void fl_sample_start(const struct fl_job *job, u64 *out) {
    sample_stream(job->rng[0], (u64)job->first_index, out);
}

/* The pieces of the stream, for the tests: io[0] (a deal number) becomes its state. */
FL_API(fl_seed) void fl_seed(u64 *io) { seed_state(io[0], io); }

/* count outputs of the stream s (advanced). */
FL_API(fl_next) void fl_next(u64 *s, i32 count, u64 *out) {
    for (i32 i = 0; i < count; i++)
        out[i] = next(s);
}

/* count draws below bound[0] (0 < bound[0] < 2^32) from s (advanced). */
FL_API(fl_below) void fl_below(u64 *s, const u64 *bound, i32 count, u64 *out) {
    for (i32 i = 0; i < count; i++)
        out[i] = below(s, bound[0]);
}

/* a[0...len-1] shuffled with s (advanced). */
FL_API(fl_shuffle) void fl_shuffle(u64 *s, i8 *a, i32 len) { shuffle(a, len, s); }
