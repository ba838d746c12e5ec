"""Today's pure-Python engines, kept unchanged as the reference the compiled kernels are
checked against (the differential tests); deleted once the long soak has found no difference."""
