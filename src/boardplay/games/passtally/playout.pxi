"""Passtally kernel, part: the playout policy a search's playouts use (``playout_action``),
which scores a turn's last action rather than drawing it blindly. Included by ``kernel.pyx``
after the other parts, whose line tracing and ring walks it calls; the class is declared in
``kernel.pxd``, so its (final) methods are direct C calls here."""


cdef bint breaks_scoring_line(const Position* p, int action, unsigned int mine) noexcept:
    """Whether ``action`` would break a line with both ends in ``mine`` (lines traced by
    ``paired_passes(mine)``): a move of a marker on one of them, or a tile on a cell one of
    them crosses, read from the known lines' cell sets (``line_cells``). Exact: a tile
    elsewhere leaves every such line as it is, so the playout policy redraws only a draw that
    breaks a scoring line."""
    cdef int rest, s
    cdef uint64_t covered
    cdef unsigned int left
    if action >= MOVE_BASE:
        s = (action - MOVE_BASE) // 4
        return (mine >> p.line_end[s]) & 1
    rest = (action - PLACE_BASE) % PLACE_PER_PILE
    covered = ((<uint64_t>1) << (rest // 4)) | ((<uint64_t>1) << OTHER_CELL[rest])
    left = mine
    while left:
        s = ctz(left)
        left &= left - 1
        if (p.lines_known >> s) & 1 and (mine >> p.line_end[s]) & 1 \
                and p.line_cells[s] & covered:
            return True
    return False


cdef int policy_action(PasstallyKernel k, Rng* rng, int* scratch) noexcept:
    """``PasstallyKernel.playout_action``: uniform, except for a turn's last action. Then:
    the marker move after which the seat's lines sum the most passes (ties drawn at random),
    if one sums more than its lines do now; otherwise a uniform draw, redrawn up to three
    times while it would break one of the seat's scoring lines. Uniform playouts end most
    turns on lines nobody meant to score and break the lines a player keeps, so a search
    that judges positions by such games misjudges who is ahead (docs/journal/ai.md,
    "Passtally: playouts that score their turns")."""
    cdef int seat, s, j, dest, passes, best, ties = 0, choice = -1
    cdef unsigned int mine, left
    if k.p.setup or k.p.pending >= 0 or k.p.game_over or k.p.actions_left != 1:
        return k.sample_legal(rng, scratch)
    seat = k.p.to_move
    mine = k.p.seat_slots[seat]
    best = paired_passes(&k.p, mine)
    left = mine
    while left:
        s = ctz(left)
        left &= left - 1
        for j in range(4):
            dest = destination(&k.p, s, j, k.p.jump_step, k.p.continuous)
            if dest < 0:
                continue
            passes = paired_passes(&k.p, (mine & ~(1u << s)) | (1u << dest))
            if passes > best:
                best, choice, ties = passes, MOVE_BASE + s * 4 + j, 1
            elif passes == best and choice >= 0:
                ties += 1
                if rng_below(rng, ties) == 0:
                    choice = MOVE_BASE + s * 4 + j
    if choice >= 0:
        return choice
    choice = k.sample_legal(rng, scratch)
    if best > 0:
        for j in range(3):
            if not breaks_scoring_line(&k.p, choice, mine):
                break
            choice = k.sample_legal(rng, scratch)
    return choice
