"""The importer's vocabulary, shared by its modules: the operations a spec holds (`Op`, `Param`),
the resources inferred from them (`Resource`), path templates and the word lists the inference
reads. A leaf: it imports no other importer module but `common` and `schema`, so `openapi.py` and
the helpers it calls (`resources.py`, `world_model.py`) all import it and never each other back."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..vocab import norm, singular, words
from .common import KEY_NAMES, WRAPPERS, RecordIR, snake  # noqa: F401  (KEY_NAMES: read here by the importer)
from .schema import Shape

METHODS = ("get", "put", "post", "delete", "patch", "head", "options", "trace")
MODELLED = ("get", "put", "post", "delete", "patch")
MONEY_WORDS = {"amount", "price", "total", "cost", "fee", "fees", "balance", "subtotal", "tax", "revenue", "budget", "salary", "payment", "refund", "charge", "spend"}
IDENTITY = ("name", "title", "summary", "subject", "display_name", "full_name", "label", "email", "username", "number", "reference", "code", "path", "rule", "description", "text")
ITEM_WRAPPERS = ("data", "result", "item", "resource", "record", "object", "entity")
LIST_WRAPPERS = ("data", "items", "results", "records", "value", "values", "list", "entries", "elements", "resources", "content")
# arrays of objects a page carries beside its list: what went wrong or was corrected, not rows
# (eBay's search page: `{itemSummaries: [...], warnings: [Error], ...}`)
PAGE_NOTES = ("warnings", "errors", "messages", "notices", "notifications", "alerts")
SEARCH_WORDS = ("search", "find", "query", "filter", "list")
DETAIL_WORDS = ("details", "detail", "info", "status")
# the parents Google's resource names open with (`projects/{p}/locations/{l}/...`): in a method id
# (`projects.locations.capacityCommitments.split`) a scope, not the call's object
GOOGLE_SCOPES = frozenset({"projects", "locations", "organizations", "folders"})
# request plumbing, not part of what an operation means: never a parameter of a tool
TRANSPORT = {"xgafv", "alt", "apiversion", "accesstoken", "callback", "fields", "key", "oauthtoken", "prettyprint", "pretty", "quotauser", "uploadprotocol", "uploadtype", "apikey", "raw", "passthrough", "userip", "expand", "include", "select"}
# what signs a request in a form body as a query's `key` does (TRANSPORT): never an argument
CREDENTIALS = {"apikey", "apisecret", "accesstoken", "oauthtoken", "authtoken", "authorization", "jwt"}  # (CIS Automotive's `jwt`: "with jwt "jwt 27"", stop 65)
SIGNATURES = {"hmac", "signature"}  # a signed request's signature, with what it signs (`SIGNED_WITH`)
SIGNED_WITH = {"ts", "timestamp", "clientid"}
PAGING = {"page", "perpage", "pagesize", "limit", "offset", "cursor", "pagetoken", "nextpagetoken", "maxresults", "count", "after", "before", "nexttoken", "synctoken", "skip", "top", "start", "pagenumber", "startindex", "sort", "sortby", "orderby", "order", "direction",
          # AWS's and Azure's names for a page's place and size
          "marker", "nextmarker", "maxitems", "maxrecords", "continuationtoken", "nextcontinuationtoken", "skiptoken", "paginationtoken", "startingtoken"}
# fields a service keeps for itself (tags, links, timestamps it sets): never set by a create or update
BOOKKEEPING = {"etag", "kind", "selflink", "created", "updated", "createdat", "updatedat", "createdtime", "updatedtime", "modified", "modifiedat", "lastmodified", "version", "href", "links", "sequence", "archivedat", "deletedat", "createdby", "updatedby",
               # the service's own stamps under other names (AWS Cost Explorer's anomaly monitors were
               # created with a `creation_date` and a `last_updated_date` the caller gave)
               "creationdate", "creationtime", "createddate", "createdon", "updateddate", "updatedon", "lastupdated", "lastupdatedat",
               "lastupdateddate", "lastupdatedtime", "lastmodifieddate", "lastmodifiedtime", "modifieddate", "modifiedtime", "modifiedon",
               # Google's (a lien was created "with the same create time as that tag value": stop 65)
               "createtime", "updatetime", "deletetime", "creationtimestamp",
               # and a list of them (Google Licensing's `etags`: a license assignment "with etags "E-6981"")
               "etags"}
# `date-time` and the names specs give it (Google's `google-datetime`, RFC 1123 and 2822 stamps)
DATETIME_FORMATS = {"datetime", "googledatetime", "datetimerfc1123", "datetimerfc2822", "rfc3339", "iso8601", "timestamp"}
# what an envelope holds beside its item or list: a status, a message, a count, paging
ENVELOPE_WORDS = r"status|message|error|code|success|^ok$|request|trace|took|count|total|next|token|page|version|kind|warning|timestamp"
MAX_FIELDS = 40  # per record; the rest are listed in a comment
MAX_WRITE_PARAMS = 5  # fields a create or update takes besides keys
MAX_SIM_PARAMS = 8
API_STOPWORDS = {"api", "apis", "the", "rest", "restful", "service", "services", "server", "openapi", "swagger", "google", "public", "http", "web", "v1", "v2", "v3", "v4", "spec", "specification", "for", "and", "of"}


# `Location_CheckNameAvailability`, `SupportTickets_Create`: a .NET-style operation id names its
# resource, then its action after the underscore; not `get_all_posts_changes` nor Zuora's
# `GET_ChargeMetrics`
DOTNET = re.compile(r"(?!(?i:get|post|put|patch|delete)_)[A-Za-z0-9]+_[A-Z][A-Za-z0-9]*")


def id_action(op_id: str | None) -> str:
    """The part of an operation id that says what it does: a Google id's last dotted part
    (`keep.notes.create` → create), a .NET-style id's action after its last underscore
    (`SupportTickets_Create` → Create; read whole, its first word was the resource, and Azure's
    create of a support ticket was read as an update), else the id itself."""
    raw = (op_id or "").split(".")[-1]
    return raw.rsplit("_", 1)[-1] if DOTNET.fullmatch(raw) else raw


def flattened(s: Shape, depth: int) -> bool:
    """Whether a nested object at this depth is flattened into `outer_inner` fields (two levels,
    small objects) rather than kept as JSON text. A property of no known shape (an empty object
    in an example) is one JSON text field among the others: JSON:API's `attributes` of a
    workspace, with its `name` and `slug` beside an empty `tags`, was one JSON text, and Orbit's
    workspaces could not be described (no task)."""
    return s.kind == "object" and depth < 2 and 0 < len(s.props) <= 8 and any(x.kind != "opaque" for x in s.props.values())


def flattened_wrapper(name: str, s: Shape, depth: int) -> bool:
    """A top-level object that only holds the resource's own fields (Azure's `properties`,
    `common.WRAPPERS`) is flattened up to 30 properties, not 8: kept as JSON text, an Azure
    resource of nine properties had no field an update could set or a row be known by (the
    record keeps 40 fields, dropping flattened details first)."""
    return depth == 0 and name.lower() in WRAPPERS and s.kind == "object" and 8 < len(s.props) <= 30 and any(x.kind != "opaque" for x in s.props.values())



# ─────────────────────────── the spec's operations ───────────────────────────


@dataclass
class Param:
    name: str
    where: str  # path query header cookie
    shape: Shape
    required: bool
    description: str = ""


@dataclass
class Op:
    method: str
    path: str
    segs: list[str]
    op_id: str | None
    summary: str
    description: str
    params: list[Param]
    body: Shape | None
    body_kind: str  # json form multipart other none
    response: Shape | None
    has_response: bool
    deprecated: bool = False
    tool: str = ""  # qualified tool name once made
    kind: str = ""  # get list create update delete simulated skipped
    why: str = ""
    wire_method: str = ""  # the spec's method when normalize.py read the operation as another
    read_as: str = ""  # what normalize.py read an RPC-style operation as (a comment, the report)
    signed: list[str] = field(default_factory=list)  # the request-signing parameters left out (`signing`)
    rendered: list[str] = field(default_factory=list)  # the response-format parameters left out (`renders`)

    @property
    def label(self) -> str:
        return f"{(self.wire_method or self.method).upper()} {self.path}"

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)


# the names of a page's place and size that a JSON body or an answer carries (AWS's RPC lists take
# `NextToken` and `MaxResults` in the body and answer with the next `NextToken`): never an
# argument a person states, never a value a task reports ("tell me the next token of ...", met in
# a fan of AWS Price List). Narrower than PAGING: a body's `count` or `order` may mean something.
PAGE_TOKENS = {"nexttoken", "pagetoken", "nextpagetoken", "maxresults", "maxitems", "maxrecords", "marker", "nextmarker", "continuationtoken",
               "nextcontinuationtoken", "skiptoken", "paginationtoken", "startingtoken", "cursor", "nextcursor", "pagesize", "perpage", "nextlink", "nextpagelink"}


# a page's place and size, as a read's request body names them too (VTEX's order search `{page,
# per_page, q}`, all required): never what the read asks. Narrower than PAGING: a body's `sort`,
# `count` or `after` may say what is asked.
PAGE_PLACES = frozenset({"page", "perpage", "pagesize", "pagenumber", "offset", "limit", "skip", "top", "startindex"} | PAGE_TOKENS)


def page_token(name: str) -> bool:
    # (and a token named for its page with a word before it: Bungie's
    # `replacementContinuationToken`, a task asked for "the response replacement continuation
    # token of the admins and founder of the group ...")
    n = norm(name)
    return n in PAGE_TOKENS or n.endswith(("continuationtoken", "nextpagetoken", "nextcursor"))


# how a request is signed (AWS's query signature, version 2: the key, the HMAC and how it was
# made), and the time a signed request was made (only beside a signature: elsewhere a
# `timestamp` may be what the call asks about): who sends the request, never what it asks.
# Read as arguments, AWS Import/Export's every call took eight, and an answered read matched
# its seeded rows on all of them: no call found one (`read_op` drops them)
SIGNING = {"awsaccesskeyid", "signature", "signaturemethod", "signatureversion"}
SIGNED_TIME = {"timestamp", "expires"}


def signing(params: list["Param"]) -> list["Param"]:
    """The parameters of an operation that sign the request (`SIGNING`, and `SIGNED_TIME` when
    one of those is there)."""
    if not any(p.where != "path" and norm(p.name) in SIGNING for p in params):
        return []
    return [p for p in params if p.where != "path" and norm(p.name) in SIGNING | SIGNED_TIME]


# the renderings a response-format parameter chooses among (`/{format}/Injuries`, "Desired
# response format. Valid entries are XML or JSON": SportsData's 35 specs)
RENDERINGS = frozenset("json xml csv tsv yaml yml html txt text rss atom jsonp geojson kml protobuf".split())


def renders(p: "Param") -> bool:
    """A parameter that chooses how the answer is written, not what it holds: named for a format
    (or said to be the response's format), every value it allows a rendering. Read as an
    argument, a golf tournament was "the tournament "Atlas tournament" with format "XML"", the
    path parameter a scope every row was under (a fresh draw's task, stop 65)."""
    return renders_as(p.name, p.shape, p.description)


def renders_as(name: str, shape: Shape, description: str = "") -> bool:
    """`renders` for a name and a shape: a parameter's, or a request body's property (EPA's
    ECHO services post `output` "Output Format Flag" [JSONP, JSON, XML] in a form body)."""
    values = shape.enum if isinstance(shape.enum, list) else []
    if not values or not all(isinstance(v, str) and v.strip().lower() in RENDERINGS for v in values):
        return False
    return "format" in norm(name) or re.search(r"\b(?:response|output|result|return) format\b|\bformat of the (?:response|output|result)", description or shape.description, re.I) is not None


def body_plumbing(name: str, shape: Shape) -> bool:
    """A request body's property that only says how the answer is written: a rendering
    (`renders_as`) or a JSONP callback ("JSONP Callback. ... the name of the function in which to
    wrap the JSON response"). EPA's posted reads asked for "callback "callback 12"" (a fresh draw,
    stop 66); a `callback` that is a webhook's URL is kept."""
    return renders_as(name, shape) or norm(name) in ("callback", "jsonp") and re.search(r"\bjsonp\b", shape.description or "", re.I) is not None


def constant(p: "Param") -> bool:
    """A required parameter the spec allows one value of (AWS's `Action=CancelJob` and
    `Version=2010-06-01` beside the action's path): the call always sends it, nothing is chosen,
    and no argument stands for it (a list's filter on a field keeps it: the rows it selects)."""
    return p.required and isinstance(p.shape.enum, list) and len(p.shape.enum) == 1


_FOR_EXAMPLE = re.compile(r"\b(?:e\.\s?g\.?|for example|for instance|such as)[:,]?\s*(.*)", re.I | re.S)


def example_not_enum(shape: Shape, description: str, name: str = "") -> None:
    """A one-value enum the description gives as one example of many is an example: WMATA's
    `RouteID` allows `["70"]` and says "Bus route variant, e.g.: 70, 10A, 10Av1". Read as a
    constant the call always sends, no route but route 70 could be asked about (and the parameter
    was dropped). Changes `shape` in place."""
    if not isinstance(shape.enum, list) or len(shape.enum) != 1:
        return
    if name and re.search(r"(id|code|key|number)$", norm(name)) and norm(name) not in ("key", "apikey") and shape.default == shape.enum[0]:
        # an identifier whose one value is its default too: an example the spec's exporter
        # (Azure API Management's) wrote as an enum. WMATA's `StopID` "7-digit regional stop ID"
        # allows `["1001195"]`, default "1001195": read as a constant, no stop's schedule but
        # that one's could be asked for, and the parameter was dropped
        shape.example = shape.example if shape.example is not None else shape.enum[0]
        shape.enum = None
        return
    if not description:
        return
    m = _FOR_EXAMPLE.search(description)
    value = str(shape.enum[0])
    if m is None or not value or not re.search(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])", m.group(1)[:200]):
        return
    if re.sub(r"(?<![\w-])" + re.escape(value) + r"(?![\w-])", "", m.group(1)[:200]).strip(" .,;:") == "":
        return  # the one value it shows is the only one it names
    shape.example = shape.example if shape.example is not None else shape.enum[0]
    shape.enum = None


# a request that only checks whether the call would succeed (AWS's `DryRun`, Google's
# `validateOnly`): set, the call does nothing, so no task asks for it (an EC2 task said "attach
# the network interface ... and marked as dry run", a call the API would only have checked)
TRIAL_RUNS = {"dryrun", "validateonly"}
# a token that makes a retried request do nothing twice (AWS's `ClientToken`,
# `ClientRequestToken`): the caller makes one up, so no task states it (a DataSync task said
# "with client token "arn:aws:datasync:...:log-group/log-group-8"", a value drawn from the state)
IDEMPOTENCY = {"clienttoken", "clientrequesttoken", "idempotencytoken", "idempotencykey"}


# a query parameter whose description says it pages (Azure's registry `n`, "query parameter
# for max number of items", and `last`, "the last item in previous query": the manifests listed
# "with last "last 11" and image size 48", a fresh draw, stop 66)
_PAGES = re.compile(
    r"^\W*(?:the\s+)?(?:query\s+parameter\s+for\s+)?(?:the\s+)?(?:max(?:imum)?|number of|how many)\b[^.]{0,20}\b(?:items|results|entries|records|rows|elements|objects)\b(?!\s+(?:in|on|of)\s+(?:the|a|an|this|each)\s+(?!page|response|result|list|call|request|query))"
    r"|\b(?:last|final) (?:item|entry|result|record) (?:in|of|from) (?:the\s+)?previous\b"
    r"|\b(?:items|results|entries|records) (?:per|in (?:a|each|one)) page\b|\bpage (?:size|number|token|cursor)\b",
    re.I,
)


_AUTH_TOKEN = re.compile(r"\b(?:auth\w*|access|api|oauth|session|getting a token|your token|user token)\b", re.I)


# a query parameter that picks what the answer holds (YouTube's required `part`, "a
# comma-separated list of one or more caption resource parts that the API response will
# include"), as `fields` does: a task said "update an existing resource with part
# "2025-02-27T09:30:00Z"" (a fresh draw, stop 72)
_SHAPES_ANSWER = re.compile(r"\b(?:that|which) the (?:api )?response will include\b", re.I)


def plumbing(p: "Param") -> bool:
    """A request parameter that is plumbing (`alt`, `fields`, `prettyPrint`), paging (by its
    name, or a query parameter by its description: `_PAGES`), or a trial run (`TRIAL_RUNS`)."""
    n = norm(p.name)
    if p.where == "query" and n.startswith("opt") and n[3:] in TRANSPORT:
        n = n[3:]  # Asana's `opt_fields`, `opt_pretty`: a task was "marked as opt pretty" (a fresh draw, stop 67)
    if p.where == "query" and n in ("token", "authtoken", "apitoken") and _AUTH_TOKEN.search(p.description or p.shape.description or ""):
        return True  # the caller's credential in the query (Trello's `token`: every task "with token "T-2271"", stop 71)
    if p.where == "query" and _SHAPES_ANSWER.search(p.description or p.shape.description or ""):
        return True
    return n in TRANSPORT or n in PAGING or n in TRIAL_RUNS or p.where == "query" and p.shape.type in ("integer", "string", "number") and not p.shape.enum and _PAGES.search(p.description or p.shape.description or "") is not None


def split_path(path: str) -> list[str]:
    """Segments of a path template. `{name=projects/*}` (Google's resource names) becomes
    `{name}`; a custom method `{name}:cancel` becomes two segments, `{name}` and `:cancel`, so it
    reads as an action on the item; `{api}.json` stays one parameter segment."""
    path = re.sub(r"\{([^{}=]+)=[^{}]*\}", r"{\1}", path)
    # RFC 6570 operator expansions (`/projects/{id}{.format}`, `{?q}`): an optional suffix or
    # query, not a path segment of its own; the parameter stays a parameter of the operation
    path = re.sub(r"\{[.?/;#&+][^{}]*\}", "", path)
    # a format chosen by extension (`/v1/{id}.{output_format}`): the segment names the item,
    # the extension is how it is rendered
    path = re.sub(r"(\{[^{}]+\})\.\{[^{}]+\}(?=/|$)", r"\1", path)
    # and one glued to a word (`/divisions.{format}`, Buffer's `/profiles{mediaTypeExtension}`):
    # the collection, rendered one way or another, not a segment named `pending{...}`
    path = re.sub(r"(?<=[^/{])\.?\{[^{}]*(?:format|extension|ext)\}(?=/|$)", "", path, flags=re.I)
    out = []
    for seg in path.split("/"):
        if not seg:
            continue
        m = re.fullmatch(r"(\{[^{}]+\}):([A-Za-z][\w-]*)", seg)
        if m:
            out += [m.group(1), ":" + m.group(2)]
        else:
            # a format chosen by extension on a collection (`/inline_script_tags.json` beside
            # `/inline_script_tags/{id}.json`, shop-pro, Jumpseller, Discourse): the collection
            # the item's path runs through, not a table of its own ("inline script tags JSON")
            bare = _FORMAT_EXT.sub("", seg)
            out.append(bare if bare and "{" not in seg else seg)
    return out


_FORMAT_EXT = re.compile(r"\.(?:json|xml)$", re.I)


def root_collection(doc: dict) -> str | None:
    """The collection a spec's server URL names when its paths start at the collection's root:
    Transavia's airports are served at `https://api.transavia.com/v2/airports`, listed by `GET /`
    and read by `GET /{id}`; Nexmo's applications at `.../v1/applications`, Presalytics' stories at
    `/story`. Read as they stand, `GET /` and `/{id}` name no collection, so no table held their
    rows. The word is the URL's last path segment (a word, not a version or `api`), and only where
    some operation's path is `/` or `/{x}` exactly: a spec whose paths merely start with a
    parameter (`/{format}/Players`, sportsdata's) names its collections itself."""
    paths = doc.get("paths") if isinstance(doc.get("paths"), dict) else {}
    if not any(isinstance(p, str) and re.fullmatch(r"/?|/\{[^{}/]+\}/?", p) for p in paths):
        return None
    servers = doc.get("servers")
    if isinstance(servers, list) and servers and isinstance(servers[0], dict):
        url = str(servers[0].get("url") or "")
    else:
        url = str(doc.get("basePath") or "")
    url = re.sub(r"^[a-z][\w+.-]*://[^/]*", "", url)  # the path of an absolute URL
    segs = [x for x in url.split("/") if x]
    word = segs[-1] if segs else ""
    if not re.fullmatch(r"[A-Za-z][A-Za-z_-]*[A-Za-z]", word) or _NOT_A_COLLECTION.fullmatch(word):
        return None
    return word


_NOT_A_COLLECTION = re.compile(r"v\d.*|api|apis|rest|services?|ws|web|public|private|latest|beta|alpha|prod|production|sandbox|test", re.I)


def under_root(segs: list[str], word: str | None) -> list[str]:
    """A path's segments under its root collection (`root_collection`): `/` is `/airports`,
    `/{id}/sessions` `/airports/{id}/sessions`; a path that starts with a word of its own
    (`/nearest`) is left as it is."""
    if word and (not segs or is_param(segs[0])):
        return [word, *segs]
    return segs


def is_param(seg: str) -> bool:
    """A segment that holds a path parameter: `{id}`, or `{api}.json`. One that holds two
    (`{type}-{version}`) names no item by one key: it is read as a literal segment (its
    parameters are still the operation's)."""
    return len(re.findall(r"\{[^{}]+\}", seg)) == 1


def pname(seg: str) -> str:
    m = re.search(r"\{([^{}]+)\}", seg)
    return m.group(1).strip() if m else seg


def after_other_collection(segs: list[str], param: str, res) -> bool:
    """Does the path put parameter `param`, a bare word named as resource `res`'s item parameter
    (`{slug}`, `{code}`, not `{channelId}`), after another collection's word?
    Then it names a row of that collection, not of `res`: Reverb's listings go by `{slug}`, and
    `/my/follows/brands/{slug}` follows a brand ("For the new listing, follow a brand" was a
    fresh draw's task, stop 71)."""
    if len(snake(param).split("_")) > 1:
        return False  # `{channelId}` says whose it is, wherever the path puts it
    pos = next((i for i, seg in enumerate(segs) if is_param(seg) and pname(seg) == param), -1)
    if pos <= 0 or is_param(segs[pos - 1]) or not res.coll_segs:
        return False
    noun = norm(res.noun)
    before = norm(singular(segs[pos - 1]))
    return before not in (norm(singular(res.coll_segs[-1])), noun) and noun not in norm(param)


def said_name_param(param: str, noun: str, raw: tuple[str, str] | None = None) -> bool:
    """Does a path parameter (normalized) name its item by the item's name: `clusterName` of
    `/clusters`, `accountName` of `/storageAccounts`, Azure's `resourceName`? With `raw` (the
    parameter and the collection word as the spec writes them), also where the parameter's words
    are the collection's less some: `privateZoneName` of `/privateDnsZones`."""
    if not (len(param) > 4 and param.endswith("name")):
        return False
    if noun.endswith(param[:-4]) or param == "resourcename":
        return True
    if raw is None:
        return False
    said = snake(raw[0]).split("_")[:-1]
    coll = [singular(w) for w in snake(raw[1]).split("_")]
    return len(said) > 1 and bool(coll) and said[-1] == coll[-1] and set(said) <= set(coll)


def pattern(segs: list[str]) -> str:
    """`/calendars/{}/events`: the path with `{}` for each parameter (a literal `{}` segment,
    which names no parameter, is written as a URL would encode it)."""
    return "/" + "/".join("{}" if is_param(s) else "%7b%7d" if s == "{}" else s.lower() for s in segs)


@dataclass
class Resource:
    coll_segs: list[str]
    item_param: str
    shape: Shape
    key_prop: str
    how: str  # why it is a resource (a comment)
    getter: Op | None = None
    parents: list[tuple[str, Resource | None]] = field(default_factory=list)
    name: str = ""  # record
    table: str = ""
    alias: str = ""
    service: str = ""
    noun: str = ""
    record: RecordIR | None = None
    parent_fields: dict[str, str] = field(default_factory=dict)  # path param → field
    key_field: str = ""
    path_id: tuple[str, str] | None = None  # (field, seed): Azure's `id`, the row's full path (OpenAPIImporter.path_id)

    @property
    def coll(self) -> str:
        return pattern(self.coll_segs)

    @property
    def said_key(self) -> bool:
        """Keyed by the name a person gives the row and says (Azure's `{clusterName}`, AWS's
        `{project}`: "the name or ARN of the project"), not by an opaque resource name (Google's
        `{name}`, `projects/p/notes/n`) or a made-up id: the row is known by its key."""
        p, noun = norm(self.item_param), norm(singular(self.coll_segs[-1]))
        # (AWS Budgets' `BudgetName`, the key of a budget, is as much its name: it was known by
        # its limit, 'the budget "548.00"')
        return norm(self.key_prop) in ("name", noun + "name") and (said_name_param(p, noun, (self.item_param, self.coll_segs[-1])) or p == noun or p == "name" and self._named_by_name())

    def _named_by_name(self) -> bool:
        """Does a bare `{Name}` after the collection say it takes the row's name, "The name of the
        schedule to retrieve" (AWS EventBridge Scheduler's `/schedules/{Name}`)? Then a person
        names the row by it. Not Google's `/v1/{name}`, "The name of the operation resource",
        a path after no collection word: the words must name the collection's thing."""
        if self.getter is None:
            return False
        # (the getter's own path, as the spec writes it, names the collection before it: Google's
        # `/v1/{name}` of a book, "The name of the book to retrieve", is a resource name all the
        # same; the getter's `segs` hold the collection the import read in)
        segs = split_path(self.getter.path)
        at = next((i for i, seg in enumerate(segs) if is_param(seg) and pname(seg) == self.item_param), 0)
        if at == 0 or norm(segs[at - 1]) != norm(self.coll_segs[-1]):
            return False
        got = self.getter.param(self.item_param)
        thing = words(singular(snake(self.coll_segs[-1])))
        if got is None or thing == "":
            return False
        if re.search(rf"\bname of (?:the|an?) {re.escape(thing)}\b(?! (?:resource|path)\b)", got.description or "", re.I) is not None:
            return True
        # or the whole description is "Name of the X." in other words than the path's (Azure's
        # `/serverfarms/{name}`, "Name of the App Service plan.": the plans were known by their
        # hosting environment's name, 'the resource group serverfarm "Beacon hosting environment
        # profile"', a fresh draw of stop 67)
        m = re.fullmatch(r"\s*(?:the\s+)?name of (?:the|an?) ([\w -]{2,40}?)\.?\s*", got.description or "", re.I)
        return m is not None and not set(m.group(1).lower().split()) & {"resource", "path", "operation", "parent", "file", "field", "property", "parameter"}

    @property
    def item(self) -> str:
        return self.coll + "/{}"

    @property
    def qualified(self) -> str:
        return f"{self.service}.{self.table}"
