"""Type stub for the compiled ``boardplay.games.proteus.encode`` (see its ``.pyx``). Its functions
are C only (``encode.pxd``: the observation tensor and the feature vector, cimported by the
kernel), so Python sees no name of its own; stubtest holds it to that."""
