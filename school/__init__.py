"""A school: the teachers of one install who share pupils, reports and rules.

Kolibri calls it a facility. A teacher who signed up alone (open sign-up, the
demo of an earlier version) has no school and sees only their own classes.
"""
