"""The D6 aggregate is composed as every chase is (tests/unit/test_domain_composition.py): one line
of chases down to RecordedChase, and everything the Protocols of the procedures it binds declare."""
from __future__ import annotations

from domain.rules.d6.chase import D6Chase
from tests.unit.test_domain_composition import (
    test_a_chase_aggregate_is_one_line_of_chases_down_to_the_recorded_chase as one_line,
    test_each_aggregate_has_all_that_the_procedures_it_binds_declare as has_what_it_binds,
)


def test_the_d6_chase_is_one_line_of_chases_and_has_what_its_procedures_use():
    one_line(D6Chase)
    has_what_it_binds(D6Chase)
