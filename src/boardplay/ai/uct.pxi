"""MCTS search, part: UCT's exploration terms read from tables. Included by ``search.pyx``
(after its constants)."""

# UCT's terms for small visit counts, computed once: selection reads them for every child it
# weighs, and a table look-up costs a fraction of a division, a logarithm and two square roots
# (the same expressions, so the scores, and the search, are bit for bit those computed in place).
# The parent's term has the longer tables: the few nodes near the root that pass 4,096 visits
# are selected from at every simulation. Past 65,536 visits it is read at the visits rounded down
# to a multiple of 256 (a relative error below 2e-4, far under what moves a UCT choice).
cdef double INVERSE[TABLE]  # 1 / v
cdef double ROOT_INVERSE[TABLE]  # sqrt(1 / v)
cdef double ROOT_LOG[LOG_TABLE]  # sqrt(log(v))
cdef double ROOT_LOG_COARSE[LOG_TABLE]  # sqrt(log(256 v))
cdef int _v
for _v in range(1, TABLE):
    INVERSE[_v] = 1.0 / _v
    ROOT_INVERSE[_v] = sqrt(INVERSE[_v])
for _v in range(1, LOG_TABLE):
    ROOT_LOG[_v] = sqrt(log(_v))
    ROOT_LOG_COARSE[_v] = sqrt(log(256.0 * _v))


cdef inline double root_log(int visits) noexcept nogil:
    """sqrt(log(visits)) for visits >= 1, from the tables when they reach."""
    if visits < LOG_TABLE:
        return ROOT_LOG[visits]
    if visits >> 8 < LOG_TABLE:
        return ROOT_LOG_COARSE[visits >> 8]
    return sqrt(log(visits))

