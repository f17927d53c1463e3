"""`vocab`: the words both the importer and the sampler use."""

from __future__ import annotations

import pytest

from compoworld_dsl.vocab import article, prose_field


@pytest.mark.parametrize(
    "phrase, want",
    [
        ("user", "a"),  # an imported Okta task said "add an user"
        ("unit price", "a"),
        ("usage record", "a"),
        ("European office", "a"),
        ("one-off fee", "a"),
        ("URL", "a"),
        ("uri", "a"),
        ("unread message", "an"),
        ("update", "an"),
        ("order", "an"),
        ("hour", "an"),
        ("SMS", "an"),
        ("API key", "an"),
        ("invoice", "an"),
        ("matter", "a"),
        ("", "a"),
    ],
)
def test_the_article_a_person_says(phrase, want):
    assert article(phrase) == want


def test_prose_fields_are_sentences_not_names():
    assert prose_field("channel_description") and prose_field("notes")
    assert not prose_field("name") and not prose_field("description_id")
