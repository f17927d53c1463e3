"""`vocab`: the words both the importer and the sampler use."""

from __future__ import annotations

import pytest

from compoworld_dsl.vocab import article, plural, prose_field, singular


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


# one and many of a noun (`vocab.singular`, `vocab.plural`), which the importer names tables,
# services and collections with and the sampler says records with
@pytest.mark.parametrize(
    "one, many",
    [
        ("policy", "policies"),
        ("user", "users"),
        ("box", "boxes"),
        ("address", "addresses"),
        ("response", "responses"),
        ("database", "databases"),
        ("case", "cases"),
        # nouns with an `s` of their own: AWS Payment Cryptography's `GetAlias` was read as a list
        # of "alias" (one "alia"), and the aliases had no table
        ("alias", "aliases"),
        ("status", "statuses"),
        ("lens", "lenses"),
        ("bus", "buses"),
        ("analysis", "analyses"),
        ("verification status", "verification statuses"),
        ("verification_status", "verification_statuses"),
        ("series", "series"),
    ],
)
def test_one_and_many_of_a_noun(one, many):
    assert plural(one) == many
    assert singular(many) == one
    assert singular(one) == one  # one of one is itself
