# cython: language_level=3
"""What both compiled searches share (``search.pyx``'s UCT and ``puct.pyx``'s PUCT): the pool of
nodes and its Python face, the run loop, the kernels a simulation plays on, the path it
descends, the game's position keys for ``repetition``, the chance buffers and the generator.
What one search keeps per node beyond ``Node`` (UCT's squared returns, PUCT's priors) lies in
arrays of its own beside the pool, index for index; ``tree.pyx`` says why this is a class."""

from libc.stdint cimport uint64_t

from boardplay.core.kernel cimport Kernel, Rng

cdef enum:
    MAX_SEATS = 4
    MAX_SPACE = 32767  # actions and chance outcomes fit a node's 16-bit fields
    UNSEEN = -99  # the player of a node no simulation has reached yet
    CHECK_EVERY = 32  # simulations between two checks whether the search may stop early
    TIME_EVERY = 8  # simulations between two looks at the clock


ctypedef struct Node:
    double value        # summed return of the seat that chose this node
    int first_child     # start of the children's block; -1 until listed
    int visits
    short action        # the action or chance outcome that leads here (-1 at a root)
    short count         # children in the block
    short tried         # UCT's decision nodes: the first ``tried`` children have been visited
    signed char player  # the seat to act here, CHANCE, TERMINAL, or UNSEEN


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
    cdef Node* nodes
    cdef int node_count
    cdef int node_capacity
    cdef int max_nodes
    cdef readonly int root
    cdef public double contempt
    cdef public bint decisive
    cdef public bint repetition
    cdef public int seat
    cdef int pool(self, int max_nodes) except -1
    cdef void restart(self, Kernel position) noexcept
    cdef list listed(self, int node, bint visited)
    cdef void check(self, int node) except *
    cdef int find_child(self, int node, int action) noexcept
    cdef bint reserve(self, int count) except -1
    cdef int grown(self, int capacity) except -1
    cdef void compact(self, int top) except *
    cdef int moved(self, const int* source, int count) except -1
    cdef void* widened(self, void* array, size_t size, int capacity) except NULL
    cdef void* followed(self, void* array, size_t size, const int* source,
                        int count) except NULL
    cdef int lead(self) noexcept
    cdef int simulate(self) except -1
    cdef int push(self, int depth, int node, int owner) except -1
    cdef void drawn(self, double* reward) noexcept
    cdef void ended(self, Kernel k, double* reward) noexcept


cdef inline void blank(Node* n, int action) noexcept:
    """A node just laid out under ``action``: never visited, its children not listed."""
    n.action = action
    n.first_child = -1
    n.count = 0
    n.tried = 0
    n.visits = 0
    n.player = UNSEEN
    n.value = 0.0


# The steps of a simulation that both searches take, inline here so that the C compiler sees
# them in each search's loop (a ``cdef`` method is always called through the class's table).
cdef inline int begin(Tree tree, int owner) except -1:
    """Start a simulation: the working kernel at the root, the root first on the path (the
    return it adds ``owner``'s), its position key noted with ``repetition``; returns the path's
    length."""
    tree.work.copy_from(tree.root_kernel)
    if tree.repetition:
        tree.path_keys[0] = tree.work.position_key()
    return tree.push(0, tree.root, owner)


cdef inline bint room(Tree tree, int count) except -1:
    """Whether the pool has room for ``count`` more nodes, growing it if it must
    (``Tree.reserve``)."""
    return tree.node_count + count <= tree.node_capacity or tree.reserve(count)


cdef inline void back_up(Tree tree, int depth, const double* reward) noexcept:
    """End a simulation: each of the first ``depth`` nodes on the path counts one more visit and
    adds the return of the seat it is owned by."""
    cdef Node* n
    cdef int i
    for i in range(depth):
        n = &tree.nodes[tree.path[i]]
        n.visits += 1
        n.value += reward[tree.owners[i]]
