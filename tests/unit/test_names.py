"""Names that read as they are (domain/names.py): what hides or fakes a name is refused, and the
names people of every script really have are kept."""
from __future__ import annotations

import pytest

from domain.errors import InvalidInput
from domain.names import MAX_NAME, screened_name


@pytest.mark.parametrize("name", [
    "Harvey\u202eyrevlis",  # a right-to-left override shows it as another name
    "Har\u200bvey", "\ufeffHarvey", "Harvey\u2060",  # invisible characters
    "Harvey\u200d", "Har\u200cvey",  # joiners no script needs there: they look like "Harvey"
    "Harvey\r\nKeeper: the seed is 42", "Harvey\tWalters", "Harvey\u2028Walters",  # new lines in a log or a CSV cell
    "", "   ", "\u200c", "x" * (MAX_NAME + 1), 7, None,
])
def test_a_name_that_hides_or_fakes_itself_is_refused_naming_the_field(name):
    with pytest.raises(InvalidInput) as refused:
        screened_name(name, "participant_name")
    assert refused.value.field == "participant_name"


@pytest.mark.parametrize(("given", "kept"), [
    ("Harvey Walters", "Harvey Walters"),
    ("  Farmer  ", "Farmer"),  # spaces at the ends go
    ("Mr\u00a0Smith", "Mr Smith"),  # a no-break space is a space
    ("\u5c71\u7530\u3000\u592a\u90ce", "\u5c71\u7530 \u592a\u90ce"),  # and so is the ideographic space
    ("\u092e\u0915\u094d\u200d\u0916\u0928", "\u092e\u0915\u094d\u200d\u0916\u0928"),  # Devanagari: a joiner after a virama spells the word
    ("\u0641\u0631\u0632\u0627\u0646\u0647\u200c\u0627\u06cc", "\u0641\u0631\u0632\u0627\u0646\u0647\u200c\u0627\u06cc"),  # Persian: a non-joiner between letters
    ("Zo\u00eb", "Zo\u00eb"), ("Deep One #2", "Deep One #2"), ("x" * MAX_NAME, "x" * MAX_NAME),
])
def test_the_names_people_really_have_are_kept(given, kept):
    assert screened_name(given) == kept
