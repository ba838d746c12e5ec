/* montana.c: a native random-playout program for Montana, the yardstick boardplay's compiled
 * kernel is measured against (issue 51; docs/performance.md, "The native yardstick").
 *
 * It plays Montana under the rules spec (../shared/rules/montana.md) with the shipped component
 * data (the spec's section 14, src/boardplay/games/montana/data/components.json), numbering
 * actions and chance outcomes exactly as boardplay does (games/montana/layout.pxd), so that a
 * game recorded by the engine can be replayed here step by step.
 *
 *   montana bench PLAYERS GAMES [SEED] [OPTIONS]   uniform-random whole games, one JSON line
 *   montana check                                   engine records on stdin, one JSON line
 *
 * OPTIONS is a bit set of the non-default rule options: 1 recruit_grain=additional,
 * 2 build_adjacent_any, 4 canteen_after_final, 8 tiebreak_money=coins; the board seed and the
 * start player are chance nodes and max_turns is 400, as in `boardplay bench`.
 *
 * "Uniform random" is what the engine's random playout means: at each decision a uniform choice
 * among the legal actions, at each chance node the engine's distribution (a spin is uniform over
 * the 8 segments, the start seat over the players, the board seed over 0..4095).
 *
 * The record format of `check` (little-endian int64 words, written by
 * tests/games/montana/test_montana_native.py): per game a header
 *   MAGIC, players, options, max_turns, steps
 * then per step
 *   action, count, fingerprint
 * where count is the number of legal actions (negated at a chance node: the number of
 * outcomes) and fingerprint the sum, modulo 2^64, of KEY[id] over the legal ids (or outcome
 * ids), KEY being the SplitMix64 stream seeded with MAGIC. The game ends with
 *   won_mask, ended_by, turn_number, then per seat 0..3:
 *   tiles left, silver, cattle, canteens, goods, workers.
 * At every step the program's own legal set must have the same count and fingerprint and
 * contain the action; at the end every number of the trailer must agree.
 *
 * C99, no dependencies: cc -O3 -march=native -std=c99 -o montana montana.c
 */
#define _POSIX_C_SOURCE 199309L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ----- the action space (layout.pxd) -------------------------------------------------------- */
enum {
    MAX_WHEEL = 16, TRADE_SILVER = 6, TRADE_KINDS = 11,
    WSETS = 69, PARTS = 14, PICKS = 83, UPAIRS = 28,
    MAX_ROWS = 6, MAX_COLUMNS = 6, MAX_BANK = 8, MAX_AREA = 6,
    GRID_RADIUS = 7, GRID_WIDTH = 15, GRID_CELLS = 225,
    RECRUIT = 0, CITY = 1, STOP = 2, PASS = 3, CANTEEN = 4, END = 5, RIGHT_NONE = 6,
    PUSH = 7,
    TRADE = PUSH + MAX_WHEEL,
    WILD = TRADE + TRADE_KINDS,
    RETURN = WILD + WSETS,
    RIGHT = RETURN + WSETS,
    PLACE = RIGHT + PARTS,
    REWARD_UP = PLACE + MAX_ROWS * MAX_COLUMNS,
    REWARD_PICK = REWARD_UP + UPAIRS,
    WORK_BANK = REWARD_PICK + PICKS,
    WORK_PROD = WORK_BANK + MAX_BANK * WSETS,
    BUILD = WORK_PROD + 4 * MAX_AREA * PARTS,
    NUM_ACTIONS = BUILD + GRID_CELLS,
    CHANCE_SPIN = 0, CHANCE_START = 16, CHANCE_BOARD = 20, BOARD_OUTCOMES = 4096,
    NUM_CHANCE = CHANCE_BOARD + BOARD_OUTCOMES,
    /* the padded axial window: a border of one hex around the grid */
    PAD = GRID_RADIUS + 1, PW = 2 * PAD + 1, PCELLS = PW * PW,
    K_NONE = 0, K_PLAIN = 1, K_MOUNTAIN = 2, K_LAKE = 3,
    HOME = -1, TURN_END = -1, CHANCE = -1, TERMINAL = -4,
    GRAIN_GOOD = 4, PUMPKIN_GOOD = 5,
    NBANK = 4, NSLOTS = NBANK + 4 * 2 * 3, NROWS = 4, NCOLS = 4, WHEEL_N = 8,
    MAX_BUILDS = 3, LINE_LENGTH = 4, WORKER_CAP = 8, PER_COLOUR = 18, MAX_PUSH = 7,
    BOARD_ATTEMPTS = 100000, MAX_LEGAL = 1024,
};
enum { BOARD, SETUP_SPIN, START, SPIN, SETUP_WILD, MAIN, PUSH_STAGE, WILD_STAGE, OVERFLOW,
       RIGHT_STAGE, PLACE_STAGE, REWARD, BUILD_NEXT, END_STAGE, OVER };
enum { M_NONE, M_RECRUIT, M_BANK, M_PRODUCTION, M_CITY, M_BUILD };
enum { NOT_ENDED, BY_TRIGGER, BY_MAX_TURNS };
enum { OPT_ADDITIONAL = 1, OPT_ADJACENT_ANY = 2, OPT_CANTEEN_AFTER_FINAL = 4, OPT_COINS = 8 };

#define MAGIC 0x4D4F4E54LL /* "MONT" */

/* ----- the component data (rules spec section 14) ------------------------------------------ */
static const int SETTLEMENTS[5] = {0, 0, 12, 10, 8};
static const int START_SILVER[4] = {3, 4, 5, 6};
static const int GOODS_SUPPLY[5][6] = {{0}, {0}, {12, 8, 12, 8, 12, 12},
                                       {15, 10, 15, 10, 16, 16}, {18, 12, 18, 12, 20, 20}};
static const int START_GOODS[6] = {1, 0, 1, 0, 1, 1};
static const int START_CATTLE = 1, CATTLE_TOTAL = 24;
static const int BANK_WORKERS[NBANK] = {1, 1, 2, 3};
static const int BANK_SILVER[NBANK] = {3, 4, 8, 12};
/* production areas: mine, quarry, grain field, farm (colour = area index) */
static const int AREA_GOOD[4] = {0, 2, 4, 5};
static const int SPACE_COST[3] = {1, 3, 6};
static const int SPACE_YIELD[4][3] = {{1, 2, 3}, {1, 2, 3}, {2, 3, 4}, {1, 2, 3}};
static const int AREA_RIGHT = 1;
static const int COLUMN_COST[NCOLS] = {1, 2, 3, 4};
static const int ROW_CATTLE[NROWS] = {1, 0, 0, 0};
static const int ROW_SILVER[NROWS] = {0, 0, 0, 2};
static const int ROW_UPGRADES[NROWS] = {3, 0, 2, 1};
static const int ROW_PICKS[NROWS] = {0, 3, 0, 0};
static const int PICK_FROM_B = (1 << 0) | (1 << 2) | (1 << 4); /* c, s, g */
static const int UP_SMALL[2] = {0, 2}, UP_LARGE[2] = {1, 3};
/* wheel: fixed worker counts per colour and wild symbols per segment */
static const char *WHEEL[WHEEL_N][2] = {{"Cu", "St"}, {"W", "Gr"}, {"Gr", "Pu"}, {"W", "Cu"},
                                        {"Cu", "Gr"}, {"W", "Pu"}, {"St", "Pu"}, {"W", "St"}};
static const int TRADE_GOODS[4] = {0, 2, 4, 5}; /* sorted */
static const int TRADE_SILVER_GAIN = 3;
static const char *TILES[12][7] = {
    {"c+s+g", "c+p", "MOUNTAIN", "g+p+p", "LAKE+canteen", "S+g K", "s+g"},
    {"c+s+g+p D", "s+p", "LAKE+canteen", "c+g", "MOUNTAIN", "C+s+p", "c+g K"},
    {"s+g+p", "MOUNTAIN", "c+s", "S+c+g+p D", "g+p K", "LAKE+canteen", "c+g+p"},
    {"c+g+p", "LAKE+canteen", "s+s+g", "c+p K", "C+s+g+p D", "s+g", "c+S+p"},
    {"s+p", "c+s+g+p D", "g+p", "LAKE+canteen", "C+g K", "c+s+p", "c+s+g"},
    {"c+s+p", "g+p", "c+S+g", "s+g K", "LAKE+canteen", "c+c+p", "S+C+g+p"},
    {"c+g", "s+g+p", "MOUNTAIN", "c+S+p K", "s+p", "c+s+g+p D", "C+g+p"},
    {"s+g", "c+s+p", "c+p", "C+g+p K", "MOUNTAIN", "S+s+g", "c+s+g+S D"},
    {"c+s+g", "C+p", "s+g", "MOUNTAIN", "c+g+p+p D", "g+p K", "c+s+S"},
    {"g+p", "c+s", "C+s+g K", "s+g+p", "c+g+S+p", "MOUNTAIN", "c+s+g+p D"},
    {"c+p", "MOUNTAIN", "s+S+g+p D", "c+g", "c+s+p K", "c+g+p", "C+s+g"},
    {"s+g+p", "c+g", "S+p", "c+s+g+g", "g+p K", "MOUNTAIN", "C+c+p"}};
static const int LAYOUT[5][10][2] = {
    {{0}}, {{0}},
    {{0, 0}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}},
    {{0, 0}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}, {1, 1}},
    {{0, 0}, {1, 0}, {0, 1}, {-1, 1}, {-1, 0}, {0, -1}, {1, -1}, {1, 1}, {-2, 1}, {1, -2}}};
static const int TILES_IN_PLAY[5] = {0, 0, 6, 8, 10};
static const int DIRS[6][2] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};
static const int MIN_START_PLAIN = 4;

/* ----- tables derived once ------------------------------------------------------------------ */
static int SET_W[WSETS][4], SET_SIZE[WSETS], BY_SIZE[5][WSETS], BY_SIZE_N[5];
static int PICK_G[PICKS][6], PICK_SIZE[PICKS], PAIR[UPAIRS][2];
static int GRID_OF[PCELLS], STEP[6], AXIS_DIR[3][2], AXIS_UP[3];
static int WHEEL_FIXED[WHEEL_N][4], WHEEL_WILDS[WHEEL_N];
static int8_t TILE_KIND[12][7], TILE_FLAG[12][7], TILE_COST[12][7][6];
static int REWARD_PICK_LIST[PICKS], REWARD_PICK_N; /* row B's legal picks (the same for all) */
static uint64_t PART_MASK[4]; /* per area colour: the part sets of 1 area worker or any 2 */
static uint64_t HAS[4][5];    /* sets 0..63 needing at most v workers of colour c */
static uint64_t SIZE_MASK[4]; /* sets 0..63 of 1, 2 or 3 workers */
/* the upgrade declarations of a row allowing `most` upgrades to a holder of h0 small copper and
 * h1 small stone (counts above 3 allow what 3 allows) */
static int16_t UP_LIST[4][4][4][UPAIRS];
static int UP_N[4][4][4];

/* combinations with replacement of `kinds` things, `size` at a time, in Python's order */
static void multisets(int kinds, int size, int first, int depth, int *counts, int (*out)[6],
                      int width, int *n) {
    if (depth == size) {
        for (int k = 0; k < width; k++) out[*n][k] = counts[k];
        (*n)++;
        return;
    }
    for (int k = first; k < kinds; k++) {
        counts[k]++;
        multisets(kinds, size, k, depth + 1, counts, out, width, n);
        counts[k]--;
    }
}

static void init_static(void) {
    int buf[128][6], counts[6] = {0}, n = 0;
    for (int size = 1; size <= 4; size++) multisets(4, size, 0, 0, counts, buf, 4, &n);
    if (n != WSETS) { fprintf(stderr, "worker sets: %d\n", n); exit(2); }
    for (int i = 0; i < WSETS; i++) {
        SET_SIZE[i] = 0;
        for (int k = 0; k < 4; k++) { SET_W[i][k] = buf[i][k]; SET_SIZE[i] += buf[i][k]; }
        BY_SIZE[SET_SIZE[i]][BY_SIZE_N[SET_SIZE[i]]++] = i;
    }
    n = 0;
    for (int size = 1; size <= 3; size++) multisets(6, size, 0, 0, counts, buf, 6, &n);
    if (n != PICKS) { fprintf(stderr, "pick sets: %d\n", n); exit(2); }
    for (int i = 0; i < PICKS; i++) {
        PICK_SIZE[i] = 0;
        for (int k = 0; k < 6; k++) { PICK_G[i][k] = buf[i][k]; PICK_SIZE[i] += buf[i][k]; }
    }
    n = 0;
    for (int a = 0; a <= 6; a++)
        for (int b = 0; b <= 6; b++)
            if (a + b <= 6) { PAIR[n][0] = a; PAIR[n][1] = b; n++; }
    for (int i = 0; i < PICKS; i++) {
        int ok = PICK_SIZE[i] == ROW_PICKS[1];
        for (int g = 0; g < 6; g++)
            if (PICK_G[i][g] && !((PICK_FROM_B >> g) & 1)) ok = 0;
        if (ok) REWARD_PICK_LIST[REWARD_PICK_N++] = REWARD_PICK + i;
    }
    for (int most = 0; most < 4; most++)
        for (int h0 = 0; h0 < 4; h0++)
            for (int h1 = 0; h1 < 4; h1++)
                for (int i = 0; i < UPAIRS; i++)
                    if (PAIR[i][0] + PAIR[i][1] <= most && PAIR[i][0] <= h0 && PAIR[i][1] <= h1)
                        UP_LIST[most][h0][h1][UP_N[most][h0][h1]++] = (int16_t)(REWARD_UP + i);
    for (int i = 0; i < 64; i++) {
        if (SET_SIZE[i] <= 3) SIZE_MASK[SET_SIZE[i]] |= 1ULL << i;
        for (int c = 0; c < 4; c++)
            for (int v = SET_W[i][c]; v <= 4; v++) HAS[c][v] |= 1ULL << i;
    }
    for (int c = 0; c < 4; c++)
        for (int i = 0; i < PARTS; i++)
            if (SET_SIZE[i] == 2 || SET_W[i][c] == 1) PART_MASK[c] |= 1ULL << i;
    for (int i = 0; i < PCELLS; i++) GRID_OF[i] = -1;
    for (int g = 0; g < GRID_CELLS; g++)
        GRID_OF[(g / GRID_WIDTH + 1) * PW + g % GRID_WIDTH + 1] = g;
    for (int d = 0; d < 6; d++) STEP[d] = DIRS[d][0] + DIRS[d][1] * PW;
    for (int a = 0; a < 3; a++) {
        AXIS_DIR[a][0] = a;
        AXIS_DIR[a][1] = a + 3;
        AXIS_UP[a] = STEP[a] > 0 ? a : a + 3;
    }
    static const char *COLOURS[4] = {"Cu", "St", "Gr", "Pu"};
    for (int s = 0; s < WHEEL_N; s++)
        for (int j = 0; j < 2; j++) {
            if (strcmp(WHEEL[s][j], "W") == 0) { WHEEL_WILDS[s]++; continue; }
            for (int c = 0; c < 4; c++)
                if (strcmp(WHEEL[s][j], COLOURS[c]) == 0) WHEEL_FIXED[s][c]++;
        }
    for (int t = 0; t < 12; t++)
        for (int h = 0; h < 7; h++) {
            const char *spec = TILES[t][h];
            if (strcmp(spec, "MOUNTAIN") == 0) { TILE_KIND[t][h] = K_MOUNTAIN; continue; }
            if (strncmp(spec, "LAKE", 4) == 0) {
                TILE_KIND[t][h] = K_LAKE;
                TILE_FLAG[t][h] = strstr(spec, "canteen") ? 4 : 0;
                continue;
            }
            TILE_KIND[t][h] = K_PLAIN;
            const char *p = spec;
            for (; *p && *p != ' '; p++) {
                static const char CODES[] = "cCsSgp";
                const char *at = strchr(CODES, *p);
                if (*p != '+' && at) TILE_COST[t][h][at - CODES]++;
            }
            for (; *p; p++) {
                if (*p == 'D') TILE_FLAG[t][h] |= 1;
                if (*p == 'K') TILE_FLAG[t][h] |= 2;
            }
        }
}

/* ----- random numbers ----------------------------------------------------------------------- */
static inline uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

typedef struct { uint64_t s[4]; } Xoshiro;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t xnext(Xoshiro *r) { /* xoshiro256** */
    uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return out;
}

static inline int below(Xoshiro *r, int n) { /* uniform in 0..n-1 (Lemire, 32-bit) */
    return (int)(((xnext(r) >> 32) * (uint64_t)n) >> 32);
}

/* ----- the landscape (spec 2.10) ------------------------------------------------------------ */
typedef struct {
    int seed, count, start, nplains, ncattle, nlakes;
    int16_t cells[GRID_CELLS], plains[GRID_CELLS];
    int8_t kind[PCELLS], dbl[PCELLS], cattle[PCELLS], canteen[PCELLS];
    uint8_t cost[PCELLS][8];  /* six goods, two zero bytes: one 64-bit load per hex */
    /* the plains other than the start hex by index 0..nplains-1 (at most 64), as bit sets */
    int8_t plain_of[PCELLS];     /* a cell's plain index, -1 for none */
    uint64_t near_start;         /* the plains next to the start hex */
    uint64_t near[64];           /* the plains next to each plain */
    uint64_t price[64];          /* each plain's cost, a good a byte */
    int16_t action[64];          /* each plain's build action */
} Land;

static void make_land(int n, int seed, Land *land) {
    uint64_t rng = (uint64_t)seed;
    int order[12], start = PAD * PW + PAD, attempt = 0, nlayout = TILES_IN_PLAY[n];
    int16_t stack[GRID_CELLS];
    int8_t seen[PCELLS];
    for (;;) {
        attempt++;
        memset(land->kind, 0, sizeof land->kind);
        for (int i = 0; i < 12; i++) order[i] = i;
        for (int i = 11; i > 0; i--) {
            int j = (int)(splitmix(&rng) % (uint64_t)(i + 1)), x = order[i];
            order[i] = order[j];
            order[j] = x;
        }
        for (int i = 0; i < nlayout; i++) {
            int rot = (int)(splitmix(&rng) % 6), t = order[i];
            int li = LAYOUT[n][i][0], lj = LAYOUT[n][i][1];
            int centre = (li + 3 * lj + PAD) * PW + (2 * li - lj) + PAD;
            for (int k = 0; k < 7; k++) {
                int cell = k == 0 ? centre : centre + STEP[(k - 1 + rot) % 6];
                land->kind[cell] = TILE_KIND[t][k];
                land->dbl[cell] = TILE_FLAG[t][k] & 1;
                land->cattle[cell] = (TILE_FLAG[t][k] >> 1) & 1;
                land->canteen[cell] = (TILE_FLAG[t][k] >> 2) & 1;
                for (int c = 0; c < 6; c++) land->cost[cell][c] = (uint8_t)TILE_COST[t][k][c];
            }
        }
        memset(seen, 0, sizeof seen);
        seen[start] = 1;
        stack[0] = (int16_t)start;
        int top = 1, reached = 0, plains = 0, near = 0, ok;
        while (top > 0) {
            int c = stack[--top];
            for (int k = 0; k < 6; k++) {
                int nb = c + STEP[k];
                if (land->kind[nb] == K_PLAIN && !seen[nb]) {
                    seen[nb] = 1;
                    reached++;
                    stack[top++] = (int16_t)nb;
                }
            }
        }
        for (int c = 0; c < PCELLS; c++) plains += land->kind[c] == K_PLAIN;
        ok = land->kind[start] == K_PLAIN && reached + 1 == plains;
        for (int k = 0; k < 6; k++) {
            int nb = start + STEP[k];
            if (land->kind[nb] == K_LAKE && land->canteen[nb]) ok = 0;
            if (land->kind[nb] == K_PLAIN) near++;
        }
        if (ok && near >= MIN_START_PLAIN) break;
        if (attempt > BOARD_ATTEMPTS) { fprintf(stderr, "no board for seed %d\n", seed); exit(2); }
    }
    land->seed = seed;
    land->start = start;
    land->count = land->nplains = land->ncattle = land->nlakes = 0;
    for (int c = 0; c < PCELLS; c++) {
        if (land->kind[c] == K_NONE) {
            land->dbl[c] = land->cattle[c] = land->canteen[c] = 0;
            continue;
        }
        land->cells[land->count++] = (int16_t)c;
        if (land->kind[c] == K_PLAIN) {
            if (c != start) land->plains[land->nplains++] = (int16_t)c;
            land->canteen[c] = 0;
            land->ncattle += land->cattle[c];
        } else {
            land->cattle[c] = land->dbl[c] = 0;
            if (land->kind[c] == K_LAKE) land->nlakes += land->canteen[c];
            else land->canteen[c] = 0;
        }
    }
    if (land->nplains > 64) { fprintf(stderr, "more than 64 plains\n"); exit(2); }
    memset(land->plain_of, -1, sizeof land->plain_of);
    for (int i = 0; i < land->nplains; i++) land->plain_of[land->plains[i]] = (int8_t)i;
    land->near_start = 0;
    for (int i = 0; i < land->nplains; i++) {
        int c = land->plains[i];
        land->near[i] = 0;
        for (int d = 0; d < 6; d++) {
            int nb = c + STEP[d];
            if (nb == start) land->near_start |= 1ULL << i;
            else if (land->plain_of[nb] >= 0) land->near[i] |= 1ULL << land->plain_of[nb];
        }
        memcpy(&land->price[i], land->cost[c], 8);
        land->action[i] = (int16_t)(BUILD + GRID_OF[c]);
    }
}

/* Every board of a table (4096 seeds) is dealt once and kept: a board is a pure function of
 * the seed, so a game only points at its board. */
static Land *BOARDS[5][BOARD_OUTCOMES];

static const Land *board_of(int n, int seed) {
    if (!BOARDS[n][seed]) {
        BOARDS[n][seed] = calloc(1, sizeof(Land));
        if (!BOARDS[n][seed]) { fprintf(stderr, "out of memory\n"); exit(2); }
        make_land(n, seed, BOARDS[n][seed]);
    }
    return BOARDS[n][seed];
}

/* ----- the position ------------------------------------------------------------------------- */
typedef struct {
    int n, options, max_turns;
    int stage, decider, main, setup_seat, setup_spin_no, spin, push, wilds, excess;
    int after_overflow, prod_area, prod_space, builds_paid, opp, chain, cursor;
    int start_player, active, turn_number, extra_turn, trigger_by, final_pending;
    int won, ended_by, supply_cattle, canteens_used;
    int received[4], regular_turns[4], supply_workers[4], supply_goods[6];
    int silver[4], goods[4][6], cattle[4], canteens[4], workers[4][4], tiles[4], contractor[4];
    int slots[NSLOTS][4];
    uint32_t used;           /* the worker-board parts holding workers */
    uint64_t open;           /* the plains holding no settlement */
    uint64_t reach[4];       /* the plains next to the start hex or a settlement of the seat */
    const Land *b;
    int8_t owner[PCELLS], hex_cattle[PCELLS], canteen_on[PCELLS];
    uint16_t lined[PCELLS]; /* bit 3 * player + axis: in a rewarded line */
} Pos;

static void new_game(Pos *s, int n, int options, int max_turns) {
    memset(s, 0, offsetof(Pos, owner));
    memset(s->owner, -1, sizeof s->owner);
    memset(s->hex_cattle, 0, sizeof s->hex_cattle);
    memset(s->canteen_on, 0, sizeof s->canteen_on);
    memset(s->lined, 0, sizeof s->lined);
    s->n = n;
    s->options = options;
    s->max_turns = max_turns;
    s->stage = BOARD;
    s->decider = CHANCE;
    s->won = -1;
    for (int c = 0; c < 4; c++) s->supply_workers[c] = PER_COLOUR;
    for (int p = 0; p < 4; p++) {
        s->tiles[p] = p < n ? SETTLEMENTS[n] : 0;
        s->contractor[p] = HOME;
    }
    s->start_player = s->active = s->trigger_by = -1;
    s->spin = s->push = s->prod_area = s->prod_space = -1;
    s->after_overflow = TURN_END;
}

static inline int count_workers(const Pos *s, int p) {
    const int *w = s->workers[p];
    return w[0] + w[1] + w[2] + w[3];
}

static inline int holds(const Pos *s, int p, int i) {
    const int *w = s->workers[p];
    return w[0] >= SET_W[i][0] && w[1] >= SET_W[i][1] && w[2] >= SET_W[i][2] &&
           w[3] >= SET_W[i][3];
}

static inline int slot_used(const Pos *s, int slot) { return (s->used >> slot) & 1; }

static inline void fill_slot(Pos *s, int slot, int ms) {
    for (int c = 0; c < 4; c++) s->slots[slot][c] = SET_W[ms][c];
    s->used |= 1u << slot;
}

/* the shortage rule (spec 6): while short, every holder returns one, round after round */
static int take(Pos *s, int *supply, int *hand, int stride, int player, int need) {
    while (*supply < need) {
        int returned = 0;
        for (int p = 0; p < s->n; p++)
            if (hand[p * stride] > 0) { hand[p * stride]--; (*supply)++; returned = 1; }
        if (!returned) break;
    }
    int got = need <= *supply ? need : *supply;
    *supply -= got;
    hand[player * stride] += got;
    return got;
}

static inline int take_goods(Pos *s, int p, int kind, int need) {
    return take(s, &s->supply_goods[kind], &s->goods[0][kind], 6, p, need);
}

static inline int take_workers(Pos *s, int p, int colour, int need) {
    return take(s, &s->supply_workers[colour], &s->workers[0][colour], 4, p, need);
}

static inline int row_holder(const Pos *s, int row) {
    for (int p = 0; p < s->n; p++) {
        int c = s->contractor[p];
        if (c != HOME && c / NCOLS == row) return p;
    }
    return -1;
}

/* ----- legal actions ------------------------------------------------------------------------ */
static inline int trades(const Pos *s, int *out, int k) {
    int p = s->decider;
    if (p != s->active || s->cattle[p] < 1) return k;
    for (int i = 0; i < 4; i++) out[k++] = TRADE + TRADE_GOODS[i];
    for (int i = 0; i < 5; i++) out[k++] = TRADE + TRADE_SILVER + i;
    return k;
}

/* the worker sets 0..63 (those of 1 to 3 workers among them) that p holds, as a bit set */
static inline uint64_t held_sets(const Pos *s, int p) {
    const int *w = s->workers[p];
    return HAS[0][w[0] < 4 ? w[0] : 4] & HAS[1][w[1] < 4 ? w[1] : 4] &
           HAS[2][w[2] < 4 ? w[2] : 4] & HAS[3][w[3] < 4 ? w[3] : 4];
}

static inline int select_bit(uint64_t m, int r) { /* the index of the r-th set bit */
    while (r-- > 0) m &= m - 1;
    return __builtin_ctzll(m);
}

/* A MAIN stage's choices, counted per kind, so that a uniform pick needs no list: the fixed
 * ones (recruit, City, trades), each open bank space's worker sets, each production area's
 * open affordable spaces times its part sets, and the build sites. */
typedef struct {
    int total, fixed, trades, nsites;
    int bank_n[NBANK], part_n[4], spaces[4];
    uint64_t bank_sets[NBANK], parts[4];
    int16_t sites[64];
} Choices;

/* the build sites p may take: next to the start hex or their own settlements (anyone's with
 * build_adjacent_any), empty, and paid for by the goods in hand */
static int sites(const Pos *s, int p, int16_t *out) {
    const Land *b = s->b;
    int k = 0;
    if (s->tiles[p] == 0) return 0;
    uint64_t near = s->options & OPT_ADJACENT_ANY
                        ? s->reach[0] | s->reach[1] | s->reach[2] | s->reach[3]
                        : s->reach[p];
    /* each good in hand + 128 in its own byte, less the cost: the top bits stay set exactly
     * when the hand covers the cost */
    const uint64_t TOP = 0x808080808080ULL;
    uint64_t hand = TOP;
    for (int g = 0; g < 6; g++)
        hand += (uint64_t)(s->goods[p][g] < 127 ? s->goods[p][g] : 127) << (8 * g);
    for (uint64_t m = near & s->open; m; m &= m - 1) {
        int i = __builtin_ctzll(m);
        if (((hand - b->price[i]) & TOP) == TOP) out[k++] = b->action[i];
    }
    return k;
}

static void main_choices(const Pos *s, Choices *ch) {
    int p = s->active, workers = count_workers(s, p), total;
    ch->trades = s->cattle[p] > 0 ? 9 : 0;
    total = ch->fixed = 2 + ch->trades;
    if (workers) {
        uint64_t held = held_sets(s, p);
        for (int b = 0; b < NBANK; b++) {
            int size = BANK_WORKERS[b];
            ch->bank_sets[b] = slot_used(s, b) || size > workers ? 0 : held & SIZE_MASK[size];
            total += ch->bank_n[b] = __builtin_popcountll(ch->bank_sets[b]);
        }
        /* the spaces p can pay for: costs 1, 3, 6 */
        int silver = s->silver[p];
        int paid = silver >= SPACE_COST[2] ? 7 : silver >= SPACE_COST[1] ? 3 : silver >= SPACE_COST[0];
        for (int a = 0; a < 4; a++) {
            uint32_t left = s->used >> (NBANK + 6 * a);
            int free = (~left & 1) | ((~left >> 1) & 2) | ((~left >> 2) & 4);
            ch->parts[a] = held & PART_MASK[a];
            ch->part_n[a] = __builtin_popcountll(ch->parts[a]);
            ch->spaces[a] = ch->part_n[a] ? free & paid : 0;
            total += ch->part_n[a] * __builtin_popcount((unsigned)ch->spaces[a]);
        }
    } else {
        memset(ch->bank_n, 0, sizeof ch->bank_n);
        memset(ch->spaces, 0, sizeof ch->spaces);
    }
    ch->nsites = sites(s, p, ch->sites);
    ch->total = total + ch->nsites;
}

/* the r-th choice (0 <= r < total), in the order recruit, City, trades, bank, production,
 * build */
static int main_pick(const Choices *ch, int r) {
    if (r < 2) return r == 0 ? RECRUIT : CITY;
    r -= 2;
    if (r < ch->trades) return r < 4 ? TRADE + TRADE_GOODS[r] : TRADE + TRADE_SILVER + (r - 4);
    r -= ch->trades;
    for (int b = 0; b < NBANK; b++) {
        if (r < ch->bank_n[b]) return WORK_BANK + b * WSETS + select_bit(ch->bank_sets[b], r);
        r -= ch->bank_n[b];
    }
    for (int a = 0; a < 4; a++)
        for (int sp = 0; sp < 3; sp++) {
            if (!((ch->spaces[a] >> sp) & 1)) continue;
            if (r < ch->part_n[a])
                return WORK_PROD + (a * MAX_AREA + sp) * PARTS + select_bit(ch->parts[a], r);
            r -= ch->part_n[a];
        }
    return ch->sites[r];
}

static int build_options(const Pos *s, int p, int *out, int k) {
    int16_t found[64];
    int n = sites(s, p, found);
    for (int i = 0; i < n; i++) out[k++] = found[i];
    return k;
}

static int place_spots(const Pos *s, int p, int *out, int k) {
    int pumpkins = s->goods[p][PUMPKIN_GOOD], first[NROWS] = {0, 0, 0, 0};
    for (int q = 0; q < s->n; q++) {
        int c = s->contractor[q];
        if (c != HOME) first[c / NCOLS] = c % NCOLS + 1;
    }
    for (int row = 0; row < NROWS; row++) {
        int lo = first[row];
        for (int col = lo; col < NCOLS; col++)
            if (COLUMN_COST[col] <= pumpkins) out[k++] = PLACE + row * MAX_COLUMNS + col;
    }
    return k;
}

static int reward_options(const Pos *s, int p, int *out, int k) {
    int row = s->contractor[p] / NCOLS, most = ROW_UPGRADES[row];
    if (ROW_PICKS[row]) {
        for (int i = 0; i < REWARD_PICK_N; i++) out[k++] = REWARD_PICK_LIST[i];
        return k;
    }
    int h0 = s->goods[p][UP_SMALL[0]], h1 = s->goods[p][UP_SMALL[1]];
    h0 = h0 < 3 ? h0 : 3;
    h1 = h1 < 3 ? h1 : 3;
    for (int i = 0; i < UP_N[most][h0][h1]; i++) out[k++] = UP_LIST[most][h0][h1][i];
    return k;
}

/* the decider's legal actions (a decision stage) */
static int legal(const Pos *s, int *out) {
    int p = s->decider, k = 0;
    switch (s->stage) {
    case MAIN: {
        Choices ch;
        main_choices(s, &ch);
        for (int r = 0; r < ch.total; r++) out[r] = main_pick(&ch, r);
        return ch.total;
    }
    case PUSH_STAGE: {
        int most = s->goods[p][GRAIN_GOOD] < MAX_PUSH ? s->goods[p][GRAIN_GOOD] : MAX_PUSH;
        for (int i = 0; i <= most; i++) out[i] = PUSH + i;
        return trades(s, out, most + 1);
    }
    case WILD_STAGE:
    case SETUP_WILD:
        for (int i = 0; i < BY_SIZE_N[s->wilds]; i++) out[i] = WILD + BY_SIZE[s->wilds][i];
        return BY_SIZE_N[s->wilds];
    case OVERFLOW:
        for (int i = 0; i < BY_SIZE_N[s->excess]; i++)
            if (holds(s, p, BY_SIZE[s->excess][i])) out[k++] = RETURN + BY_SIZE[s->excess][i];
        return k;
    case RIGHT_STAGE: {
        out[0] = RIGHT_NONE;
        k = 1;
        uint64_t mask = PART_MASK[s->prod_area];
        for (int i = 0; i < PARTS; i++)
            if (((mask >> i) & 1) && holds(s, p, i)) out[k++] = RIGHT + i;
        return k;
    }
    case PLACE_STAGE:
        if (!(s->opp == 0 && !s->chain)) out[k++] = PASS;
        k = trades(s, out, k);
        return place_spots(s, p, out, k);
    case REWARD:
        k = trades(s, out, 0);
        return reward_options(s, p, out, k);
    case BUILD_NEXT:
        out[0] = STOP;
        k = trades(s, out, 1);
        return build_options(s, p, out, k);
    case END_STAGE:
        if (s->canteens[p] > 0) out[k++] = CANTEEN;
        out[k++] = END;
        return trades(s, out, k);
    }
    return 0;
}

/* the chance outcomes of a chance stage: count and first id (all uniform) */
static inline int chance_count(const Pos *s, int *first) {
    if (s->stage == BOARD) { *first = CHANCE_BOARD; return BOARD_OUTCOMES; }
    if (s->stage == START) { *first = CHANCE_START; return s->n; }
    *first = CHANCE_SPIN;
    return WHEEL_N;
}

/* ----- turns (spec 4.1, 8) ------------------------------------------------------------------ */
static void begin_turn(Pos *s, int player, int extra) {
    s->active = player;
    s->extra_turn = extra;
    s->turn_number++;
    if (!extra) s->regular_turns[player]++;
    s->main = M_NONE;
    s->builds_paid = 0;
    s->stage = MAIN;
    s->decider = player;
}

static int tiebreak_two(const Pos *s, int p) {
    int money = s->silver[p];
    if (s->options & OPT_COINS) money = money / 5 + money % 5;
    int total = money + count_workers(s, p);
    for (int k = 0; k < 6; k++) total += s->goods[p][k];
    return total;
}

static int winners(const Pos *s) {
    int best1 = -1, best2 = -1, mask = 0;
    for (int p = 0; p < s->n; p++) {
        if (s->tiles[p] != 0) continue;
        int k1 = s->cattle[p] + s->canteens[p], k2 = tiebreak_two(s, p);
        if (k1 > best1 || (k1 == best1 && k2 > best2)) { best1 = k1; best2 = k2; mask = 0; }
        if (k1 == best1 && k2 == best2) mask |= 1 << p;
    }
    return mask;
}

static void finish(Pos *s, int reason) {
    s->ended_by = reason;
    s->stage = OVER;
    s->decider = s->active;
    s->won = winners(s);
}

static inline void clear_slot(Pos *s, int slot) {
    for (int c = 0; c < 4; c++) {
        s->supply_workers[c] += s->slots[slot][c];
        s->slots[slot][c] = 0;
    }
    s->used &= ~(1u << slot);
}

static void cleanup(Pos *s) {
    const uint32_t BANK = (1u << NBANK) - 1, LEFT = 0x15; /* an area's three left parts */
    if ((s->used & BANK) == BANK)
        for (int b = 0; b < NBANK; b++) clear_slot(s, b);
    for (int a = 0; a < 4; a++) {
        int base = NBANK + 6 * a;
        if (((s->used >> base) & LEFT) == LEFT)
            for (int slot = base; slot < base + 6; slot++)
                if ((s->used >> slot) & 1) clear_slot(s, slot);
    }
}

static void end_turn(Pos *s) {
    int p = s->active, n = s->n, capped = s->turn_number >= s->max_turns;
    cleanup(s);
    s->main = M_NONE;
    s->spin = s->push = s->prod_area = s->prod_space = -1;
    s->builds_paid = 0;
    if (s->trigger_by >= 0 && p == (s->start_player - 1 + n) % n) {
        if ((s->options & OPT_CANTEEN_AFTER_FINAL) && s->canteens[p] > 0 && !capped) {
            s->final_pending = 1;
            s->stage = END_STAGE;
            s->decider = p;
            return;
        }
        finish(s, BY_TRIGGER);
        return;
    }
    if (capped) { finish(s, BY_MAX_TURNS); return; }
    if (s->cattle[p] > 0 || s->canteens[p] > 0) {
        s->stage = END_STAGE;
        s->decider = p;
        return;
    }
    begin_turn(s, (p + 1) % n, 0);
}

static void apply_end(Pos *s, int action) {
    int p = s->active;
    if (action == CANTEEN) {
        s->canteens[p]--;
        s->canteens_used++;
        s->final_pending = 0;
        begin_turn(s, p, 1);
    } else if (s->final_pending) {
        s->final_pending = 0;
        finish(s, BY_TRIGGER);
    } else {
        begin_turn(s, (p + 1) % s->n, 0);
    }
}

/* ----- setup (spec 3) ----------------------------------------------------------------------- */
static void start_game(Pos *s, int seat) {
    s->start_player = seat;
    for (int i = 0; i < s->n; i++) s->silver[(seat + i) % s->n] = START_SILVER[i];
    begin_turn(s, seat, 0);
}

static void setup_board(Pos *s, int seed) {
    int n = s->n;
    const Land *b = s->b = board_of(n, seed);
    for (int i = 0; i < b->count; i++) {
        int c = b->cells[i];
        s->hex_cattle[c] = b->cattle[c];
        s->canteen_on[c] = b->canteen[c];
    }
    for (int k = 0; k < 6; k++) {
        s->supply_goods[k] = GOODS_SUPPLY[n][k];
        for (int p = 0; p < n; p++) s->goods[p][k] = START_GOODS[k];
    }
    for (int p = 0; p < n; p++) s->cattle[p] = START_CATTLE;
    s->open = b->nplains == 64 ? ~0ULL : (1ULL << b->nplains) - 1;
    for (int p = 0; p < 4; p++) s->reach[p] = b->near_start;
    s->supply_cattle = CATTLE_TOTAL - b->ncattle - n * START_CATTLE;
    s->setup_seat = s->setup_spin_no = 0;
    s->decider = CHANCE;
    s->stage = SETUP_SPIN;
}

static void setup_receive(Pos *s) {
    int seat = s->setup_seat;
    for (int c = 0; c < 4; c++) {
        if (s->received[c]) take_workers(s, seat, c, s->received[c]);
        s->received[c] = 0;
    }
    s->wilds = 0;
    s->spin = -1;
    if (++s->setup_spin_no == 2) {
        s->setup_spin_no = 0;
        s->setup_seat++;
    }
    if (s->setup_seat == s->n) {
        s->stage = START;
        s->decider = CHANCE;
    } else {
        s->stage = SETUP_SPIN;
        s->decider = CHANCE;
    }
}

static void setup_spin(Pos *s, int segment) {
    s->spin = segment;
    for (int c = 0; c < 4; c++) s->received[c] = WHEEL_FIXED[segment][c];
    s->wilds = WHEEL_WILDS[segment];
    if (s->wilds) {
        s->stage = SETUP_WILD;
        s->decider = s->setup_seat;
    } else {
        setup_receive(s);
    }
}

/* ----- main actions (spec 4, 5) ------------------------------------------------------------- */
static inline void pay_workers(Pos *s, int p, int ms) {
    for (int c = 0; c < 4; c++) s->workers[p][c] -= SET_W[ms][c];
}

static void check_cap(Pos *s, int resume) {
    int p = s->active, excess = count_workers(s, p) - WORKER_CAP;
    if (excess > 0) {
        s->excess = excess;
        s->after_overflow = resume;
        s->stage = OVERFLOW;
        s->decider = p;
    } else if (resume == TURN_END) {
        end_turn(s);
    }
}

static void receive_recruit(Pos *s) {
    int p = s->active;
    for (int c = 0; c < 4; c++) {
        if (s->received[c]) take_workers(s, p, c, s->received[c]);
        s->received[c] = 0;
    }
    s->wilds = 0;
    check_cap(s, TURN_END);
}

static void apply_push(Pos *s, int steps) {
    int p = s->active, final = (s->spin + steps) % WHEEL_N;
    s->push = steps;
    s->goods[p][GRAIN_GOOD] -= steps;
    s->supply_goods[GRAIN_GOOD] += steps;
    for (int c = 0; c < 4; c++) s->received[c] = WHEEL_FIXED[final][c];
    s->wilds = WHEEL_WILDS[final];
    if ((s->options & OPT_ADDITIONAL) && steps >= 1) {
        for (int c = 0; c < 4; c++) s->received[c] += WHEEL_FIXED[s->spin][c];
        s->wilds += WHEEL_WILDS[s->spin];
    }
    if (s->wilds) {
        s->stage = WILD_STAGE;
        s->decider = p;
    } else {
        receive_recruit(s);
    }
}

static void apply_return(Pos *s, int ms) {
    int p = s->active, resume = s->after_overflow;
    pay_workers(s, p, ms);
    for (int c = 0; c < 4; c++) s->supply_workers[c] += SET_W[ms][c];
    s->excess = 0;
    s->after_overflow = TURN_END;
    if (resume == TURN_END) {
        end_turn(s);
    } else {
        s->stage = resume;
        s->decider = p;
    }
}

static void trade(Pos *s, int kind) {
    int p = s->active;
    s->cattle[p]--;
    s->supply_cattle++;
    if (kind < TRADE_SILVER) {
        take_goods(s, p, kind, 1);
    } else if (kind == TRADE_SILVER) {
        s->silver[p] += TRADE_SILVER_GAIN;
    } else {
        take_workers(s, p, kind - TRADE_SILVER - 1, 1);
        check_cap(s, s->stage);
    }
}

static void apply_right(Pos *s, int action) {
    int p = s->active, area = s->prod_area;
    if (action != RIGHT_NONE) {
        int ms = action - RIGHT;
        pay_workers(s, p, ms);
        fill_slot(s, NBANK + 6 * area + 2 * s->prod_space + 1, ms);
        take_goods(s, p, AREA_GOOD[area], AREA_RIGHT);
    }
    end_turn(s);
}

/* the City auction (spec 4.3.3) */
static void next_reward(Pos *s) {
    int n = s->n;
    while (s->cursor < n) {
        int p = (s->active + s->cursor) % n, spot = s->contractor[p];
        if (spot != HOME) {
            int cost = COLUMN_COST[spot % NCOLS];
            if (s->goods[p][PUMPKIN_GOOD] >= cost) {
                s->goods[p][PUMPKIN_GOOD] -= cost;
                s->supply_goods[PUMPKIN_GOOD] += cost;
                s->stage = REWARD;
                s->decider = p;
                return;
            }
            s->contractor[p] = HOME;
        }
        s->cursor++;
    }
    for (int p = 0; p < 4; p++) s->contractor[p] = HOME;
    s->opp = 0;
    end_turn(s);
}

static void advance_auction(Pos *s) {
    s->chain = 0;
    s->opp++;
    if (s->opp < s->n) {
        s->decider = (s->active + s->opp) % s->n;
        s->stage = PLACE_STAGE;
        return;
    }
    s->cursor = 0;
    next_reward(s);
}

static void apply_place(Pos *s, int action) {
    int p = s->decider;
    if (action == PASS) {
        s->contractor[p] = HOME;
        advance_auction(s);
        return;
    }
    int row = (action - PLACE) / MAX_COLUMNS, col = (action - PLACE) % MAX_COLUMNS;
    int holder = row_holder(s, row);
    s->contractor[p] = row * NCOLS + col;
    if (holder >= 0) {
        s->contractor[holder] = HOME;
        s->chain = 1;
        s->decider = holder;
    } else {
        advance_auction(s);
    }
}

static void apply_reward(Pos *s, int action) {
    int p = s->decider, row = s->contractor[p] / NCOLS;
    if (ROW_CATTLE[row]) take(s, &s->supply_cattle, &s->cattle[0], 1, p, ROW_CATTLE[row]);
    s->silver[p] += ROW_SILVER[row];
    if (action >= REWARD_PICK) {
        const int *pick = PICK_G[action - REWARD_PICK];
        for (int k = 0; k < 6; k++)
            if (pick[k]) take_goods(s, p, k, pick[k]);
    } else {
        for (int i = 0; i < 2; i++) {
            int need = PAIR[action - REWARD_UP][i];
            if (need) {
                int got = take_goods(s, p, UP_LARGE[i], need);
                s->goods[p][UP_SMALL[i]] -= got;
                s->supply_goods[UP_SMALL[i]] += got;
            }
        }
    }
    s->cursor++;
    next_reward(s);
}

/* building (spec 4.4) */
static int line_bonus(Pos *s, int p, int cell) {
    int found = 0;
    for (int axis = 0; axis < 3; axis++) {
        int length = 1, low = cell;
        for (int j = 0; j < 2; j++) {
            int step = STEP[AXIS_DIR[axis][j]], cur = cell + step;
            while (s->owner[cur] == p) {
                length++;
                if (cur < low) low = cur;
                cur += step;
            }
        }
        if (length < LINE_LENGTH) continue;
        int bit = 1 << (3 * p + axis), up = STEP[AXIS_UP[axis]], fresh = 1, cur = low;
        for (int j = 0; j < length; j++, cur += up)
            if (s->lined[cur] & bit) fresh = 0;
        if (!fresh) continue;
        cur = low;
        for (int j = 0; j < length; j++, cur += up) s->lined[cur] |= (uint16_t)bit;
        found = 1;
    }
    return found;
}

static void finish_build(Pos *s) {
    s->silver[s->active] += MAX_BUILDS - s->builds_paid; /* 1 silver per build not made */
    end_turn(s);
}

static void build_step(Pos *s, int action) {
    int p = s->active, g = action - BUILD, cell = (g / GRID_WIDTH + 1) * PW + g % GRID_WIDTH + 1;
    const Land *b = s->b;
    for (int k = 0; k < 6; k++) {
        s->goods[p][k] -= b->cost[cell][k];
        s->supply_goods[k] += b->cost[cell][k];
    }
    s->owner[cell] = (int8_t)p;
    s->open &= ~(1ULL << b->plain_of[cell]);
    s->reach[p] |= b->near[(int)b->plain_of[cell]];
    s->tiles[p]--;
    s->builds_paid++;
    if (s->hex_cattle[cell]) {
        s->hex_cattle[cell] = 0;
        s->cattle[p]++;
    }
    for (int d = 0; d < 6; d++) {
        int nb = cell + STEP[d];
        if (s->canteen_on[nb]) {
            s->canteen_on[nb] = 0;
            s->canteens[p]++;
        }
    }
    int extra = b->dbl[cell] ? 1 : 0;
    if (line_bonus(s, p, cell)) extra++;
    if (extra > s->tiles[p]) extra = s->tiles[p];
    s->tiles[p] -= extra;
    if (s->tiles[p] == 0 && s->trigger_by < 0) s->trigger_by = p;
    if (s->tiles[p] == 0 || s->builds_paid >= MAX_BUILDS) {
        finish_build(s);
    } else {
        s->stage = BUILD_NEXT;
        s->decider = p;
    }
}

static void apply_main(Pos *s, int action) {
    int p = s->active;
    if (action == RECRUIT) {
        s->main = M_RECRUIT;
        s->stage = SPIN;
        s->decider = CHANCE;
    } else if (action == CITY) {
        s->main = M_CITY;
        take_goods(s, p, PUMPKIN_GOOD, 1);
        s->opp = s->chain = s->cursor = 0;
        s->stage = PLACE_STAGE;
        s->decider = p;
    } else if (action >= WORK_BANK && action < WORK_PROD) {
        int space = (action - WORK_BANK) / WSETS, ms = (action - WORK_BANK) % WSETS;
        s->main = M_BANK;
        pay_workers(s, p, ms);
        fill_slot(s, space, ms);
        s->silver[p] += BANK_SILVER[space];
        end_turn(s);
    } else if (action >= WORK_PROD && action < BUILD) {
        int cell = (action - WORK_PROD) / PARTS, ms = (action - WORK_PROD) % PARTS;
        int area = cell / MAX_AREA, sp = cell % MAX_AREA;
        s->main = M_PRODUCTION;
        pay_workers(s, p, ms);
        s->silver[p] -= SPACE_COST[sp];
        fill_slot(s, NBANK + 6 * area + 2 * sp, ms);
        take_goods(s, p, AREA_GOOD[area], SPACE_YIELD[area][sp]);
        s->prod_area = area;
        s->prod_space = sp;
        if (count_workers(s, p) >= 2 || s->workers[p][area] >= 1) {
            s->stage = RIGHT_STAGE;
            s->decider = p;
        } else {
            end_turn(s);
        }
    } else {
        s->main = M_BUILD;
        s->builds_paid = 0;
        build_step(s, action);
    }
}

static void apply(Pos *s, int action) {
    int stage = s->stage;
    if (stage <= SPIN) {
        if (stage == BOARD) setup_board(s, action - CHANCE_BOARD);
        else if (stage == SETUP_SPIN) setup_spin(s, action - CHANCE_SPIN);
        else if (stage == START) start_game(s, action - CHANCE_START);
        else {
            s->spin = action - CHANCE_SPIN;
            s->stage = PUSH_STAGE;
            s->decider = s->active;
        }
        return;
    }
    if (action >= TRADE && action < WILD) { trade(s, action - TRADE); return; }
    switch (stage) {
    case MAIN: apply_main(s, action); break;
    case PUSH_STAGE: apply_push(s, action - PUSH); break;
    case WILD_STAGE:
        for (int c = 0; c < 4; c++) s->received[c] += SET_W[action - WILD][c];
        receive_recruit(s);
        break;
    case SETUP_WILD:
        for (int c = 0; c < 4; c++) s->received[c] += SET_W[action - WILD][c];
        setup_receive(s);
        break;
    case OVERFLOW: apply_return(s, action - RETURN); break;
    case RIGHT_STAGE: apply_right(s, action); break;
    case PLACE_STAGE: apply_place(s, action); break;
    case REWARD: apply_reward(s, action); break;
    case BUILD_NEXT:
        if (action == STOP) finish_build(s);
        else build_step(s, action);
        break;
    case END_STAGE: apply_end(s, action); break;
    }
}

/* ----- bench: uniform-random whole games ---------------------------------------------------- */
static double now(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double root(double x) { /* Newton's square root (no libm) */
    double r = x > 1.0 ? x : 1.0;
    for (int i = 0; i < 200; i++) r = 0.5 * (r + x / r);
    return r;
}

static int bench(int n, long games, uint64_t seed, int options) {
    static Pos s;
    int buf[MAX_LEGAL];
    long actions = 0, draws = 0, shared = 0, capped = 0, wins[4] = {0, 0, 0, 0};
    double sum_sq = 0.0;
    Xoshiro rng;
    uint64_t sm = seed;
    for (int i = 0; i < 4; i++) rng.s[i] = splitmix(&sm);
    double wall = now(CLOCK_MONOTONIC), cpu = now(CLOCK_PROCESS_CPUTIME_ID);
    for (long g = 0; g < games; g++) {
        long steps = 0;
        new_game(&s, n, options, 400);
        while (s.stage != OVER) {
            int action;
            if (s.stage <= SPIN) {
                int first, count = chance_count(&s, &first);
                action = first + below(&rng, count);
            } else if (s.stage == MAIN) {
                Choices ch;
                main_choices(&s, &ch);
                action = main_pick(&ch, below(&rng, ch.total));
            } else {
                action = buf[below(&rng, legal(&s, buf))];
            }
            apply(&s, action);
            steps++;
        }
        actions += steps;
        sum_sq += (double)steps * (double)steps;
        if (s.ended_by == BY_MAX_TURNS) capped++;
        if (s.won == 0) draws++;
        else if (s.won & (s.won - 1)) shared++;
        else wins[__builtin_ctz((unsigned)s.won)]++;
    }
    cpu = now(CLOCK_PROCESS_CPUTIME_ID) - cpu;
    wall = now(CLOCK_MONOTONIC) - wall;
    double mean = games ? (double)actions / (double)games : 0.0;
    double var = games > 1 ? (sum_sq - mean * mean * (double)games) / (double)(games - 1) : 0.0;
    printf("{\"game\": \"montana\", \"players\": %d, \"options\": %d, \"games\": %ld, "
           "\"actions\": %ld, \"cpu_seconds\": %.6f, \"wall_seconds\": %.6f, "
           "\"games_per_s\": %.1f, \"actions_per_s\": %.1f, \"mean_length\": %.3f, "
           "\"length_sd\": %.3f, \"wins\": [",
           n, options, games, actions, cpu, wall, cpu > 0 ? (double)games / cpu : 0.0,
           cpu > 0 ? (double)actions / cpu : 0.0, mean, var > 0 ? root(var) : 0.0);
    for (int p = 0; p < n; p++) printf(p ? ", %ld" : "%ld", wins[p]);
    printf("], \"shared\": %ld, \"draws\": %ld, \"capped\": %ld}\n", shared, draws, capped);
    return 0;
}

/* ----- check: replay the engine's records --------------------------------------------------- */
static uint64_t KEY[NUM_CHANCE];

static int read_words(int64_t *out, size_t count) {
    return fread(out, sizeof(int64_t), count, stdin) == count;
}

static int check(void) {
    static Pos s;
    int buf[MAX_LEGAL];
    long games = 0, steps = 0, decisions = 0, chance = 0, failures = 0;
    uint64_t sm = (uint64_t)MAGIC;
    for (int i = 0; i < NUM_CHANCE; i++) KEY[i] = splitmix(&sm);
    int64_t head[5];
    while (read_words(head, 5)) {
        if (head[0] != MAGIC || head[1] < 2 || head[1] > 4) {
            fprintf(stderr, "record %ld: bad header\n", games);
            return 2;
        }
        int n = (int)head[1], failed = 0;
        long length = (long)head[4];
        new_game(&s, n, (int)head[2], (int)head[3]);
        for (long i = 0; i < length; i++) {
            int64_t step[3];
            if (!read_words(step, 3)) { fprintf(stderr, "record %ld: truncated\n", games); return 2; }
            if (failed) continue;
            int action = (int)step[0], count, member = 0;
            uint64_t sum = 0;
            if (s.stage == OVER) {
                count = 0;
            } else if (s.stage <= SPIN) {
                int first;
                count = -chance_count(&s, &first);
                for (int j = 0; j < -count; j++) {
                    sum += KEY[first + j];
                    member |= first + j == action;
                }
                chance++;
            } else {
                count = legal(&s, buf);
                for (int j = 0; j < count; j++) {
                    sum += KEY[buf[j]];
                    member |= buf[j] == action;
                }
                decisions++;
            }
            if (count != step[1] || sum != (uint64_t)step[2] || !member) {
                fprintf(stderr, "record %ld step %ld (stage %d, decider %d): engine %lld legal, "
                        "here %d; fingerprints %s; action %d %s\n", games, i, s.stage, s.decider,
                        (long long)step[1], count, sum == (uint64_t)step[2] ? "agree" : "differ",
                        action, member ? "legal here" : "not legal here");
                failed = 1;
                continue;
            }
            apply(&s, action);
            steps++;
        }
        int64_t tail[3 + 4 * 6], mine[3 + 4 * 6];
        if (!read_words(tail, 3 + 4 * 6)) { fprintf(stderr, "record %ld: no result\n", games); return 2; }
        if (!failed) {
            mine[0] = s.stage == OVER ? s.won : -1;
            mine[1] = s.ended_by;
            mine[2] = s.turn_number;
            for (int p = 0; p < 4; p++) {
                int64_t *m = mine + 3 + 6 * p;
                int goods = 0;
                for (int k = 0; k < 6; k++) goods += s.goods[p][k];
                m[0] = s.tiles[p];
                m[1] = s.silver[p];
                m[2] = s.cattle[p];
                m[3] = s.canteens[p];
                m[4] = goods;
                m[5] = count_workers(&s, p);
            }
            for (int j = 0; j < 3 + 4 * 6; j++)
                if (mine[j] != tail[j]) {
                    fprintf(stderr, "record %ld: result word %d is %lld in the engine, %lld here\n",
                            games, j, (long long)tail[j], (long long)mine[j]);
                    failed = 1;
                    break;
                }
        }
        failures += failed;
        games++;
        if (failures >= 10) break;
    }
    printf("{\"games\": %ld, \"steps\": %ld, \"decisions\": %ld, \"chance\": %ld, "
           "\"failures\": %ld}\n", games, steps, decisions, chance, failures);
    return failures ? 1 : 0;
}

int main(int argc, char **argv) {
    init_static();
    if (argc >= 4 && strcmp(argv[1], "bench") == 0) {
        int n = atoi(argv[2]);
        long games = atol(argv[3]);
        uint64_t seed = argc >= 5 ? strtoull(argv[4], NULL, 10) : 1;
        int options = argc >= 6 ? atoi(argv[5]) : 0;
        if (n < 2 || n > 4 || games < 0) {
            fprintf(stderr, "players are 2, 3 or 4\n");
            return 2;
        }
        return bench(n, games, seed, options);
    }
    if (argc == 2 && strcmp(argv[1], "check") == 0) return check();
    fprintf(stderr, "usage: %s bench PLAYERS GAMES [SEED] [OPTIONS] | %s check < records\n",
            argv[0], argv[0]);
    return 2;
}
