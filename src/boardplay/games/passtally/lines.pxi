"""Passtally kernel, part: lines and their passes (spec §7). Tracing a line from the ring slot
it enters at, remembering traced lines (their ends, passes and cells) in the position until a
placement changes a cell they cross, and summing the passes of the lines a set of markers
completes. Included by ``kernel.pyx`` after the tables it reads; every function takes the
``Position`` alone, a direct C call."""


cdef int trace_line(const Position* p, int slot, int* passes, uint64_t* cells,
                    signed char* line_at) noexcept:
    """Follow the line entering at ``slot`` (§7.1); return its end slot, store its passes
    and the cells it crosses (bit c for cell c), and mark with ``slot`` in ``line_at`` each
    face by which it enters a cell. A tile's level is added each time the line steps onto it
    from somewhere else, so the seam inside a tile counts once and every re-entry counts
    again. The cell set is kept in a register, off the chain of ``through`` look-ups the
    trace waits on."""
    cdef int key = LINE_START[slot], prev = -1, total = 0, cell, t
    cdef uint64_t crossed = 0
    while True:
        cell = key >> 2
        t = p.tid[cell]
        total += p.height[cell] & -(t != prev)  # a bare cell (t = -1) has height 0
        prev = t
        crossed |= (<uint64_t>1) << cell
        line_at[key] = slot
        key = p.through[key]
        if key < 0:
            passes[0] = total
            cells[0] = crossed
            return -1 - key


cdef inline void remember(Position* p, int slot, int end, int passes, uint64_t cells) noexcept:
    """Keep a traced line under both of its ends. A line read backwards is the same line with
    the same passes and cells (the same tiles entered, in reverse order), so one trace serves
    both ends."""
    p.line_end[slot] = end
    p.line_passes[slot] = passes
    p.line_cells[slot] = cells
    p.line_end[end] = slot
    p.line_passes[end] = passes
    p.line_cells[end] = cells
    p.lines_known |= (1u << slot) | (1u << end)


cdef void trace_two(Position* p, int a, int b) noexcept:
    """``trace_line`` for the lines entering at slots ``a`` and ``b`` at once, remembered as
    ``remember`` keeps them. A trace is a chain of dependent ``through`` look-ups, so one
    alone leaves the CPU waiting on each load; two interleaved chains fill each other's waits
    (the same steps as ``trace_line``'s, written out twice, until the first ends; the other
    then finishes alone). When ``b`` is ``a``'s other end the line is traced from both ends,
    with the same result as once (and both directions' faces marked in ``line_at``, each
    naming a slot of the same line)."""
    cdef int key_a = LINE_START[a], key_b = LINE_START[b], prev_a = -1, prev_b = -1
    cdef int total_a = 0, total_b = 0, cell, t
    cdef uint64_t crossed_a = 0, crossed_b = 0
    while True:
        cell = key_a >> 2
        t = p.tid[cell]
        total_a += p.height[cell] & -(t != prev_a)
        prev_a = t
        crossed_a |= (<uint64_t>1) << cell
        p.line_at[key_a] = a
        key_a = p.through[key_a]
        cell = key_b >> 2
        t = p.tid[cell]
        total_b += p.height[cell] & -(t != prev_b)
        prev_b = t
        crossed_b |= (<uint64_t>1) << cell
        p.line_at[key_b] = b
        key_b = p.through[key_b]
        if (key_a < 0) | (key_b < 0):
            break
    while key_a >= 0:
        cell = key_a >> 2
        t = p.tid[cell]
        total_a += p.height[cell] & -(t != prev_a)
        prev_a = t
        crossed_a |= (<uint64_t>1) << cell
        p.line_at[key_a] = a
        key_a = p.through[key_a]
    while key_b >= 0:
        cell = key_b >> 2
        t = p.tid[cell]
        total_b += p.height[cell] & -(t != prev_b)
        prev_b = t
        crossed_b |= (<uint64_t>1) << cell
        p.line_at[key_b] = b
        key_b = p.through[key_b]
    remember(p, a, -1 - key_a, total_a, crossed_a)
    remember(p, b, -1 - key_b, total_b, crossed_b)


cdef void forget_lines(Position* p, int cell) noexcept:
    """Forget exactly the known lines that cross ``cell`` (whose stack just changed): at
    most two, found through ``line_at`` and confirmed by their cell sets (an entry whose
    slot's line was traced again since along another path names a line that no longer
    crosses the cell, which keeps it). Every other line keeps its path and its passes.
    Without branches (whether s is known is a coin toss to the CPU); a line forgotten
    through one face is the same line, both ends, as any later face finds, so the four are
    independent."""
    cdef int face, s
    cdef unsigned int known = p.lines_known, lost = 0
    for face in range(4):
        s = p.line_at[cell * 4 + face]
        lost |= ((1u << s) | (1u << p.line_end[s])) & (0u - (
            (known >> s) & <unsigned int>(p.line_cells[s] >> cell) & 1u))
    p.lines_known = known & ~lost


cdef int paired_passes(Position* p, unsigned int mask) noexcept:
    """The passes of the lines with both ends in ``mask`` (slots as bits): what a seat
    with markers on exactly those slots would sum at the end of its turn. The lines not yet
    known are traced first, two at a time (``trace_two``), dropping each slot a trace has
    reached as the other end."""
    cdef int s, end, total = 0, passes
    cdef uint64_t cells
    cdef unsigned int left = mask & ~p.lines_known
    while left:
        s = ctz(left)
        left &= left - 1
        if left:
            trace_two(p, s, ctz(left))
        else:
            end = trace_line(p, s, &passes, &cells, p.line_at)
            remember(p, s, end, passes, cells)
        left &= ~p.lines_known
    left = mask
    while left:
        s = ctz(left)
        left &= left - 1
        end = p.line_end[s]
        total += p.line_passes[s] & -(<int>((s < end) & (mask >> end) & 1))
    return total
