"""Frozen copies of the pre-kernel engines, kept only as the reference of the differential
soak tests until the compiled engines have soaked; nothing outside the tests imports them."""
