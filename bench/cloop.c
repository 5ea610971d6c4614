/* A plain card-by-card Beggar-My-Neighbour player: the yardstick for the bit kernel.
 *
 * It plays games START .. START+COUNT-1 of a seed exactly as beggar.kernels.general deals them (the same
 * SplitMix64 streams, Lemire's bounded integers, Fisher-Yates two swaps per draw, dealt one
 * card at a time), two players, the first hand leads, the standard rules (oldest card first
 * under the stack, rule 8), one card per loop iteration: the way the fast native searchers play.
 * A game that reaches 20,000 cards is counted as capped (none do among random standard deals).
 *
 *   cc -O3 -march=native -o cloop cloop.c
 *   ./cloop DECK SEED COUNT [START]
 *
 * DECK is the pay value of each card of the deck in beggar's deck order, one digit each
 * (e.g. 52 digits for the standard deck). Prints: seconds of play, games, cards, tricks,
 * wins of the first hand, capped games, and the CPU seconds of play (this thread's own time,
 * which a busy shared machine disturbs less than the wall clock).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define SALT 0xD1B54A32D192ED03ULL
#define LOW32 0xFFFFFFFFULL
#define RING 256
#define BOUND 20000

static inline uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Lemire's unbiased map of the 32-bit draw r to [0, n); a rejection draws again from *state. */
static inline uint64_t bounded(uint64_t r, uint64_t n, uint64_t *state) {
    uint64_t m = r * n, low = m & LOW32;
    if (low < n) {
        uint64_t threshold = ((1ULL << 32) - n) % n;
        while (low < threshold) {
            *state += GOLDEN;
            m = (mix(*state) >> 32) * n;
            low = m & LOW32;
        }
    }
    return m >> 32;
}

static void shuffle(uint8_t *deck, int size, uint64_t state) {
    int i = size - 1;
    while (i > 0) {
        state += GOLDEN;
        uint64_t z = mix(state);
        uint64_t j = bounded(z >> 32, (uint64_t)(i + 1), &state);
        uint8_t t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        if (--i == 0) break;
        j = bounded(z & LOW32, (uint64_t)(i + 1), &state);
        t = deck[i]; deck[i] = deck[j]; deck[j] = t;
        --i;
    }
}

typedef struct { int cards, tricks, winner; } Result;

/* One game, card by card: each hand a ring buffer, the pile an array. */
static Result play(const uint8_t *deck, int size) {
    uint8_t hand[2][RING], pile[RING];
    int head[2] = {0, 0}, count[2] = {0, 0};
    for (int k = 0; k < size; k++) hand[k & 1][count[k & 1]++] = deck[k];
    int player = 0, owed = 0, creditor = 0, plen = 0, cards = 0, tricks = 0;
    for (;;) {
        int q = player;
        uint8_t c = hand[q][head[q]];
        head[q] = (head[q] + 1) & (RING - 1);
        count[q]--;
        pile[plen++] = c;
        cards++;
        if (c) {
            owed = c;
            creditor = q;
            player = q ^ 1;
        } else if (owed) {
            if (--owed == 0) {
                int w = creditor, tail = head[w] + count[w];
                for (int k = 0; k < plen; k++) hand[w][(tail + k) & (RING - 1)] = pile[k];
                count[w] += plen;
                plen = 0;
                tricks++;
                player = w;
                if (count[w ^ 1] == 0) return (Result){cards, tricks, w};
                if (cards >= BOUND) return (Result){cards, tricks, -2};
                continue;
            }
        } else {
            player = q ^ 1;
        }
        if (count[player] == 0) return (Result){cards, tricks + 1, player ^ 1};
        if (cards >= BOUND) return (Result){cards, tricks, -2};
    }
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s DECK SEED COUNT [START]\n", argv[0]);
        return 2;
    }
    int size = (int)strlen(argv[1]);
    if (size < 2 || size > RING - 1) {
        fprintf(stderr, "cloop: DECK must give 2 to 255 pay values\n");
        return 2;
    }
    uint8_t values[RING], deck[RING];
    for (int k = 0; k < size; k++) values[k] = (uint8_t)(argv[1][k] - '0');
    uint64_t seed = strtoull(argv[2], NULL, 10);
    long count = strtol(argv[3], NULL, 10);
    long start = argc > 4 ? strtol(argv[4], NULL, 10) : 0;
    long long cards = 0, tricks = 0, first_wins = 0, capped = 0;
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    uint64_t base = mix(seed);
    for (long g = start; g < start + count; g++) {
        memcpy(deck, values, (size_t)size);
        shuffle(deck, size, mix(base + (uint64_t)g * SALT + GOLDEN));
        Result r = play(deck, size);
        cards += r.cards;
        tricks += r.tricks;
        first_wins += r.winner == 0;
        capped += r.winner == -2;
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
    printf("%.6f %ld %lld %lld %lld %lld %.6f\n", seconds, count, cards, tricks, first_wins, capped, cpu);
    return 0;
}
