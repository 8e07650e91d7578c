"""MOV rates as miles an hour: the table of coc7e-chases.txt "MOV Rates".

"Each point of MOV equates with an approximate increase in speed of around 50%": the scale is
not linear, so the table is data, as printed, from MOV 5 (3 MPH) to MOV 20 (1000 MPH).
"""
from __future__ import annotations

from domain.rules.coc7e.errors import CHASES, InvalidCommand

MOV_RATES = f'{CHASES} "MOV Rates"'
MPH_BY_MOV: dict[int, int] = {
    5: 3, 6: 4, 7: 6, 8: 8, 9: 12, 10: 18, 11: 27, 12: 40,
    13: 60, 14: 90, 15: 135, 16: 200, 17: 300, 18: 450, 19: 675, 20: 1000,
}
LOWEST, HIGHEST = min(MPH_BY_MOV), max(MPH_BY_MOV)


def mph(mov: int) -> int:
    """The approximate speed of a MOV the table prints."""
    if mov not in MPH_BY_MOV:
        raise InvalidCommand("mov", f"{MOV_RATES} prints MOV {LOWEST} to {HIGHEST}, not {mov}")
    return MPH_BY_MOV[mov]
