"""Tests that walk the whole app as an attacker would: every form and game move
with forged values (test_hostile_inputs), every URL as a stranger
(test_every_url_refuses_strangers). What they walk is found, not listed: the
URL resolver, the forms on the pages, the game registry."""
