"""The engines as they were before issue 14 (compiled kernels), kept only as the reference the
differential tests compare the new engines against; deleted after the long soak."""
