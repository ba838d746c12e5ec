"""Type stub for the compiled ``boardplay.games.proteus.repetition`` (see its ``.pyx``). Its key
set is C only (``repetition.pxd``, cimported by the kernel), so Python sees no name of its own;
stubtest holds it to that."""
