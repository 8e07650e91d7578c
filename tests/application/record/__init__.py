"""Random but legal play of chases of every system over HTTP, and the record checked after each
(issue 10 "The record must check out"): the state machines of tests/application/test_record_properties.py
and bench/record_properties.py."""
