"""Imported worlds that speak: `known by`, field labels, `say` and `gives` from the operations'
summaries, seeds from the spec's values and formats, and house rules proposed where the data
supports them (issue 30, item 2).

It works on the importer's IR once the tools are made and only adds words, seeds and proposals:
it never changes what a tool does or what a table holds, and a proposed rule is a comment-marked
constraint the author keeps or drops, never a claim about the API."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from ..vocab import word_once
from . import world_model
from .common import (
    flag_like,
    said_as_kind,
    _ALSO_NAMED,
    ADJECTIVES,
    CITIES,
    DOMAINS,
    IPS,
    KINDS,
    NAMED_THINGS,
    PEOPLE,
    PERSON_NOUNS,
    PREPOSITIONS,
    PRIORITIES,
    ROLES,
    ROW,
    STATUSES,
    TAGS,
    TEXT_TIME,
    UUIDS,
    naming,
    WRAPPERS,
    unwrapped,
    name_part,
    person_seeds,
    place_seeds,
    range_seeds,
    ConstraintIR,
    FieldIR,
    Names,
    RecordIR,
    ServiceIR,
    TableIR,
    ToolIR,
    _pick,
    lit,
    plural,
    snake,
    unique,
    words,
)

# ─────────────────────────── labels ───────────────────────────

# a clock field's name without its `at`/`on`/`time` ending → what a person calls it
_WHEN = {
    "created": "creation",
    "creation": "creation",
    "updated": "last update",
    "last_updated": "last update",
    "modified": "last change",
    "last_modified": "last change",
    "changed": "last change",
    "deleted": "deletion",
    "completed": "completion",
    "closed": "closing",
    "archived": "archiving",
    "started": "start",
    "start": "start",
    "ended": "end",
    "end": "end",
    "published": "publication",
    "sent": "sending",
    "expires": "expiry",
    "expired": "expiry",
    "expiration": "expiry",
    "expiry": "expiry",
    "submitted": "submission",
    "cancelled": "cancellation",
    "canceled": "cancellation",
    "resolved": "resolution",
    "approved": "approval",
    "shipped": "shipping",
    "delivered": "delivery",
    "paid": "payment",
    "received": "receipt",
    "issued": "issue",
    "registered": "registration",
    "activated": "activation",
    "signed": "signing",
    "scheduled": "scheduled",
    "due": "due",
    "last_login": "last login",
    "last_seen": "last seen",
    "last_activity": "last activity",
}
_CLOCK_ENDS = ("at", "on", "time", "date", "datetime", "timestamp", "ts", "utc", "dt")

# words a name abbreviates or writes in lower case that a person writes out or in capitals
_SPELLED = {
    "qty": "quantity",
    "desc": "description",
    "descr": "description",
    "num": "number",
    "nbr": "number",
    "amt": "amount",
    "addr": "address",
    "dob": "date of birth",
    "tz": "time zone",
    "msg": "message",
    "org": "organisation",
    "dept": "department",
    "acct": "account",
    "pct": "percent",
    "lang": "language",
    "img": "image",
    "src": "source",
    "dst": "destination",
    "dest": "destination",
    "cnt": "count",
    "info": "information",
    "config": "configuration",
    "cfg": "configuration",
    "auth": "authorisation",
    "stats": "statistics",
    "env": "environment",
    "mgr": "manager",
    "cust": "customer",
    "attr": "attribute",
    "param": "parameter",
    "params": "parameters",
    "lat": "latitude",
    "lng": "longitude",
    "lon": "longitude",
    "url": "URL",
    "uri": "URI",
    "ip": "IP",
    "sku": "SKU",
    "vat": "VAT",
    "utc": "UTC",
    "iso": "ISO",
    "api": "API",
    "sms": "SMS",
    "html": "HTML",
    "json": "JSON",
    "http": "HTTP",
    "id": "ID",
    "ids": "IDs",
    "uid": "UID",
    "uuid": "UUID",
    "guid": "GUID",
    "etag": "ETag",
    "mime": "MIME",
    "ssl": "SSL",
    "dns": "DNS",
    "ssn": "SSN",
    "iban": "IBAN",
    "bic": "BIC",
    "vin": "VIN",
    "pdf": "PDF",
    "csv": "CSV",
    "gps": "GPS",
    "sso": "SSO",
    "mfa": "MFA",
    "eta": "ETA",
    "cc": "CC",
    "fqdn": "FQDN",
    "sim": "SIM",
    "sip": "SIP",
    "bcc": "BCC",
}
# the first words of a description that is a sentence about the field, not a name for it
_NOT_A_NAME = {"the", "a", "an", "this", "if", "when", "whether", "deprecated", "optional", "required", "unique", "use", "used", "returns", "return", "indicates", "specifies", "set", "contains", "identifier", "id", "internal", "read", "only", "see", "for", "not", "true", "false", "default", "object", "array", "string", "integer", "number", "boolean", "value", "field", "property", "list", "type", "enum"}
_VERBS = {"is", "are", "was", "were", "be", "been", "will", "can", "may", "must", "should", "has", "have", "had", "does", "do"}
# "Name of the collection" describes the field in a sentence: as a label it would say the record
# twice ("the name of the collection of the collection ...")
_LINKS = {"of", "for", "in", "on", "to", "with", "by", "from", "at", "the", "a", "an", "this", "that", "which", "who", "and", "or"}


def _tokens(name: str) -> list[str]:
    return [t for t in name.split("_") if t]


def label_for(f: FieldIR, ref_noun: str | None = None) -> str | None:
    """The words a person uses for a field whose name is not plain English, or None: a
    reference by what it refers to (`feed_connection_id` → "feed connection"), a clock field by
    what it records (`created_at` → "creation time"), a short title or description from the
    spec ("Due Date"), abbreviations written out (`qty` → "quantity", `url` → "URL"). Never the
    key, never JSON text."""
    if f.key or f.json:
        return None
    plain = words(f.name)
    toks = _tokens(f.name)
    if len(toks) > 1 and toks[0] in WRAPPERS and f.src.split(".")[0].lower() == toks[0]:
        toks = toks[1:]  # `properties_created_time` is a creation time (`_nested_label`)
    got = None
    if f.ref is not None:
        # a reference by a name key or an ARN is the record it names: "delete the vod source of
        # ...", not "delete the vod source name of ..." (sampled MediaTailor and OAM tasks)
        # (nor by the number a second field of its name took: Visma's addresses are listed under
        # a customer, `customer_guid_2` beside the API's own, said "the customer guid 2 of the
        # address", a sampled task)
        toks = toks[:-1] if len(toks) > 1 and toks[-1].isdigit() else toks
        if len(toks) > 3 and toks[0] == "relationships" and toks[-2] == "data":
            # JSON:API's `relationships.share.data.id` is the share ("delete the relationships
            # share data of the resource ...", ExaVault: blind round 40, stop 65)
            toks = toks[1:-2] + toks[-1:]
        rest = toks[:-1] if toks[-1:] in (["id"], ["ids"], ["uid"], ["uuid"], ["guid"], ["key"], ["name"], ["arn"]) and len(toks) > 1 else toks
        rest = rest[1:] if rest[:1] == ["id"] and len(rest) > 1 else rest  # Trello's `idBoard`: "the board of the card", not "the id board"
        got = " ".join(_SPELLED.get(t, t) if t in ("url", "uri", "api") else t for t in rest) or ref_noun
        if ref_noun and got.endswith(ref_noun) and f" {got} ".count(f" {ref_noun} ") > 1:
            # a nested reference that says its thing twice is that thing: SES's
            # `ImportDestination.ContactListDestination.ContactListName` was "the import destination
            # contact list destination contact list of the import job" (a fresh draw, stop 71)
            got = ref_noun
    elif f.base in ("datetime", "date", "time"):
        got = _clock_label(toks, f.base)
    if got is None and "." in f.src and (f.base != "bool" or f.src.split(".")[0].lower() in WRAPPERS):
        got = _nested_label(f)
    if got is None:
        got = _described(f, toks)
    if got is None and toks in (["from"], ["to"]) and f.base in ("text", "email"):
        # a message's `from` and `to` are who sent and who gets it: "from the from of the
        # message "Budget review"" (a sampled task) is "from the sender of ..."
        got = "sender" if toks == ["from"] else "recipient"
    if got is None and f.base == "bool" and toks[:1] == ["is"] and len(toks) > 1:
        got = " ".join(_SPELLED.get(t, t) for t in toks[1:])  # "whether the file is usable", not "is is usable"
    elif got is not None and f.base == "bool" and got.startswith("is ") and len(got.split()) > 1:
        got = got[3:]  # Azure's `properties.isEnabled`: "marked as enabled", not "marked as is enabled"
    if got is None and any(t in _SPELLED for t in toks):
        got = " ".join(_SPELLED.get(t, t) for t in toks)
        got = got.replace("i cal ", "iCalendar ")  # `iCalUID`
    # a wrapper named as what it holds says it twice (Telnyx's `outbound.outbound_voice_profile_id`:
    # "the outbound outbound voice profile of that texml application", a sampled task)
    got = word_once(got if got is not None else plain)
    if got == plain or not got.strip():
        return None
    # at most 60 characters, cut between words ("... protected account " was said with two
    # spaces before its value in a task)
    return got if len(got) <= 60 else got[:61].rsplit(" ", 1)[0].rstrip()


def _clock_label(toks: list[str], base: str) -> str | None:
    noun = {"datetime": "time", "date": "date", "time": "time"}[base]
    core = list(toks)
    if len(core) > 1 and core[-1] in ("date", "time"):
        # `due_date`, `start_time` are plain already; `created_date` is not
        key = "_".join(core[:-1])
        return f"{_WHEN[key]} {core[-1]}" if key in _WHEN and key.endswith("ed") else None
    if len(core) > 1 and core[-1] in _CLOCK_ENDS:
        core = core[:-1]
    elif len(core) > 1 and core[0] in ("date", "time", "datetime", "timestamp"):
        core = core[1:]  # `date_created`
    elif len(core) != 1:
        return None
    key = "_".join(core)
    if key in _WHEN:
        return f"{_WHEN[key]} {noun}"
    if core[-1].endswith("ed") and len(core[-1]) > 4 and toks[-1] in ("at", "on"):
        return f"time {' '.join(core)}" if noun == "time" else f"date {' '.join(core)}"
    return None


def _nested_label(f: FieldIR) -> str | None:
    """`total.amount` → "total", `start.dateTime` → "start time": a flattened object whose inner
    name only says what kind of value the outer one is."""
    outer, _, inner = f.src.rpartition(".")
    inner_n = re.sub(r"[^a-z]", "", inner.lower())
    outer_w = words(re.sub(r"[^A-Za-z0-9_]", "_", outer.split(".")[-1])).strip()
    if not outer_w:
        return None
    parts = f.src.split(".")
    # Azure's `properties.activeDeploymentName` is the app's "active deployment name", and
    # `properties.persistentDisk.mountPath` its "persistent disk mount path": the wrapper only
    # says where the API keeps the resource's own fields
    unwrapped = " ".join(_SPELLED.get(t, t) for p in parts[1:] for t in words(snake(p)).split()) if parts[0].lower() in WRAPPERS else None
    if outer.lower() in WRAPPERS:
        return unwrapped or None
    if inner_n in ("value", "amount", "text", "name", "displayname", "content"):
        return outer_w
    if inner_n in ("datetime", "time", "timestamp"):
        return f"{outer_w} time"
    if inner_n == "date":
        return f"{outer_w} date"
    return unwrapped or None


def _described(f: FieldIR, toks: list[str]) -> str | None:
    """A short title or description that names the field ("Due Date", "Filing Deadline"), kept
    when it shares a word with the name or the name is a short code a person could not read."""
    shape = getattr(f, "_shape", None)
    text = (shape.description if shape is not None else "") or ""
    text = text.strip().rstrip(".").strip()
    if not text or len(text) > 40 or "\n" in text:
        return None
    ws = text.split()
    if not 1 <= len(ws) <= 4 or not all(re.fullmatch(r"[A-Za-z][A-Za-z/-]*", w) for w in ws):
        return None
    low = [w.lower() for w in ws]
    if low[0] in _NOT_A_NAME or set(low) & (_VERBS | _LINKS):
        return None
    stems = {t[:4] for t in toks if len(t) >= 3}
    if not ({w[:4] for w in low if len(w) >= 3} & stems) and not all(len(t) <= 4 for t in toks):
        return None
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in ws)


def label_fields(rec: RecordIR, nouns: dict[str, str]) -> None:
    """Labels for the fields of a table's record; `nouns` maps `service.table` to its noun. A
    label that another field of the record is already called by is left out: two fields one
    name would make "the creation time of ..." ambiguous."""
    said = {f.label or words(f.name) for f in rec.fields}
    for f in rec.fields:
        if f.label is None:
            label = label_for(f, nouns.get(f.ref or ""))
            if label is not None and f.base in ("datetime", "date"):
                # a time the import reads as a date (a UNIX timestamp typed as text) is said as a
                # date: "caption creation UNIX timestamp 2025-03-10T20:36" (Instagram, round 16)
                label = re.sub(r"\b(?:unix|epoch)\s+", "", label, flags=re.I) or label
            if (label is None or label in said) and not f.key and not f.json:
                # a word said twice is said once even where the better label is taken:
                # ConfigCat's `organization.organizationId` beside `organization.name` (the
                # "organization") was "the organization organization id of that product"
                plain = words(f.name)
                once = word_once(plain)
                label = once if once != plain else label
            if label is not None and label not in said:
                f.label = label
                said.add(label)


# ─────────────────────────── seeds ───────────────────────────

# `format("location {}", 1..40)`: the importer's last resort for a text field it has no pool for
_FALLBACK = re.compile(r'^format\("([a-z0-9 ]+) \{\}", 1\.\.40\)$')
_FORMAT_POOLS = {
    "uri": [f"https://{d}/{{noun}}/{i}" for i, d in enumerate(DOMAINS, 1)],
    "url": [f"https://{d}/{{noun}}/{i}" for i, d in enumerate(DOMAINS, 1)],
    "hostname": ["api.northwind.example", "mail.meridian.example", "atlasrobotics.example", "files.example.com"],
    "ipv4": IPS,
    "ipv6": ["2001:db8::1", "2001:db8::2a", "2001:db8:0:1::7"],
    "email": ["amara@northwind.example", "p.raman@meridian.example", "ktanaka@example.com"],
    "uuid": UUIDS,
    "date": ["2025-01-14", "2025-02-03", "2025-02-27", "2025-03-18"],
    "date-time": ["2025-01-14T09:30:00Z", "2025-02-03T14:05:00Z", "2025-03-18T16:45:00Z"],
    "byte": ["aGVsbG8=", "d29ybGQ=", "Y29tcG93b3JsZA=="],
}
_CRONS = ["0 9 * * 1-5", "*/15 * * * *", "0 0 1 * *", "30 2 * * *", "0 */6 * * *"]
_NAME_POOLS = {
    "location": CITIES,
    "venue": CITIES,
    "place": CITIES,
    "site": CITIES,
    "hostname": _FORMAT_POOLS["hostname"],
    "host": _FORMAT_POOLS["hostname"],
    "ip": _FORMAT_POOLS["ipv4"],
    "extension": ["pdf", "png", "txt", "csv", "docx"],
    "encoding": ["utf-8", "gzip", "base64", "ascii"],
    "version": ["1.0", "1.2", "2.0", "2.1"],
    # a job's schedule is a cron expression (Cloud Scheduler's "schedule 21" before)
    "schedule": _CRONS,
    "cron": _CRONS,
    "ssn": ["900-12-3456", "900-45-6789", "900-78-1234"],
    "cidr": ["10.0.0.0/16", "192.168.1.0/24", "172.16.0.0/12"],
    "latitude": ["51.5074", "6.5244", "43.6532", "52.5200"],
    "longitude": ["-0.1278", "3.3792", "-79.3832", "13.4050"],
    "by": PEOPLE,
    "email": ["amara@northwind.example", "p.raman@meridian.example", "ktanaka@example.com", "lmoreno@atlasrobotics.example"],
}


# a text field that tells rows apart is drawn from many values, not a pool of three: a trail's
# ARN or a status's last attempt time named the row a step read, and three ARNs among eight rows
# made CloudTrail's `get_event_selectors` say nothing only its row has (stop 46)
_ARN = 'format("arn:aws:{service}:eu-west-1:123456789012:{word}/{word}-{{}}", 1..40)'
_OWN_ARN = 'format("arn:aws:{service}:eu-west-1:123456789012:{word}/{{}}", same({key}))'

# the last word of a text field's name that makes it a time (`modified_date`, `last_modified`)
_WHEN_WORDS = frozenset({"date", "time", "timestamp", "datetime", "modified", "created", "updated", "expiration", "expiry", "expires", "deadline"})


def reseed(table: TableIR, noun: str, service: str = "") -> list[str]:
    """Seeds for the text fields the importer could only number (`"location 3"`) or fill from a
    generic pool (statuses, kinds, roles): the values the spec gives (an array's item enum, an
    example list, the values a description lists: `The possible values are: "eventHangout", ...`),
    the spec's format (a URI, a host, an IP address, a UUID), the field's name (a location is a
    city, an ARN names the API's `service`), else, for the field a row is known by, names of
    things. Returns the fields changed."""
    changed = []
    rec = table.record
    generic = {_pick(pool) for pool in (STATUSES, KINDS, ROLES, PRIORITIES, TAGS)}
    for f in rec.fields:
        gen = table.seed.get(f.name)
        shape = getattr(f, "_shape", None)
        fallback = _FALLBACK.match(gen or "") is not None
        fmt = (shape.format if shape is not None else "").lower()
        # a text field the spec gives a format (a URI, a host, a UUID) is seeded by it whatever
        # its name suggests (`homepage_ref` is no code), unless the spec gave an example
        if f.base == "text" and not f.json and fmt in _FORMAT_POOLS and fmt not in ("date", "date-time") and shape.example is None:
            fallback = True
            gen = None
        if not fallback and gen not in generic:
            continue
        pool = _spec_values(shape)
        if pool is None and not fallback:
            continue
        if pool is None:
            pool = _FORMAT_POOLS.get(fmt)
        if pool is None and shape is not None and shape.items is not None:
            pool = _FORMAT_POOLS.get((shape.items.format or "").lower())
        if pool is None:
            # (what the description says it is: "The ARN of the Chatbot topic", CodeStar's
            # `TargetAddress`, is an ARN, not "7 Station Lane": `said_as_kind`)
            toks = _tokens(said_as_kind(f.name, (shape.description or shape.aside) if shape is not None else None))
            pool = _NAME_POOLS.get(toks[-1] if toks else "")
            if pool is None and set(toks) & {"birthday", "birthdate", "dob", "birth", "anniversary"}:
                pool = ["1984-03-12", "1990-07-25", "1976-11-02", "1995-01-30", "1988-09-14"]
            if pool is None and toks and (toks[-1] in _WHEN_WORDS or toks[-1] in ("at", "on") and len(toks) > 1):
                # a time the API types as text (`modified_date`, `last_modified`, `expires_at`):
                # a time, not "modified date 5" (met in a Qualtrics task)
                pool = TEXT_TIME
            if toks[-1:] in (["list"], ["array"]) and len(toks) > 1:
                toks = toks[:-1]  # `secret_arn_list`: ARNs ("secret arn list 1" in a task)
            if pool is None and toks and toks[-1] in ("arn", "arns"):
                word = "-".join(toks[:-1][-2:]) or noun.replace(" ", "-")  # `log_group_arn`: a log group
                if noun.replace(" ", "-").endswith("-" + word):
                    word = noun.replace(" ", "-")  # a placement group's `group_arn` names the placement group
                svc = re.sub(r"[^a-z0-9]", "", service.lower()) or "service"
                key = next((k for k in rec.fields if k.key), None)
                # the row's own ARN ends with its key: an IoT Analytics dataset "dataset-6" was
                # "arn:...:dataset/dataset-19", which a blind player took for a trap (round 20)
                own = word == noun.replace(" ", "-") and key is not None and key is not f
                pool = _OWN_ARN.format(service=svc, word=word, key=key.name) if own else _ARN.format(service=svc, word=word)
        if pool is None and rec.known_by[:1] == [f.name]:
            pool = [f"{a} {noun}" for a in ADJECTIVES]
        if pool is None and _tokens(f.name)[-1:] in (["identifier"], ["number"], ["code"], ["reference"]):
            # a code, as the importer writes codes (`format("TAG-{}", 1000..9999)`)
            prefix = "".join(t[0] for t in _tokens(f.name))[:3].upper()
            table.seed[f.name] = f"format({lit(prefix + '-{}')}, 1000..9999)"
            changed.append(f.name)
            continue
        if pool is None:
            continue
        if isinstance(pool, str):  # a generator of many values
            table.seed[f.name] = pool
            changed.append(f.name)
            continue
        slug = noun.replace(" ", "-")
        table.seed[f.name] = "pick([" + ", ".join(lit(v.replace("{noun}", slug)) for v in dict.fromkeys(pool)) + "])"
        changed.append(f.name)
    return changed


# ("e.g.": Apigee's lifecycle `state`, 'we expect single words ..., e.g., "CONCEPT", "DESIGN", ...')
_VALUES_INTRO = re.compile(r"(?:possible|acceptable|allowed|valid|supported|permitted) values(?: are| include)?|\bone of\b|\beither\b|\be\.g\.|\bfor example\b", re.I)
_TRUE_FALSE = re.compile(r"^\W*(?:when|if)\W+(?:set to\W+)?true\b", re.I)
_QUOTED = re.compile(r'"([A-Za-z][A-Za-z0-9_.:-]{0,40})"|\'([A-Za-z][A-Za-z0-9_.:-]{0,40})\'')


def described_values(text: str) -> list[str] | None:
    """The values a description lists in quotes after "possible values are", "one of" or
    "either" (Google's discovery specs write their enums so), or None when it lists fewer than
    two."""
    m = _VALUES_INTRO.search(text or "")
    if m is None:
        return None
    vals = list(dict.fromkeys(a or b for a, b in _QUOTED.findall(text[m.end() : m.end() + 800])))
    return vals[:12] if len(vals) >= 2 else None


def _spec_values(shape) -> list[str] | None:
    """Values the spec itself gives for a field kept as text: the members of an array's item
    enum (a list of scalars is comma-separated text), or an example list joined the same way."""
    if shape is None:
        return None
    items = shape.items
    if items is not None and items.enum:
        vals = [str(v) for v in items.enum if isinstance(v, (str, int, float)) and not isinstance(v, bool) and len(str(v)) <= 80]
        if vals:
            return vals[:12]
    listed = described_values(shape.description) or (described_values(items.description) if items is not None else None)
    if listed:
        return listed
    if shape.type == "string" and _TRUE_FALSE.search(shape.description or ""):
        return ["true", "false"]  # a flag the API sends as a string ("When set to **true**, ...")
    ex = shape.example
    if isinstance(ex, list) and ex and all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in ex):
        return [", ".join(str(v) for v in ex)[:120]]
    return None


# ─────────────────────────── say and gives from summaries ───────────────────────────

_READ_VERBS = {"get", "list", "retrieve", "fetch", "show", "read", "find", "search", "query", "lookup", "look", "view", "describe", "download", "export", "count", "check", "return", "obtain", "browse", "poll"}
_THIRD_PERSON = re.compile(r"^([A-Za-z]+?)(ies|es|s)$")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_CONNECTORS = ("with", "of", "for", "in", "on", "to")


# verbs whose stem ends in "us" before their "e" ("pauses"), where "focuses" keeps its "us"
_USE_VERBS = frozenset("us reus misus paus unpaus caus refus abus accus amus confus excus fus diffus infus perus".split())


def _imperative(word: str) -> str:
    """`Retrieves` → "retrieve", `Lists` → "list", `Creates` → "create" (a summary in the third
    person, as many APIs write them)."""
    w = word.lower()
    if w in ("is", "has", "does", "was", "this", "status", "always") or w.endswith(("ss", "us")):
        # (a verb that ends in a double s is one already: Postmark's "Bypass rules for an inbound
        # message" was "bypas rules", a fresh draw of stop 70; "access", "process", "address")
        return w
    m = _THIRD_PERSON.match(w)
    if m is None or len(w) <= 3:
        return w
    stem, end = m.group(1), m.group(2)
    if end == "ies":
        return stem + "y"
    if end == "es" and stem in _USE_VERBS:
        return stem + "e"  # "pauses" → "pause" (Storage Transfer's "Paus that operation", stop 71)
    if end == "es" and stem.endswith(("ch", "sh", "ss", "x", "zz", "us")):  # "buzzes", but "synchronizes" → "synchronize"
        return stem
    return w[:-1]


# ("You can use this API to run a scheduled query manually", Timestream Query's summary, was said
# word for word in a task of blind round 23)
_LEAD_IN = re.compile(r"^(?:(?:is |are )?used to|(?:you can )?use this (?:api |endpoint |call |method |operation |action |request )?to|allows? (?:you |users |the user |a user )?to|lets? you|enables? you to|you can|this (?:api|endpoint|call|method|operation|action) (?:lets you|allows you to|is used to|can be used to|enables you to))\s+(?=[A-Za-z])", re.I)


_THIRD_VERBS = frozenset("adds creates updates deletes removes returns gets lists sets replaces modifies retrieves inserts changes edits cancels".split())


_CODE_ROLES = frozenset("Details Detail Info Data Request Response Item Items List Object Model Settings Config Dto Payload Params Entity".split())


def _identifier(word: str, code: bool = False) -> bool:
    """Is a word of a summary written as a name in code, which a person says in words? A
    property in camel case ("Returns all the seat maps of a given flightOffer", "Update an
    invoiceItem"), or a type of three parts or more ("Updates the DataSourceName of a
    DataSource" is one of two: a task said "update the DataSourceName ..."); not a brand of
    one or two ("GitHub", "MasterCard", "JavaScript"), nor one with a letter before its
    word ("eCommerce", "vCenter", "iPhone") or a run of capitals ("DynamoDB"). `code`: the
    summary names another thing so, and any such word of two parts is one too."""
    parts = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+", word)
    if len(parts) < 2 or "".join(parts) != word or any(len(p) < 2 or p.isupper() for p in parts):
        return False
    # (and a type named with a word of its role: Sinao's "Update a BankDetails", stop 71)
    return word[0].islower() or len(parts) >= 3 or code and len(parts) == 2 or parts[-1] in _CODE_ROLES


def summary_phrase(description: str) -> tuple[str, bool] | None:
    """(the summary as an instruction, whether it is a read) or None when the summary is no
    short verb phrase: "Lists the tags of a collection" → ("list the tags of a collection",
    True)."""
    text = description.strip().rstrip(".")
    # a topic before a dash ("Adapter - Add an adapter", "Users – Get a user"): the summary is
    # what follows it
    text = re.sub(r"^[A-Za-z][\w ]{0,40}?\s[-–]\s(?=[A-Za-z])", "", text)
    # or before a colon ("Story: Post Story Outline", "Sessions: Create a Session", Presalytics:
    # said "id outline post of story ..." from the operation id before)
    text = re.sub(r"^[A-Za-z][\w ]{0,40}?:\s+(?=[A-Za-z])", "", text)
    # a lead-in before the verb ("Used to update multiple cards in a batch", "Allows you to
    # ..."): the verb is what follows it; bunq's tasks said "used to update ... for that user"
    text = _LEAD_IN.sub("", text)
    ws = text.split()
    # the method's own name before its verb, as Go's doc comments open ("TagApiSpecRevision adds
    # a tag to a specified revision of a spec", Apigee registry: said "tagapispecrevision adds
    # a tag ..."): the verb is the next word
    if len(ws) > 2 and re.search(r"[a-z][A-Z]", ws[0]) and _THIRD_PERSON.match(ws[1].lower()):
        ws = ws[1:]
        text = " ".join(ws)
    # (up to 12 words: Filestore's "Revert an existing instance's file system to a specified
    # snapshot" was said "revert projects locations of instance ...", from its id, round 17)
    if not 2 <= len(ws) <= 12 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9 '/-]*", text):
        # a description's first clause, where it opens with a verb of its own ("Waits until the
        # specified long-running operation is done or reaches at most a specified timeout,
        # returning the latest state": Google's operations were said "wait accounts apps of
        # operation ...", from the id, a fresh draw of stop 71): before its first comma, and
        # before an "or" that opens a second clause where that is still too long
        clause = re.split(r"[,;(]|\s[-–]\s", text, maxsplit=1)[0].strip()
        if len(clause.split()) > 12:
            # (only where "or" opens a second clause with a verb of its own, "... is done or
            # reaches ...": MemoryDB's "Modifies the parameters of a parameter group to the engine
            # or system default value" was said "modify the parameters ... to the engine", a
            # blind player's puzzle in round 57)
            head, _, after = clause.partition(" or ")
            # ("is", "was", "has" open one too: "... is done or is cancelled"; "its" and "this" do not)
            if after and _THIRD_PERSON.match(after.split()[0].lower()) and after.split()[0].lower() not in ("its", "this"):
                clause = head
        if clause == text or not 2 <= len(clause.split()) <= 12 or not re.fullmatch(r"[A-Z][a-z]+s\b.*", clause) or _THIRD_PERSON.match(clause.split()[0].lower()) is None:
            return None  # a comma or a bracket: a sentence from a description ("..., i.e"), not a summary
        text, ws = clause, clause.split()
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 '/-]*", text):
            return None
    # an adverb before the verb ("Partially updates the room"): "partially update the room",
    # not "partially updates the room" (a sampled task)
    adverb = [ws.pop(0).lower()] if len(ws) > 2 and re.fullmatch(r"[A-Za-z]{3,}ly", ws[0]) and _THIRD_PERSON.match(ws[1].lower()) else []
    verb = _imperative(ws[0])
    verb = {"return": "get", "retrieves": "retrieve"}.get(verb, verb)
    if verb in ("a", "an", "the", "this", "is", "has", "does", "was", "returns", "status", "endpoint", "api", "operation", "method", "request", "deprecated", "used", "internal", "experimental", "beta", "alpha", "private", "public", "legacy", "only", "not", "no", "new"):
        return None
    if not re.fullmatch(r"[a-z]{2,}", verb):
        return None
    if len(ws) > 1 and ws[1].lower() == "of" and verb not in _READ_VERBS:
        return None  # a noun before "of" ("Register of certificate action callback": a task said so)
    # (a summary that names one thing as code names the others so too: "of a DataSource")
    code = any(_identifier(w) for w in ws[1:])
    # (a name that opens with two capitals is one word: "OAuth" was "o auth", GitHub's
    # "create an impersonation o auth token", a fresh draw of stop 71)
    rest = [w if (w.isupper() and len(w) > 1) or re.fullmatch(r"[A-Z]{2}[a-z]{2,}\d*", w) or re.search(r"[a-z][A-Z]", w) and not _identifier(w, code) else words(w) for w in ws[1:]]
    # a second verb after "or" as the first is said ("Update the developer record or adds the
    # developer if it doesn't exist": openchannel's summary, said so in a task of round 22)
    # (after "and" only where the summary's own verb was so said, "Creates and updates ...":
    # "Get pending changes and updates" lists two nouns)
    joins = ("or", "and") if ws[0].lower() != verb else ("or",)
    rest = [_imperative(w) if i and rest[i - 1] in joins and w in _THIRD_VERBS else w for i, w in enumerate(rest)]
    # "by id" says how the API finds the record, which its key argument says again: rev.ai's
    # "Get Transcript By Id" was "the transcript by id of job ..." in a task
    while len(rest) > 2 and rest[-2] == "by" and rest[-1].lower() in ("id", "ids", "identifier", "uuid", "key"):
        rest = rest[:-2]
    # the caller's own things are the things ("Lists your virtual machines" gave "the your virtual
    # machines" and "how many your virtual machines ... there are": a fresh draw, stop 69)
    if len(rest) > 1 and rest[0].lower() in ("your", "my", "our"):
        rest = rest[1:] if verb in _READ_VERBS else ["the"] + rest[1:]
    # "an" before a word a vendor's name stood before ("Adds an environment member to an Cloud9
    # development environment": the corpus's AWS summaries lost their "AWS"), not before a
    # letter said as a vowel ("an SMS", "an hour", "an x509 certificate")
    rest = ["a" if w == "an" and i + 1 < len(rest) and re.match(r"[bcdfgjklmnpqrstvwyz][a-z0-9]", rest[i + 1]) else w for i, w in enumerate(rest)]
    # and "an" where a summary wrote "a" before a vowel ("Create a export entity": Sinao's, said
    # so in a task of stop 74); not before a vowel said as a consonant ("a user", "a one-off",
    # "a European")
    rest = ["an" if w == "a" and i + 1 < len(rest) and re.match(r"(?!one\b|once\b|eu)[aeio][a-z]", rest[i + 1]) else w for i, w in enumerate(rest)]
    # "for the specified meetingId" names the meeting by its id, as the key argument does: "for
    # the specified meeting" (Chime's "stop transcription for the specified meeting id for meeting
    # ...", a fresh draw, stop 66)
    said = re.sub(r"\b((?:specified|given|provided)(?: [a-z]+){1,2}) (?:id|ids|identifier|arn)\b(?=$| (?:of|for|in|on|to|with|from|by|and)\b)", r"\1", " ".join(adverb + [verb] + rest))
    # "a specified remote access session" is the one the call names: "end a the remote access
    # session ..." (Device Farm's "Ends a specified remote access session", a fresh draw of stop 70)
    said = re.sub(r"\b(?:a|an|one)\s+(?:specified|specific|given|particular)\b", "the specified", said)
    if _GENERIC_OBJECT.fullmatch(said):
        return None
    return said, verb in _READ_VERBS


# a summary whose object is a word for anything ("Deletes a resource", "Updates an existing
# resource", "Inserts a new resource into this collection": YouTube's, every one so): it names
# no thing, and the phrase from the operation id does ("delete a resource with id ..." said
# nothing of the caption a task meant, a fresh draw of stop 72)
_GENERIC_OBJECT = re.compile(r"[a-z]+(?: (?:a|an|the|one|this|that|some))?(?: (?:new|existing|specified|given|single|particular|specific))? (?:resources?|items?|objects?|entit(?:y|ies)|records?|elements?)(?: (?:in|into|from|of|to|on) (?:this|the|a) collection)?")


# "with track id {track_id}": a label of two or three words before a key, none a preposition
_LABEL_BEFORE_KEY = re.compile(r"\swith((?: (?!(?:" + "|".join(PREPOSITIONS) + r")\b)\w+){2,3}) \{$")


def phrase_tool(t: ToolIR) -> bool:
    """A tool's `say` (and a read's `gives`) from its summary, keeping every placeholder the
    generated phrase had: `say "tags all collection {collection_id}"` with the summary "Lists
    the tags of a collection" becomes `say "list the tags of collection {collection_id}"`, and
    `say "reserve book {book_id} with reader {reader}"` with "Reserve a book for a reader"
    becomes `say "reserve book {book_id} for reader {reader}"`: a placeholder takes the place of
    the summary's "a book" where it names one, else it follows as the generated phrase had it.
    For the tools whose phrase the importer made from an operation id (simulated and world-model
    tools), not CRUD ones. Returns whether it changed."""
    got = summary_phrase(t.description)
    if got is None:
        return False
    phrase, read = got
    # the type the call answers, named as the spec's code names it ("Enables a DatabaseInstance",
    # Firebase's: a task said "enable a DatabaseInstance ... and disable that database instance",
    # a fresh draw of stop 74), is said in words; a brand of two parts elsewhere stays
    # (or the record a key argument names: a recorded call answers nothing)
    for named in {re.sub(r"_\d+$", "", t.result or "")} | {p.type[:-2] for p in t.params if p.type.endswith("Id")}:
        if re.fullmatch(r"[A-Z][a-z]+(?:[A-Z][a-z]+)+", named):
            phrase = re.sub(rf"\b{named}\b", words(named), phrase)
    holders = _PLACEHOLDER.findall(t.say)
    if "{" in phrase:
        return False
    # the generated phrase after its verb: key segments ("event {event_id} of calendar
    # {calendar_id}") and a "with" list ("with subject {subject} and text {text}")
    m = re.search(r"(?:^|\s)((?:\w+ )?\{)", t.say)
    tail = t.say[m.start(1) :] if m is not None else ""
    if m is not None and re.search(r"(?:^|\s)with$", t.say[: m.start(1)].rstrip()):
        tail = "with " + tail
    elif m is not None and (w := _LABEL_BEFORE_KEY.search(t.say[: m.end(1)])):
        # (a label, not a verb's words before a key segment: `AssociateDeviceWithPlacement`'s
        # "associate device with placement of placement {placement_name}" was said "associate
        # device {device_id} with a placement with of placement ...", stop 68)
        tail = "with" + t.say[w.start(1) :]  # "with track id {track_id}": a label of two words or more, not a key segment "id {track_id}"
    if tail.startswith("with "):
        key, items = "", tail[5:]
    else:
        key, _, items = tail.partition(" with ")
    segs = [(g.group(1), g.group(2)) for g in re.finditer(r"(\w+) \{(\w+)\}", key)]
    if key and sum(1 for _ in _PLACEHOLDER.finditer(key)) != len(segs):
        return False  # a key part the segments do not cover: leave the phrase as it was
    left: list[str] = []
    for noun, h in segs:
        hit = naming(noun, phrase)
        if hit is None and noun in ("name", "id", "arn", "key") and len(_tokens(h)) > 1 and _tokens(h)[-1] == noun:
            # a key said by its last word ("for arn {remote_access_session_arn}"): the thing its
            # name says, where the summary names it ("install an application to the device in a
            # remote access session"), else the name's words ("app arn {app_arn}"): Device
            # Farm's task read "... for arn the new remote access session of arn "arn:..."" (a
            # fresh draw, stop 70)
            thing = " ".join(_tokens(h)[:-1])
            hit = naming(thing, phrase)
            noun = thing if hit is not None else " ".join(_tokens(h))
        if hit is not None:
            phrase = phrase[: hit.start()] + f"{noun} {{{h}}}" + phrase[hit.end() :]
        else:
            left.append(f"{noun} {{{h}}}")
    if left:
        # what the summary does not name follows the first key it names ("move event {event_id}
        # of calendar {calendar_id} to another calendar"), else the phrase ("list tags of ...")
        rest = " of ".join(left)
        placed = next((f"{n} {{{h}}}" for n, h in segs if f"{n} {{{h}}}" in phrase), None)
        if placed is not None:
            phrase = phrase.replace(placed, f"{placed} of {rest}", 1)
        else:
            phrase = f"{phrase} {'of' if read else 'for'} {rest}"
    kept = []
    for item in re.split(r", | and ", items) if items else []:
        im = re.fullmatch(r"(.*?)(\w+) \{(\w+)\}", item)
        noun = im.group(2) if im else ""
        hit = naming(noun, phrase) if im else None
        if im and hit is None and noun in ("name", "id", "arn", "key") and (lead := im.group(1).split()[-2:]):
            # a key's label names its thing before the word for the key ("with container name
            # {container_name}"), which the summary names ("remove an object lifecycle policy from
            # a container"): "... from container {container_name}", not "... from a container with
            # container name ...", said "from a container with the container with creation time"
            # (AWS MediaStore, a fresh draw's task, stop 64)
            for n in (" ".join(lead), lead[-1]):
                if (hit := naming(n, phrase)) is not None:
                    noun = n
                    break
        if hit is not None and "{" not in phrase[hit.start() : hit.end()]:
            phrase = phrase[: hit.start()] + f"{noun} {{{im.group(3)}}}" + phrase[hit.end() :]
        else:
            kept.append(item)
    say = phrase + (" with " + (kept[0] if len(kept) == 1 else ", ".join(kept[:-1]) + " and " + kept[-1]) if kept else "")
    if sorted(_PLACEHOLDER.findall(say)) != sorted(holders):
        return False
    t.say = say
    if t.gives is not None and read:
        # what the read gives, with the arguments it takes ("the lyrics with track ID {track_id}",
        # not "the lyrics" of no track)
        obj = say.split(" ", 1)[1] if " " in say else ""
        # (and a quantifier: TSAPI's "Get some interview records" was counted "how many some
        # interview records ... there are")
        # (the longer first: "a list of the subscriptions" was "how many list of the
        # subscriptions to a specific topic ... there are", SNS)
        obj = re.sub(r"^(a list of|the list of|list of|the details of|details of|details for|information about|info about|a|an|the|all|one|single|some|any|several|multiple)\s+", "", obj)
        obj = re.sub(r"^(a|an|the)\s+", "", obj)
        # the preposition of a phrasal verb: "Search for airports by location" gave "the for
        # airports by location ..." (a fresh draw's task); "look up", "ask about"
        obj = re.sub(r"^(?:for|up|about)\s+(?:(?:a|an|the|all|some|any)\s+)?", "", obj)
        gives = f"the {obj}"
        if obj and set(_PLACEHOLDER.findall(gives)) <= set(holders):
            t.gives = gives
    return True


def relabel_say(t: ToolIR, labels: dict[str, str]) -> bool:
    """`say "update file {file_id} with expires at {expires_at}"` → "... with expiry time
    {expires_at}": a parameter named in words before its placeholder takes the label of the field
    it fills (`labels`: field → label, over the tables of the tool's service)."""
    say = t.say
    for p in t.params:
        label = labels.get(p.name)
        if label is None and p.type == "text" and _tokens(p.name)[-1:] in (["id"], ["ids"]):
            label = label_for(FieldIR(p.name, "text", "text"))  # "device ID", as a person writes it
        if label:
            say = say.replace(f"{words(p.name)} {{{p.name}}}", f"{label} {{{p.name}}}")
            if t.gives:
                t.gives = t.gives.replace(f"{words(p.name)} {{{p.name}}}", f"{label} {{{p.name}}}")
    changed = say != t.say
    t.say = say
    return changed


_LETTERS = re.compile(r"\b(?:[a-z] ){1,}[a-z]\b")
# three or more: in running text "a x" may be an article and a word, "s i m" is no English
_LETTERS_3 = re.compile(r"\b(?:[a-z] ){2,}[a-z]\b")


def _acronyms(text: str) -> str:
    def one(m: re.Match) -> str:
        run = m.group()
        # "add a d a g run": the article before an acronym of three letters or more, not an
        # `ADAG` (an acronym's own leading `a` has two letters after it at most: "a p i")
        head, rest = ("a ", run[2:]) if run.startswith("a ") and len(run) >= 7 else ("", run)
        return head + rest.replace(" ", "").upper()
    return _LETTERS_3.sub(one, text)


# words written in mixed case that `words` splits at their capitals (`IoTSpaces` → "io t spaces")
_MIXED = ((re.compile(r"\bio t\b"), "IoT"), (re.compile(r"\bo auth\b"), "OAuth"), (re.compile(r"\bi os\b"), "iOS"))


def spoken_noun(noun: str) -> str:
    """`s i m card` (from `SIMCard`) → "SIM card", `ip connection` → "IP connection": a run of
    single letters is an acronym, and so are the words a person writes in capitals; `io t
    spaces` (from `IoTSpaces`) → "IoT spaces"."""
    for split, word in _MIXED:
        noun = split.sub(word, noun)
    noun = _LETTERS.sub(lambda m: m.group().replace(" ", "").upper(), noun)
    return " ".join(_SPELLED[w] if w in _SPELLED and _SPELLED[w].isupper() else w for w in noun.split(" "))


def fix_noun(r, svc: ServiceIR | None, table: TableIR | None = None) -> bool:
    """A record noun that splits an acronym into letters, said as the acronym: on the record
    (the sampler names rows with it), in what its service says to an agent (its description,
    its tools' descriptions, phrases and errors) and in the names its seed draws from the noun
    ("Beacon public IP prefix"). Comments keep the words they were written with."""
    old, new = r.noun, spoken_noun(r.noun)
    if new == old or r.record is None:
        return False
    r.record.noun = new
    r.noun = new
    word = re.compile(r"(?<![/\w])" + re.escape(old) + r"(?=(?:e?s)?\b)", re.I)  # "Public i p prefixes of ...", not a path (`/isos`)
    # in prose, never in a placeholder (`{iso}`); in code, only in its strings, never in a
    # name (`filter(r_ in isos)`, `ref isos`)
    prose = lambda text: re.sub(r"\{[^{}]*\}|[^{}]+", lambda m: m.group() if m.group().startswith("{") else word.sub(new, m.group()), text)  # noqa: E731
    strings = lambda code: re.sub(r'"(?:[^"\\]|\\.)*"', lambda m: prose(m.group()), code)  # noqa: E731
    if svc is not None:
        svc.description = prose(svc.description)
    for t in svc.tools if svc is not None else ():
        t.say, t.description = prose(t.say) if t.say else t.say, prose(t.description)
        t.body = [strings(line) for line in t.body]  # its errors ("no public IP prefix ...")
        if t.gives:
            t.gives = prose(t.gives)
    for f, gen in (table.seed.items() if table is not None else ()):
        table.seed[f] = strings(gen)
    return True


# ─────────────────────────── house rules ───────────────────────────

# values of a status (or flags) that mark a row as finished with: a house rule can ask that
# such rows be left alone
_ENDED = {"closed", "archived", "cancelled", "canceled", "inactive", "deactivated", "deleted", "disabled", "suspended", "terminated", "expired", "voided", "void", "revoked", "retired", "locked", "frozen", "trashed", "discontinued", "withdrawn"}
_STATUS_NAMES = {"status", "state", "stage", "phase", "lifecycle"}
_LIVE_FLAGS = {"active", "enabled", "is_active", "is_enabled"}
_WRITE = re.compile(r"^(?:let \w+ = )?(update|delete|insert) (?:" + ROW + r" in )?(\w+)\b")


@dataclass
class ProposedRule:
    """A house rule the import proposes, listed in its report for the author to keep or drop."""

    name: str
    service: str
    description: str
    why: str


def _ended(member: str) -> bool:
    toks = set(_tokens(member))
    return bool(toks & _ENDED) and not toks & {"not", "non", "un", "pre"}


def _seeded_values(gen: str | None) -> set[str] | None:
    """The constants a seed generator can give (`weighted(a: 3, b: 1)`, `pick([a, b])`, `a`),
    or None when it is some other generator."""
    if gen is None:
        return None
    m = re.fullmatch(r"weighted\((.*)\)", gen)
    if m:
        return {part.split(":")[0].strip() for part in m.group(1).split(",")}
    m = re.fullmatch(r"pick\(\[(.*)\]\)", gen)
    if m:
        return {part.strip() for part in m.group(1).split(",")}
    if re.fullmatch(r"\w+", gen):
        return {gen}
    return None


def _writers(svc: ServiceIR, table: str) -> list[str]:
    """The ordinary tools of a service that update, delete or insert rows of one of its tables
    (simulated tools are never walked, so only these can break a rule in a sampled task)."""
    out = []
    for t in svc.tools:
        if t.simulated:
            continue
        if any((m := _WRITE.match(line.strip())) and m.group(2) == table for line in t.body):
            out.append(t.name)
    return out


def _changers(svc: ServiceIR, table: str) -> list[str]:
    return [t.name for t in svc.tools if not t.simulated and any((m := _WRITE.match(line.strip())) and m.group(2) == table and m.group(1) in ("update", "delete") for line in t.body)]


def _conditions(rec: RecordIR, seed: dict[str, str], enums: dict) -> list[tuple[str, str, str, str]]:
    """(condition on the row's bare fields, its words, why, a word for the rule's name) for each
    field that marks a row as ended: a status enum with ended members, a text status with such
    values the spec lists, or a flag (`archived`, `locked`; `active` false) that the seeds set
    both ways."""
    out = []
    for f in rec.fields:
        if f.key or f.ref or f.src.count(".") > 1:
            continue  # a status deep inside a nested object (`properties.configServer.state`) is not the row's
        toks = _tokens(f.name)
        if f.base == "enum" and f.enum in enums and toks and toks[-1] in _STATUS_NAMES:
            members = enums[f.enum].members
            ended = [m for m in members if _ended(m)]
            seeded = _seeded_values(seed.get(f.name))
            if not ended or len(ended) == len(members) or seeded is None:
                continue
            ended = [m for m in ended if m in seeded]
            if not ended or not seeded - set(ended):
                continue  # the seeds never give an ended row, or only ended ones
            cond = " or ".join(f"{f.name} == {m}" for m in ended)
            said = " or ".join(words(m) for m in ended)
            why = f"{f.enum} has the member{'s' if len(ended) > 1 else ''} {', '.join(ended)}"
            out.append((cond, f"whose {f.label or words(f.name)} is {said}", why, ended[0]))
        elif f.base == "text" and toks and toks[-1] in _STATUS_NAMES:
            # a status the spec lists the values of (in a description, or an item enum), seeded
            # with exactly those: never a generic pool the importer made up
            listed = _spec_values(getattr(f, "_shape", None))
            if not listed or seed.get(f.name) != "pick([" + ", ".join(lit(v) for v in dict.fromkeys(listed)) + "])":
                continue
            ended = [v for v in listed if _ended(snake(v))]
            if not ended or len(ended) == len(listed):
                continue
            cond = " or ".join(f"{f.name} == {lit(v)}" for v in ended)
            said = " or ".join(words(snake(v)) for v in ended)
            out.append((cond, f"whose {f.label or words(f.name)} is {said}", f"the spec lists the {f.name} values {', '.join(listed)}", snake(ended[0])))
        elif f.base == "bool":
            seeded = _seeded_values(seed.get(f.name))
            if seeded != {"true", "false"}:
                continue
            flag = "_".join(t for t in toks if t != "is")
            if set(toks) & _ENDED and not set(toks) & {"not", "non", "un", "can", "allow", "allows"}:
                out.append((f.name, f"that are marked {f.label or words(flag)}", f"the flag {f.name}", flag))
            elif f.name in _LIVE_FLAGS:
                out.append((f"not {f.name}", f"that are not {f.label or words(flag)}", f"the flag {f.name} (false: not {words(flag)})", {"enabled": "disabled"}.get(flag, "in" + flag)))
    return out


def propose_rules(resources, services: dict[str, ServiceIR], tables: dict[str, TableIR], enums: dict) -> list[ProposedRule]:
    """A hands-off rule for each table whose rows can be marked ended (a status enum with closed,
    archived, cancelled, inactive ... members, or such a flag) and that an ordinary tool can
    change: those rows, and the rows of other tables that belong to them, stay untouched. Each
    goes into the table's service as a constraint with a comment saying why, and is returned
    for the import report."""
    out = []
    taken: set[str] = Names()
    children: dict[str, list] = {}
    writers: dict[str, list[str]] = {}  # `service.table` → the tools that write it, found once
    for r in resources:
        for f in r.record.fields:
            if f.ref and f.ref != r.qualified:
                children.setdefault(f.ref, []).append((r, f))
    recorded = _recorded_on(resources, services)
    for r in resources:
        svc = services.get(r.service)
        table = tables.get(r.qualified)
        if svc is None or table is None:
            continue
        conds = _conditions(r.record, table.seed, enums)
        changers = _changers(svc, r.table)
        kids = []
        for child, f in children.get(r.qualified, []):
            csvc = services.get(child.service)
            if csvc is None:
                continue
            if child.qualified not in writers:
                writers[child.qualified] = _writers(csvc, child.table)
            if writers[child.qualified]:
                kids.append((child, f, writers[child.qualified]))
        calls = recorded.get(r.qualified, [])
        # (not the calls of a tool that ends the row itself, as a recorded `CancelChangeSet`
        # does: after it the row is cancelled and its call there, so every walk through it broke
        # the rule, and the world lost its tasks; the row's own `untouched` still guards a row
        # ended before: stop 65)
        ended_by = {f for c, _, _, _ in conds for f in re.findall(r"\b(\w+)\b", c) if f in {x.name for x in r.record.fields}}
        calls = [c for c in calls if not _ends_row(services.get(c[0]), c[3], r.table, ended_by)]
        if not conds or not (changers or kids or calls):
            continue
        cond = " or ".join(f"({c})" if " or " in c and len(conds) > 1 else c for c, _, _, _ in conds)
        said = " or ".join(s for _, s, _, _ in conds)
        noun = plural(r.record.noun or r.noun)
        name = unique(f"hands_off_{conds[0][3]}_{r.table}"[:60], taken)
        # a flag named like a member of the status (`voided` and `OrderStatus.voided`) is
        # ambiguous in a bare condition (E101): the row is bound and its fields named through it
        members = {m for f in r.record.fields if f.base == "enum" and f.enum in enums for m in enums[f.enum].members}
        clash = members & {f.name for f in r.record.fields} & set(re.findall(r"\w+", cond))
        bare = f"{ROW} in {r.table} where {_qualify(cond, r.record)}" if clash else f"{r.table} where {cond}"
        clauses = [f"untouched {bare}"] if changers else []
        kid_nouns = []
        # an action the world model records about such a row (or about what belongs to it) is a
        # touch too: a task had an agent delete the real-time endpoint of an ML model trained on
        # a deleted data source, "hands off ... and so do their ml models" (blind round 35)
        kid_calls = [(child, f, recorded.get(child.qualified, [])) for child, f, _ in kids]
        if kids or calls:
            row_cond = _qualify(cond, r.record)
            inner = [f"untouched {_there(r.service, cs, ct)} where {cf} == {ROW}.{r.record.key.name}" for cs, ct, cf, _ in calls]
            for child, f, _ in kids:
                inner.append(f"untouched {_there(r.service, child.service, child.table)} where {f.name} == {ROW}.{r.record.key.name}")
                kid_nouns.append(plural(child.noun))
            for child, f, cc in kid_calls:
                if cc:
                    inner.append(f"forall {_KID} in {_there(r.service, child.service, child.table)} where {_KID}.{f.name} == {ROW}.{r.record.key.name} {{")
                    inner.extend(f"  untouched {_there(r.service, cs, ct)} where {cf} == {_KID}.{child.record.key.name}" for cs, ct, cf, _ in cc)
                    inner.append("}")
            clauses.append(f"forall {ROW} in {r.table} where {row_cond} {{")
            clauses.extend("  " + c for c in inner)
            clauses.append("}")
        also = ""
        if kid_nouns:
            kn = list(dict.fromkeys(kid_nouns))
            also = ", and so do their " + (kn[0] if len(kn) == 1 else ", ".join(kn[:-1]) + " and " + kn[-1] if len(kn) <= 3 else ", ".join(kn[:3]) + " and the rest of what belongs to them")
        description = f"Hands off {noun} {said}: they stay as they are{also}"
        why = "; ".join(w for _, _, w, _ in conds)
        tools = changers + [t for _, _, ts in kids for t in ts] + [t for *_, t in calls] + [t for _, _, cc in kid_calls for *_, t in cc]
        comment = [
            f"proposed by `worldc import openapi`, a proposal to keep, change or drop: {why}",
            f"{', '.join(dict.fromkeys(tools))} can change such {noun}" + (" or what belongs to them" if kids else ""),
        ]
        svc.constraints.append(ConstraintIR(name, description, clauses, comment))
        out.append(ProposedRule(name, r.service, description, why))
    return out


_KID = "k_"  # the row variable of what belongs to a protected row (`ROW`'s own is `r_`)


def _there(here: str, service: str, table: str) -> str:
    """A table named from a constraint of service `here`."""
    return table if service == here else f"{service}.{table}"


def _ends_row(svc: ServiceIR | None, tool: str, table: str, fields: set[str]) -> bool:
    """Does `tool` set one of `fields` of a row of `table` (a recorded call whose verb leads to
    the status: `world_model._recorded_tool`)?"""
    t = next((x for x in svc.tools if x.name == tool), None) if svc is not None else None
    return t is not None and any(line.startswith(f"update {table}[") and any(re.search(rf"[{{,] {re.escape(f)}: ", line) for f in fields) for line in t.body)


def _recorded_on(resources, services: dict[str, ServiceIR]) -> dict[str, list[tuple[str, str, str, str]]]:
    """Resource (`service.table`) → the tables of recorded calls that take one of its keys, as
    (service, table, field, the tool that records them): the world model's record of an action
    on such a row (`world_model._recorded_tool`)."""
    by_alias = {r.alias: r.qualified for r in resources if r.alias}
    out: dict[str, list[tuple[str, str, str, str]]] = {}
    for name, svc in services.items():
        for t in svc.tables:
            if not any(c.startswith("a call of ") for c in t.record.comments):
                continue
            tool = next((x.name for x in svc.tools if any(re.search(rf"\binsert {t.name} ", line) for line in x.body)), t.name)
            for f in t.record.fields:
                if not f.key and f.type in by_alias:
                    out.setdefault(by_alias[f.type], []).append((name, t.name, f.name, tool))
    return out


def _qualify(cond: str, rec: RecordIR) -> str:
    """`status == closed or archived` → `r_.status == closed or r_.archived`: the row's fields
    named through the row variable (enum members, quoted values and `not` stay as they are)."""
    names = {f.name for f in rec.fields}
    out = []
    for tok in re.split(r"(\W+)", cond):
        value = bool(out) and out[-1].rstrip().endswith(("==", '"'))
        out.append(f"{ROW}.{tok}" if tok in names and not value else tok)
    return "".join(out)


# ─────────────────────────── the pass ───────────────────────────


# a verb an operation id clips (PeerTube's `delVideo`: "del the video channel of that video")
_CLIPPED_VERBS = {"del": "delete", "rm": "remove", "upd": "update", "mk": "make", "cre": "create", "ins": "insert", "chg": "change"}
_CLIPPED = re.compile(r"^(" + "|".join(_CLIPPED_VERBS) + r")\b(?= )", re.I)


def speak(resources, services: dict[str, ServiceIR], tables: dict[str, TableIR], enums: dict, ops=()) -> list[ProposedRule]:
    """Labels, seeds, phrases and proposed rules for an import whose tools are made; the IR is
    changed in place. `ops` (with `.tool`, `service.tool`, and `.kind`) say which tools were
    made from operations the importer could not infer: their phrases come from summaries.
    Returns the proposed rules (also written into their services)."""
    from_ids = {o.tool for o in ops if o.kind in ("simulated", *world_model.MODEL_KINDS)}
    for r in resources:
        table = tables.get(r.qualified)
        fix_noun(r, services.get(r.service), table)
        for f, gen in (table.seed.items() if table is not None else ()):
            table.seed[f] = _acronyms(gen)  # names drawn from the noun: "Juniper SIM card"
    for svc in services.values():
        for t in svc.tools:  # a phrase may name another service's noun ("delete s i m card ...")
            t.say = _CLIPPED.sub(lambda m: _CLIPPED_VERBS[m.group(1).lower()], _acronyms(t.say))
            t.gives = _acronyms(t.gives) if t.gives else t.gives
    nouns = {r.qualified: r.noun for r in resources}
    # the API's name, as its services share it (`cloud_trail`, `cloud_trail_trails`): an ARN's service
    api = "_".join(os.path.commonprefix([n.split("_") for n in services]))
    for r in resources:
        label_fields(r.record, nouns)
        if r.qualified in tables:
            reseed(tables[r.qualified], r.noun, api)
            person_seeds(tables[r.qualified])
            place_seeds(tables[r.qualified], r.service)
            range_seeds(tables[r.qualified])
    resource_records = {id(r.record) for r in resources}
    for svc in services.values():
        # the world model's tables of answers (`world_model.answered`) are in the services
        # already: their text fields are seeded as the resources' are (a metric destination's
        # ARN is an ARN, not "destination arn 27")
        for t in svc.tables:
            if id(t.record) not in resource_records:
                # and their references are labelled as the resources' are: an Athena notebook's
                # session summaries named their `session_id` "the session id "Follow up with
                # ..."", the session's own name said as its id (blind round 15)
                said = {f.label or words(f.name) for f in t.record.fields}
                for f in t.record.fields:
                    if f.ref and f.label is None and (label := label_for(f, nouns.get(f.ref))) is not None and label not in said:
                        f.label = label
                        said.add(label)
            reseed(t, t.record.noun or words(t.record.name).lower(), api)
            person_seeds(t)
            place_seeds(t, svc.name)
            range_seeds(t)
    labels: dict[str, dict[str, str]] = {}  # per service: field → label, over its tables
    for r in resources:
        labels.setdefault(r.service, {}).update({f.name: f.label for f in r.record.fields if f.label and not f.ref})
    for svc in services.values():
        for t in svc.tools:
            if t.simulated or f"{svc.name}.{t.name}" in from_ids:
                phrase_tool(t)
            relabel_say(t, labels.get(svc.name, {}))
    tell_twins_apart(services, {o.tool: o.method.upper() for o in ops if getattr(o, "method", None)})
    return propose_rules(resources, services, tables, enums)


# a PUT replaces what a PATCH of the same summary changes in part: Probely's twin "Update Jira
# Cloud target configuration" calls, each recorded apart, read alike in a task and in
# `list_tools`, so a blind player chose the PATCH where the task had made the PUT (stop 50)
_TWIN_WORDS = {"PUT": ("replace", "replaces it whole"), "PATCH": ("update", "changes only the fields given")}


def _records_its_call(t: ToolIR) -> bool:
    """Does `t` record its call (the world model's `insert <tool>_calls { ... }`)?"""
    return any(re.search(r"\binsert \w+_calls \{", line) for line in t.body)


def tell_twins_apart(services: dict[str, ServiceIR], methods: dict[str, str]) -> None:
    """Tools of one service that say the same and were made from a PUT and a PATCH: the PUT's
    phrase says "replace" for "update", and each description says what its method does."""
    for svc in services.values():
        alike: dict[str, list[ToolIR]] = {}
        for t in svc.tools:
            alike.setdefault(t.say, []).append(t)
        for group in alike.values():
            verbs = {methods.get(f"{svc.name}.{t.name}") for t in group}
            if len(group) < 2 or not {"PUT", "PATCH"} <= verbs:
                continue
            if not all(_records_its_call(t) for t in group):
                # twins that write the table alike (a PUT here keeps what it is not given, as a
                # PATCH does): either does what the phrase says, so neither is "replace" (Azure's
                # application by id read "replaces it whole" and kept every field: round 14)
                continue
            for t in group:
                verb, does = _TWIN_WORDS.get(methods.get(f"{svc.name}.{t.name}"), (None, None))
                if verb is None:
                    continue
                if t.say.startswith("update "):
                    t.say = f"{verb} {t.say[len('update '):]}"
                t.description = f"{t.description.rstrip('.')} ({does})" if t.description else does.capitalize()
        for group in alike.values():
            if len(group) > 1 and len({t.say for t in group}) == 1 and not _same_action(group):
                _named_apart(group)


def _same_action(group: list[ToolIR]) -> bool:
    """Do these tools do one thing: the same parameters, the same body (Azure Migrate's PUT and
    PATCH of a project, both read as an update)? Either does what their phrase says, so neither
    is told apart: "... customer workspace ID "CWI-3962" (update)" read as a value in a fresh
    draw's task (stop 63)."""
    first = group[0]
    return all(t.body == first.body and [(p.name, p.type, p.default) for p in t.params] == [(p.name, p.type, p.default) for p in first.params] for t in group)


# what a method does, where a tool's method is all that tells it from another of its phrase
_METHOD_DOES = {"get": "check", "put": "set", "post": "add", "patch": "change", "delete": "remove", "head": "check"}


def _named_apart(group: list[ToolIR]) -> None:
    """Tools of one phrase that are no PUT/PATCH pair, told apart by the words of their names
    the others lack: Azure's `Failover` and `FailoverAllowDataLoss` both said "fail over from the
    current primary server to this server" (their descriptions' first sentence), and a task that
    asked for both read as one thing done twice (a fresh draw's task). The words go before the
    phrase's first clause of arguments, "fail over from the current primary server to this
    server (allow data loss) for configuration {...}", and after the description, which
    `list_tools` shows. A numbered twin (`list_rules_2`) has no words of its own: left as it is."""
    names = [t.name.split("_") for t in group]
    for t, toks in zip(group, names):
        others = {w for other in names if other is not toks for w in other}
        own = [w for w in toks if w not in others and not w.isdigit()]
        if not own:
            continue
        if len(own) == 1 and own[0] in _METHOD_DOES:
            # only the HTTP method tells them apart (BBC's PUT and GET both "Favourite Track or
            # Clip": a task said "favourite track or clip (put) for ...", a fresh draw, stop 66):
            # what the method does goes before the phrase
            t.say = f"{_METHOD_DOES[own[0]]} {t.say}"
            t.description = f"{t.description.rstrip('.')} ({_METHOD_DOES[own[0]]})" if t.description else _METHOD_DOES[own[0]].capitalize()
            continue
        extra = " ".join(own)
        if re.search(rf"(?:^|\s){re.escape(extra)}(?:\s|$)", t.say.split("{")[0]):
            # its own words are its phrase's already (Azure's `VerifyDomainOwnership` beside
            # `ResendRequestEmails` and `RetrieveSiteSeal`, all "verify domain ownership for this
            # certificate order": "verify domain ownership (verify domain ownership) for order",
            # a fresh draw of stop 70): the others' words tell them from it
            continue
        brace = t.say.find("{")
        cut = -1
        if brace > 0:
            cut = max(t.say.rfind(f" {w} ", 0, brace) for w in ("for", "with", "of", "on", "in", "to", "from", "at", "by"))
        t.say = f"{t.say[:cut]} ({extra}){t.say[cut:]}" if cut > 0 else f"{t.say} ({extra})"
        t.description = f"{t.description.rstrip('.')} ({extra})" if t.description else extra.capitalize()


# ─────────────────────────── known by ───────────────────────────

# names a field has when it names the row for a person, ahead of a plain `name` that an API may
# use for a resource path (`projects/p/locations/l/jobs/j`)
_DISPLAY = ("display_name", "displayname", "friendly_name", "full_name", "nickname", "caption", "headline", "heading")
# a place with no name is known by its address (a property listing was known by its ZIP code:
# "the sale with zip code 94107"), after any name
_ADDRESSES = ("formatted_address", "full_address", "address")
# names a row goes by only where it has no other: what is said about it
_PROSE_NAMES = ("description", "text")
# a measure kept as text (Polly's synthesis tasks were 'add a synthesis task "Beacon synthesis
# task"', the name drawn into their `sample_rate`: a fresh draw, stop 69); never a name, not even
# as the last resort (`identity`)
_MEASURES = frozenset({"rate", "bitrate", "size", "count", "length", "width", "height", "weight", "duration", "ratio", "percent", "percentage",
                       "amount", "total", "price", "cost", "quantity", "limit", "threshold", "capacity", "score", "frequency", "interval", "timeout", "ttl"})
# text fields that say what kind of row it is or how it is stored, never which row it is
_NOT_NAMES = {"type", "kind", "status", "state", "stage", "currency", "url", "uri", "href", "link", "locale", "language", "lang", "timezone", "zone", "tz", "format", "mime", "version", "etag", "token", "hash", "color", "colour", "category", "mode", "method", "visibility", "role", "channel", "source", "platform", "encoding", "extension", "country", "region", "unit", "scope", "level", "priority", "secret", "password", "signature", "checksum", "cursor", "tags", "tag", "labels", "ids", "attributes", "metadata", "settings", "options",
              # a time typed as text (Qualtrics' distributions were "the distribution "Atlas
              # distribution"" drawn as their `created_date`)
              "date", "time", "timestamp", "datetime", "created", "updated", "modified", "at",
              # (and a deadline: Enode's vehicles were known by their smart charging policy's
              # `deadline`, "the vehicle "Northwind vehicle"", blind round 38)
              "deadline",
              # how a thing works, not what it is called (an EC2 capacity reservation fleet was
              # 'add a capacity reservation fleet "Atlas capacity reservation fleet"', its
              # `allocation_strategy`; a Greengrass core device was known by its `architecture`)
              "strategy", "architecture", "algorithm", "protocol", "tenancy",
              # whose it is (ACM PCA's certificate authorities were "the certificate authority
              # "Riverside certificate authority"", their `owner_account`)
              "account",
              # what it runs on (Remote Build Execution's worker pools were "the worker pool
              # "Juniper worker pool"", their `host_os`: round 16)
              "os",
              # where it lives, not what it is called (an IAM user was "the user "/division/"",
              # its `path`; a row known by its `endpoint` URL: the stop-54 review's draw). A row
              # with no other text is still known by one (`identity`'s last resort)
              "path", "endpoint",
              # a part of a date (a Beanstream transaction was 'add a transaction "card expiry
              # month 7"', its `card_expiry_month`: a fresh draw's task, stop 55)
              "year", "month", "week", "day", "hour", "minute",
              # a measure kept as text (`_MEASURES`)
              *_MEASURES,
              # where it is sent, not what it is called (Sakari's messages were 'the message "+1
              # 312 555 0163"', by their `phone_number`; stop 69)
              "phone", "mobile", "fax",
              # an address on a network (Looker's instances were 'the instance "203.0.113.25"',
              # by their `egress_public_ip`; stop 70)
              "ip", "ipv4", "ipv6", "cidr",
              # a colour (Airflow's tasks were 'the task "Riverside task"', by their `ui_fgcolor`:
              # blind round 49)
              "color", "colour", "fgcolor", "bgcolor",
              # markup to show it, not what it is called (YouTube's videos were 'the video "Beacon
              # video"', by their `player_embed_html`: blind round 54)
              "html", "embed", "markup", "css", "svg"}
# what a row says, not what it is called: a transcoding job was "the job with error message
# "Waiting for approval from finance."" (stop 46); a row is known by one only when it has no
# other text
_SAYS = {"message", "error", "reason", "note", "notes", "comment", "comments",
         # seeded with sentences (`common.text_seed`), as a row's `connection_info` was: a GameLift
         # game server was 'add a game server "Blocked until the contract is signed."' (round 13)
         "info", "information", "details", "instructions"}
_NOT_NAMES |= _SAYS
_NAMING = re.compile(r"display name|human[- ]readable|friendly name|\bname of the\b|\btitle of the\b|\bname for the\b|\btitle for the\b", re.I)
# a name that is a path (Google's "The resource name of the note, in the form notes/{id}"), or
# an id; Azure's "Azure resource name" is the name a person gives the resource
_PATH_NAME = re.compile(r"(?<!azure )resource name|unique identifier|\bidentifier\b|format: |projects/|\{[a-z_]+\}/", re.I)
_CLOCKS = {"created", "updated", "modified", "changed", "deleted", "last"}


# things with names of their own; and a role, whose name is no other row's (a CloudFormation
# stack set operation was known by `execution_role_name`, the role it ran as: stop 67). Only
# here: a field `role` is still seeded as a person's role ("admin"), not as "Atlas role"
# (and a key: Document AI's evaluations were 'the evaluation "Maple kms key"', by their
# `kms_key_name`, a fresh draw of stop 71)
_OWN_NAMED = NAMED_THINGS | _ALSO_NAMED | {"role", "key"}


def _names_another(field: str, noun: str) -> bool:
    """Does a field name a thing of another kind than the row (a listener's `ssl_policy`, a
    job's `queue`, a schedule's `group_name`): its last word, or the word before a last "name"
    or "title", is a thing with a name of its own, not the row's noun?"""
    toks = _tokens(field) or [""]
    # (and its ARN: an AWS FIS experiment was 'the experiment "arn:...:role/role-26"', by the
    # role it runs as, a fresh draw of stop 67)
    named = len(toks) > 1 and toks[-1] in ("name", "title", "arn")
    if named:
        toks = toks[:-1]
    own = (noun.lower().split() or [""])[-1]
    if _person_role(field) not in (None, own):
        # the name of the person in a role (VTEX's orders were 'the order "Northwind call
        # center operator"', by `callCenterOperatorName`; an OpenSearch VPC endpoint "Amara
        # Kowalski", by its owner's: stop 65)
        return True
    # (a key's version too: Document AI's `kms_key_version_name`, "Maple kms key version")
    return toks[-1] in _OWN_NAMED and toks[-1] != own or "key" in toks[:-1] and own != "key"


def _person_role(field: str) -> str | None:
    """The role a field names a person by (`call_center_operator_name`, `owner`): its last word,
    or the word before a last "name"; None where that is no person's role."""
    toks = _tokens(field) or [""]
    if len(toks) > 1 and toks[-1] == "name":
        toks = toks[:-1]
    return toks[-1] if toks[-1] in _PERSON_ROLES else None


# the roles a person plays towards a row: their name is the person's, not the row's
_PERSON_ROLES = frozenset("operator owner creator author assignee agent reporter requester requestor approver reviewer sender recipient buyer seller editor organizer organiser submitter modifier updater".split())


def _a_length_of_time(f: FieldIR) -> bool:
    """A text that holds how long something took (`elapsedTime`, format `google-duration`)."""
    fmt = (getattr(getattr(f, "_shape", None), "format", None) or "").lower()
    return fmt.endswith("duration") or "elapsed" in _tokens(f.name)


def may_name(field: str) -> bool:
    """Could a text field of this name be what a row is called (not a kind, a link, a message,
    an id or a list of ids)?"""
    toks = _tokens(field)
    # a DICOM attribute's `Value` is what the words before it say (Slicebox's patients were
    # 'the patient "Cedar patient"', their `patient_birth_date_value`, blind round 22)
    while len(toks) > 1 and toks[-1] in ("value", "values", "string", "str"):
        toks = toks[:-1]
    # a code of a kind of thing is that thing (a call summary was "call summaries "CA"", its
    # `country_code`), where a code of its own may name a row (a coupon's `code`)
    said = toks[-2:-1] if toks[-1:] == ["code"] else toks[-1:]
    if toks[-1:] == ["number"] and set(toks[-2:-1]) & {"phone", "mobile", "fax"}:
        said = toks[-2:-1]  # (a `phone_number` too: an invoice's number names it, a phone's does not)
    return bool(toks) and toks[-1] not in _NOT_NAMES and not set(said) & _NOT_NAMES and not set(toks) & {"ip", "ipv4", "ipv6"} and not field.endswith(("id", "ids")) and not flag_like(field)


def _said_of_another(f: FieldIR, noun: str) -> bool:
    """Whether a field's description calls it the name of a thing that is not the row ("Name of
    a reserved IP address range ..." on an instance)."""
    said = getattr(getattr(f, "_shape", None), "description", "") or ""
    m = re.match(r"\W*(?:the\s+)?(?:name|title)\s+(?:of|for)\s+(?:a|an|the)\s+((?:[\w-]+\s+){0,5}[\w-]+)", said, re.I)
    # (a resource, an object or an item is the row: "Name of the resource")
    return m is not None and not (set(noun.lower().split()[-1:]) | {"resource", "object", "item", "entity", "record"}) & set(m.group(1).lower().split())


def _shown_as_numbers(f: FieldIR) -> bool:
    """Whether every example the spec gives a text field is a number ("0", "1.5")."""
    shape = getattr(f, "_shape", None)
    shown = [e for e in ([getattr(shape, "example", None)] + list(getattr(shape, "examples", None) or [])) if e is not None]
    return bool(shown) and all(re.fullmatch(r"[-+]?\d+(?:\.\d+)?", str(e).strip()) for e in shown)


def identity(fields: list[FieldIR], names: tuple[str, ...], noun: str = "") -> list[str]:
    """The `known by` of a record: the field a person names a row by (a display name, then one of
    `names`, then a field its description calls a name, then a `_name`/`_title` field, then any
    text that is not a kind, a status or a link); failing all, what the row belongs to (a
    reference) and when it happened (a date), as a statement is known by its account and its end
    date."""
    # a list the import keeps as comma-separated text names no row (a Device Farm instance was
    # 'the device instance "urgent"', its labels, then its packages to keep on cleanup)
    texts = [f for f in fields if not f.key and not f.json and not f.ref and f.base in ("text", "email", "id") and getattr(getattr(f, "_shape", None), "items", None) is None]
    # the name of a referenced row, beside its reference in one object (a bare name, or one named
    # as the reference is), is that row's: Mailchimp's campaigns were "the campaign "Atlas
    # recipients list"", `recipients.list_name` beside `recipients.list_id`. The row is known
    # otherwise, by that reference at worst. Another property there is the row's own (an
    # alert's `metadata.assignee` beside `metadata.alertId`)
    referred: dict[str, set[str]] = {}
    for f in fields:
        if f.ref and "." in f.src:
            outer, _, leaf = f.src.rpartition(".")
            stem = words(leaf).split()[:-1]
            referred.setdefault(outer, set()).add(" ".join(stem))

    def of_the_referred(f: FieldIR) -> bool:
        outer, _, leaf = f.src.rpartition(".")
        if outer.lower() in WRAPPERS:
            return False  # a wrapper holds the row's own (YouTube's `snippet.title` beside `snippet.channelId`)
        said = words(leaf)
        return outer in referred and (said in ("name", "title", "display name") or any(stem and said.startswith(stem + " ") for stem in referred[outer]))

    texts = [f for f in texts if "." not in f.src or not of_the_referred(f)]
    # and beside it in the row itself: YNAB's transactions hold `category_id` and `category_name`,
    # and were 'the transaction "Cedar category" among the transactions of the category "Cedar
    # category"' (a fresh draw, stop 69)
    refs = {f.name for f in fields if f.ref and not f.key}
    texts = [f for f in texts if not (f.name.endswith("_name") and ({f.name[:-5] + "_id", f.name[:-5]} & refs))]

    def path_like(f: FieldIR) -> bool:
        shape = getattr(f, "_shape", None)
        if shape is None or re.fullmatch(r"\s*(?:the\s+)?(?:azure\s+)?resource\s+name(?:\s+associated\s+with\s+the\s+resource)?\.?\s*", shape.description or "", re.I) and "/" not in str(shape.example or ""):
            # Azure's base `Resource` says only "Resource name" (or "Resource name associated
            # with the resource", Recovery Services): the name a person gives it. Not so read,
            # a protected item was known by its container's name ('the protected item
            # "Riverside container"', blind play)
            return False
        return bool(_PATH_NAME.search(shape.description or "")) or "/" in str(shape.example or "")

    top = [f for f in texts if "." not in f.src]
    # not another object's (`creator.displayName`), even inside a wrapper (Azure's
    # `properties.hostingEnvironmentProfile.name` named an App Service plan: stop 67)
    mine = [f for f in texts if all(seg.lower() in WRAPPERS for seg in f.src.split(".")[:-1])]
    # a person with a first and a last name and no whole one is known by the two (Xero's
    # employees were 'the employee "Mrs"', by their `title`)
    # (the person's own `name` object too: Clever's `name.first`, `name.last`)
    named = mine + [f for f in texts if f not in mine and f.src.lower().split(".")[:-1] == ["name"]]
    parts = [next((f for f in named if name_part(f.name) == part), None) for part in ("first", "last")]
    # (not a thing a person made that has a subject of its own: GoToMeeting's meeting histories
    # were 'the meeting history "Hannah Raman"', by their organizer's names; stop 70. A `title`
    # is no such sign: Clever's school admins hold their job's)
    titled = bool(noun.split()) and noun.lower().split()[-1] not in PERSON_NOUNS and any(f.name in ("subject", "topic") for f in mine)
    if all(parts) and not titled and not any(f.name in _DISPLAY or f.name == "name" for f in mine):
        return [parts[0].name, parts[1].name]
    first = None
    # a place with an address and no name is known by its address before a sentence about it (a
    # letting agent's property was 'the property "Second reminder sent."', its description)
    prose = tuple(n for n in names if n in _PROSE_NAMES)
    order = _DISPLAY + tuple(n for n in names if n not in _PROSE_NAMES) + _ADDRESSES + prose
    wrapped = {id(f) for f in mine if "." in f.src}
    for pool in (top, texts):
        for want in order:
            # (a name in a wrapper is the row's own: Mailchimp's `settings.title`)
            first = next((f for f in pool if (f.name == want or id(f) in wrapped and "_".join(unwrapped(_tokens(f.name))) == want) and not (want == "name" and path_like(f))), None)
            if first is not None:
                break
        if first is not None:
            break
    if first is None:
        # ("A developer-facing, human-readable error message" names nothing, and "The resource
        # name of the selected DPC in the format customers/..." is a path: a provisioning
        # configuration was 'add a configuration "/images/logo.png"')
        # (not another thing's name: an EventBridge schedule's `group_name`, "The name of the
        # schedule group associated with this schedule", was 'the schedule "Cedar group"')
        first = next((f for f in top if _NAMING.search(getattr(getattr(f, "_shape", None), "description", "") or "") and f.base != "id" and may_name(f.name) and not path_like(f) and not _names_another(f.name, noun)), None)
    if first is None:
        # the row's own (`track_name` on a track, not the `album_name` before it), else the first;
        # never a name inside another object the row holds (a support case comment was "the
        # comment "Tomasz Moreno"", its creator's display name), only in a wrapper (`properties`)
        own = "_".join(noun.lower().split()[-1:])
        for want in names:
            ends = [f for f in mine if f.name.endswith("_" + want) and f.base != "id" and may_name(f.name)]  # (a `currency_code` is a currency's)
            first = next((f for f in ends if own and _tokens(f.name)[-2:-1] == [own]), None) or next((f for f in ends if not _names_another(f.name, noun)), None)
            if first is not None:
                break
    if first is None:
        # (not the name of another thing the row holds: an AWS listener's `ssl_policy` named
        # it "Orion listener", and a blind player had to guess that "add a listener "Orion
        # listener"" set its SSL policy; with no name the row is known by what it belongs to)
        # (nor a text the spec shows only numbers for: a GitHub hook's config was 'the insecure
        # SSL "Cedar config"', its `insecure_ssl`, "0" or "1"; stop 70)
        # (nor one its description calls another thing's name: Looker's `reserved_range`, "Name
        # of a reserved IP address range within the consumer network"; stop 70)
        first = next((f for f in mine if may_name(f.name) and not path_like(f) and not _names_another(f.name, noun) and not _shown_as_numbers(f) and not _said_of_another(f, noun)), None)
    if first is not None:
        return [first.name]
    # a name inside another object the row holds names that object, not the row (an FSx backup
    # was 'the backup "Atlas directory information domain"', its directory's domain): the row
    # is known by what it belongs to first (a fresh draw, stop 66)
    nested = next((f for f in texts if f not in mine and may_name(f.name) and not path_like(f) and not _names_another(f.name, noun)), None)
    # with no name of its own, the name of the person in a role tells the row (an alert's
    # `metadata.assignee` beside its `alertId`: Alert Center lost its task when it was known by
    # the reference and a time), better than a code would
    role = next((f for pool in (mine, texts) for f in pool if _person_role(f.name) and not path_like(f)), None)
    if role is not None:
        return [role.name]
    ref = next((f for f in fields if f.ref and not f.key), None)
    when = next((f for f in fields if not f.key and f.base in ("date", "datetime") and not set(_tokens(f.name)) & _CLOCKS), None)
    if when is None:
        # (else when it was made, which no later change moves: a Twilio Studio execution was
        # known by its flow alone, "the one with flow "Summit flow"" of a flow with several; a
        # fresh draw, stop 69)
        when = next((f for f in fields if not f.key and f.base in ("date", "datetime") and "created" in _tokens(f.name)), None)
    if ref is not None:
        return [ref.name] + ([when.name] if when is not None else [])
    if nested is not None:
        return [nested.name]
    unsaid = [f for f in texts if not f.name.endswith(("id", "ids")) and not flag_like(f.name)]  # a file system known by its "subnet ids 11"
    # (a sentence last: a CloudFormation stack set operation was 'the stack set operation "Draft
    # attached; comments welcome."', its `status_reason`, where its action and time tell it; a
    # fresh draw, stop 66)
    # (a note's own comment still names it: a sentence of what befell the row does not)
    told = [f for f in unsaid if not set(_tokens(f.name)) & {"status", "state", "error", "errors", "failure", "failed", "reason", "type", "kind"}]
    # (nor a measure kept as text, even as a last resort: Vertex AI's trials were 'stop the trial
    # "300s"', their `final_measurement_elapsed_duration`; a fresh draw, stop 72)
    # (nor a length of time kept as text: AI Platform's trials were 'the trial "604800s"', their
    # `final_measurement.elapsed_time`, a google-duration; a fresh draw, stop 73. A date kept as
    # text still tells a row that has nothing else: Qualtrics' `send_date`)
    unsaid_measures = [f for f in unsaid if set(_tokens(f.name)[-1:]) & _MEASURES or _a_length_of_time(f)]
    told = [f for f in told if f not in unsaid_measures]
    # (and not another thing's name before its action or time: the stack set operation was then
    # known by `execution_role_name`, the role it ran as)
    # (and a status before none: Qualtrics' distributions were 'the distribution "closed"', their
    # `request_status`, where their type and send date were there; stop 68)
    first = (
        next((f for f in told if not set(_tokens(f.name)[-1:]) & _SAYS and not _names_another(f.name, noun)), None)
        or next((f for f in unsaid if f not in unsaid_measures and not set(_tokens(f.name)[-1:]) & _SAYS and not _names_another(f.name, noun)), None)
        or next((f for f in told if not _names_another(f.name, noun)), None)
        or next((f for f in fields if not f.key and not f.ref and not f.json and f.base in ("enum", "date", "datetime")), None)
        or next(iter(unsaid), None)
        or next((f for f in fields if not f.key and not f.ref and not f.json and f.base == "int"), None)
    )
    return [first.name] if first is not None else []
