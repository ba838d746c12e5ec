"""The position as numbers: the observation tensor and the evaluation's features."""

from boardplay.games.proteus.board cimport Board

cdef void observe_board(const Board* board, int player, float* out) noexcept nogil
cdef void board_features(const Board* board, double* out) noexcept nogil
