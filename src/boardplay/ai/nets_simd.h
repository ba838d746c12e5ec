/* The network's inner loops (``nets.pyx``): gathering a layer's non-zero inputs and adding their
 * weight rows. The dense layer is compiled for three instruction sets, chosen once at load time
 * by the CPU that runs it (GCC's ``target_clones``): the build stays baseline x86-64 (SSE2) and
 * still runs everywhere, while a machine with AVX2 or AVX-512 adds 8 or 16 floats of a row at a
 * time instead of 4. Contraction into fused multiply-adds is off, so every clone rounds each
 * product and each sum as the SSE2 code does: the outputs are bitwise the same on every machine,
 * and so are the seeded searches. So is GCC's unroll-and-jam, which otherwise fuses two inputs'
 * rows into one scalar loop and leaves the layer unvectorised (2-3 times slower). Other
 * compilers and architectures get the plain functions.
 *
 * A layer's input is first gathered (its non-zero entries and their indices, ascending), then
 * each gathered entry adds its row: the same products summed in the same order as a dense loop
 * that skips zeros, without a branch per input. That branch was taken at random (half a hidden
 * layer's ReLU outputs are zero) and its mispredictions cost more than the arithmetic; the
 * gathers below branch on nothing but the loop (a compact row's zero 8-byte words aside, which
 * are most of it: Potlatch's 537 bytes hold about a dozen non-zero ones). */
#ifndef BOARDPLAY_NETS_SIMD_H
#define BOARDPLAY_NETS_SIMD_H

#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define BP_LAYER_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off", "no-loop-unroll-and-jam")
#else
#define BP_LAYER_CLONES
#endif

/* The non-zero entries of x[0..n) into values, their indices into index (ascending); returns
 * their count. Each entry is written and the count advanced only past a non-zero one, so the
 * loop has no data-dependent branch (values and index need room for n). */
static int bp_gather(const float *x, int n, float *values, int *index)
{
    int i, count = 0;
    for (i = 0; i < n; i++) {
        values[count] = x[i];
        index[count] = i;
        count += x[i] != 0.0f;
    }
    return count;
}

/* bp_gather for a row of bytes, each worth byte * scale, skipping zero 8-byte words whole. */
static int bp_gather_bytes(const unsigned char *raw, int n, float scale, float *values,
                           int *index)
{
    int i = 0, j, count = 0;
    uint64_t word;
    for (; i < n; i += 8) {
        if (i + 8 <= n) {
            memcpy(&word, raw + i, 8);
            if (word == 0)
                continue;
        }
        for (j = i; j < i + 8 && j < n; j++) {
            values[count] = (float)raw[j] * scale;
            index[count] = j;
            count += raw[j] != 0;
        }
    }
    return count;
}

/* The outputs a layer sums at a time: held in registers across all the gathered inputs (four
 * AVX-512 registers, eight AVX2; SSE2 needs all sixteen and spills some), where a whole row of
 * outputs would go through memory at every input, each sum waiting on its own store and load.
 * Four AVX-512 registers rather than two: each register's additions wait on its last one, and
 * more chains at once keep the adders busy (Proteus's value pass 1.43 -> 1.18-1.32 us,
 * Potlatch's 0.415 -> 0.371 us). A layer's last outputs go BP_TAIL at a time (a trunk 32 or 96
 * wide stays in registers), then one pass of their own. */
#define BP_BLOCK 64
#define BP_TAIL 32

/* out[start..start+width) from the gathered inputs, the sums in registers (width a constant
 * where this is inlined, so the compiler sizes the registers to it). The bias is copied whole:
 * copied float by float, GCC 12 built it from some 170 instructions of lane inserts a block. */
static inline __attribute__((always_inline)) void
bp_block(const float *values, const int *index, int count, const float *w, const float *b,
         int n_out, int relu, float *out, int start, int width)
{
    int j, k;
    float sums[BP_BLOCK];
    memcpy(sums, b + start, (size_t)width * sizeof(float));
    for (k = 0; k < count; k++) {
        const float xk = values[k];
        const float *row = w + (long)index[k] * n_out + start;
        for (j = 0; j < width; j++)
            sums[j] += xk * row[j];
    }
    for (j = 0; j < width; j++)
        out[start + j] = relu && sums[j] < 0.0f ? 0.0f : sums[j];
}

/* out = b + sum over k of values[k] * row index[k] of w (w is n_in x n_out, row-major), then
 * with relu every negative output set to 0 (a select the compiler vectorises): a layer from its
 * gathered inputs. Every output adds its products in the same order whatever the block it
 * falls in, so the blocks' sizes change no bit of the result. */
BP_LAYER_CLONES
static void bp_layer_gathered(const float *values, const int *index, int count, const float *w,
                              const float *b, int n_out, int relu, float *out)
{
    int j, k, start = 0;
    for (; start + BP_BLOCK <= n_out; start += BP_BLOCK)
        bp_block(values, index, count, w, b, n_out, relu, out, start, BP_BLOCK);
    for (; start + BP_TAIL <= n_out; start += BP_TAIL)
        bp_block(values, index, count, w, b, n_out, relu, out, start, BP_TAIL);
    if (start == n_out)
        return;
    for (j = start; j < n_out; j++)
        out[j] = b[j];
    for (k = 0; k < count; k++) {
        const float xk = values[k];
        const float *row = w + (long)index[k] * n_out;
        for (j = start; j < n_out; j++)
            out[j] += xk * row[j];
    }
    if (relu)
        for (j = start; j < n_out; j++)
            out[j] = out[j] < 0.0f ? 0.0f : out[j];
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#pragma GCC pop_options
#endif

#endif
