# cython: language_level=3
"""What both compiled searches keep beside their pools of nodes (``search.pyx``'s UCT and
``puct.pyx``'s PUCT): the kernels a simulation plays on, the path it descends, the game's
position keys for ``repetition``, the chance buffers and the generator. Their nodes differ
(PUCT's carry a prior), so each keeps its own pool; ``tree.pyx`` says why this is a class."""

from libc.stdint cimport uint64_t

from boardplay.core.kernel cimport Kernel, Rng

cdef enum:
    MAX_SEATS = 4
    MAX_SPACE = 32767  # actions and chance outcomes fit a node's 16-bit fields


cdef class Tree:
    cdef Kernel root_kernel  # the position the root stands for
    cdef Kernel work  # the simulation's position
    cdef Kernel probe  # one-move trials (decisive moves, a turn's best completion)
    cdef int* path  # the nodes of the simulation under way, root first
    cdef int* owners  # for each: the seat whose return it adds
    cdef uint64_t* path_keys  # for each: its position key (with ``repetition``)
    cdef int path_capacity
    cdef uint64_t* history  # the game's position keys so far, sorted
    cdef int history_count
    cdef int* outcomes  # a node's actions or chance outcomes as they are listed
    cdef double* probabilities  # the chance outcomes' probabilities
    cdef int players
    cdef int space  # the longest list a node can have: actions or chance outcomes
    cdef Rng rng
    cdef public double contempt
    cdef public bint decisive
    cdef public bint repetition
    cdef public int seat
    cdef int push(self, int depth, int node, int owner) except -1
    cdef void drawn(self, double* reward) noexcept
    cdef void ended(self, Kernel k, double* reward) noexcept
