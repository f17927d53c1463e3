"""Word lists that both the importer and the sampler read: one definition, no imports, so
neither depends on the other."""

from __future__ import annotations

# the last word of a field that holds a sentence, not a name: a record known by one (an imported
# channel group, which has no name) is added "with description ..." (`importers.openapi`) and
# described with the label, 'the channel group with description "..."' (`sample.wording`)
PROSE_FIELDS = frozenset({"description", "desc", "notes", "note", "comment", "comments", "message", "body", "text", "memo", "remarks"})


def prose_field(name: str) -> bool:
    """Does a field (or parameter) of this snake-case name hold a sentence (`description`,
    `channel_description`, `component_remarks`)?"""
    return name.rsplit("_", 1)[-1] in PROSE_FIELDS
