/* A plain C loop over consecutive balanced deals: the yardstick for `beggar exhaust`.
 *
 * Starting from the deal given as pay values (one digit a card, the leading hand's first),
 * it steps COUNT deals in index order by next permutation (std::next_permutation's
 * algorithm) and plays each card by card, two players, the first hand leads, the standard
 * rules (oldest card first under the stack, rule 8): the loop of bench/cloop.c. A game that
 * reaches 20,000 cards is counted as capped (a never-ending deal; exhaust detects those exactly).
 *
 *   cc -O3 -march=native -o cexhaust cexhaust.c
 *   ./cexhaust DEAL COUNT
 *
 * Prints: seconds, deals, cards, tricks, wins of the first hand, capped deals, CPU seconds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING 256
#define BOUND 20000

typedef struct { int cards, tricks, winner; } Result;

/* One game, card by card: hand 0 is deck[0..lead-1], hand 1 the rest, top card first. */
static Result play(const uint8_t *deck, int size, int lead) {
    uint8_t hand[2][RING], pile[RING];
    int head[2] = {0, 0}, count[2] = {0, 0};
    for (int k = 0; k < size; k++) {
        int h = k < lead ? 0 : 1;
        hand[h][count[h]++] = deck[k];
    }
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

static int next_permutation(uint8_t *a, int n) {
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1]) i--;
    if (i < 0) return 0;
    int j = n - 1;
    while (a[j] <= a[i]) j--;
    uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    for (int x = i + 1, y = n - 1; x < y; x++, y--) { t = a[x]; a[x] = a[y]; a[y] = t; }
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DEAL COUNT\n", argv[0]);
        return 2;
    }
    int size = (int)strlen(argv[1]);
    if (size < 2 || size > 64) {
        fprintf(stderr, "cexhaust: DEAL must give 2 to 64 pay values\n");
        return 2;
    }
    uint8_t deck[RING];
    for (int k = 0; k < size; k++) deck[k] = (uint8_t)(argv[1][k] - '0');
    long count = strtol(argv[2], NULL, 10);
    int lead = size - size / 2;
    long long cards = 0, tricks = 0, first_wins = 0, capped = 0;
    long played = 0;
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
    for (; played < count; played++) {
        Result r = play(deck, size, lead);
        cards += r.cards;
        tricks += r.tricks;
        first_wins += r.winner == 0;
        capped += r.winner == -2;
        if (!next_permutation(deck, size)) { played++; break; }
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    double cpu = (double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec);
    printf("%.6f %ld %lld %lld %lld %lld %.6f\n", seconds, played, cards, tricks, first_wins, capped, cpu);
    return 0;
}
