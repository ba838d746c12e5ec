/* The network's dense layer (``nets.pyx``'s ``_layer``) compiled for three instruction sets,
 * chosen once at load time by the CPU that runs it (GCC's ``target_clones``): the build stays
 * baseline x86-64 (SSE2) and still runs everywhere, while a machine with AVX2 or AVX-512 adds
 * 8 or 16 floats of a row at a time instead of 4. Contraction into fused multiply-adds is off,
 * so every clone rounds each product and each sum as the SSE2 code does: the outputs are
 * bitwise the same on every machine, and so are the seeded searches. Other compilers and
 * architectures get the one plain function. */
#ifndef BOARDPLAY_NETS_SIMD_H
#define BOARDPLAY_NETS_SIMD_H

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define BP_LAYER_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#else
#define BP_LAYER_CLONES
#endif

/* out = b + x @ w (w is n_in x n_out, row-major); zero inputs are skipped. */
BP_LAYER_CLONES
static void bp_layer(const float *x, int n_in, const float *w, const float *b, int n_out,
                     float *out)
{
    int i, j;
    for (j = 0; j < n_out; j++)
        out[j] = b[j];
    for (i = 0; i < n_in; i++) {
        const float xi = x[i];
        const float *row = w + (long)i * n_out;
        if (xi == 0.0f)
            continue;
        for (j = 0; j < n_out; j++)
            out[j] += xi * row[j];
    }
}

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#pragma GCC pop_options
#endif

#endif
