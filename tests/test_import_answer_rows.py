"""Recorded writes on the rows a read answers (`importers.world_model.require_named_answers`):
an RPC-style API whose channel configurations are known by a channel and a team together (as
AWS Support App's are) has no key to hang its writes on, so they were recorded for any channel
ID with any team ID, and a blind player failed a task fairly that named a channel of another
team. Now a delete or update requires a configuration the list answers with both, a delete
removes it from what the list answers, and a create adds one (refused where one has that channel
and team already). The sampler draws such arguments from one row (`bindings._from_row`)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from compoworld_dsl.agents import run_oracle
from compoworld_dsl.gateway import Episode
from compoworld_dsl.importers.common import check_output, write_files
from compoworld_dsl.importers.openapi import import_openapi
from compoworld_dsl.sample import bindings
from compoworld_dsl.sample.rebuild import rebuild_problems
from compoworld_dsl.sample.rejected import Rejected
from compoworld_dsl.sample.run import load_sampler

S = {"type": "string"}
CONFIG = {"type": "object", "required": ["channelId", "teamId"], "properties": {"channelId": S, "teamId": S, "channelName": S}}
WORKSPACE = {"type": "object", "properties": {"teamId": S, "teamName": S}}


def action(name: str, body: dict | None, answer: dict | None) -> dict:
    op: dict = {"operationId": name, "responses": {"200": {"description": "Success"}}}
    if body is not None:
        op["requestBody"] = {"required": True, "content": {"application/json": {"schema": body}}}
    if answer is not None:
        op["responses"]["200"]["content"] = {"application/json": {"schema": answer}}
    return {"post": op}


def spec(tmp: Path, keyed: bool = False) -> Path:
    """Alert channel configurations, with a `channelId` and a `teamId`: no key of their own (a
    resource's id is named by its noun), so the importer finds no resource, answers the list from
    seeded rows and records the writes, as it does AWS Support App's Slack channel
    configurations. `keyed`: plain channel configurations, whose `channelId` the importer takes
    for their key (a table keyed by the channel, the writes recorded on its rows)."""
    noun = "ChannelConfiguration" if keyed else "AlertChannelConfiguration"
    slug = "channel-configuration" if keyed else "alert-channel-configuration"
    token = {"type": "object", "properties": {"nextToken": S}}
    pair = {"type": "object", "required": ["channelId", "teamId"], "properties": {"channelId": S, "teamId": S}}
    update = {"type": "object", "required": ["channelId", "teamId"], "properties": {"channelId": S, "teamId": S, "channelName": S}}
    listed = {"type": "object", "properties": {"configurations": {"type": "array", "items": {"$ref": f"#/components/schemas/{noun}"}}, "nextToken": S}}
    doc = {
        "openapi": "3.0.0",
        "info": {"title": "Chat Alerts", "version": "1"},
        "paths": {
            f"/control/list-{slug}s": action(f"List{noun}s", token, listed),
            "/control/list-workspace-configurations": action("ListWorkspaceConfigurations", token, {"type": "object", "properties": {"workspaceConfigurations": {"type": "array", "items": {"$ref": "#/components/schemas/WorkspaceConfiguration"}}}}),
            f"/control/create-{slug}": action(f"Create{noun}", CONFIG, {"type": "object"}),
            f"/control/update-{slug}": action(f"Update{noun}", update, {"type": "object"}),
            f"/control/delete-{slug}": action(f"Delete{noun}", pair, {"type": "object"}),
            "/control/register-workspace": action("RegisterWorkspace", {"type": "object", "required": ["teamId"], "properties": {"teamId": S}}, {"type": "object"}),
        },
        "components": {"schemas": {noun: CONFIG, "WorkspaceConfiguration": WORKSPACE}},
    }
    p = tmp / "chat_alerts.json"
    p.write_text(json.dumps(doc))
    return p


def imported(tmp: Path, keyed: bool = False) -> tuple[str, Path]:
    result = import_openapi(spec(tmp, keyed))
    out = tmp / "out"
    write_files(out, result.files, True)
    ok, _, diags = check_output(out / result.world_file)
    assert ok, diags
    return (out / "chat_alerts.world").read_text(), out / result.world_file


def tool_body(text: str, name: str) -> str:
    start = text.index(f"tool {name}(")
    return text[start : text.index("\n  }\n", start)]


def test_writes_on_a_configuration_name_one_the_list_answers(tmp_path):
    text, _ = imported(tmp_path)
    both = "a_.channel_id == channel_id and a_.team_id == team_id"
    delete = tool_body(text, "delete_alert_channel_configuration")
    assert f"require exists(a_ in list_alert_channel_configurations_answers where {both})" in delete
    assert f"delete a_ in list_alert_channel_configurations_answers where {both}" in delete
    update = tool_body(text, "update_alert_channel_configuration")
    assert f"require exists(a_ in list_alert_channel_configurations_answers where {both})" in update
    assert "delete a_" not in update  # an update leaves it there
    create = tool_body(text, "create_alert_channel_configuration")
    assert f"require not exists(a_ in list_alert_channel_configurations_answers where {both}) else conflict" in create
    assert "insert list_alert_channel_configurations_answers { channel_id: channel_id, team_id: team_id, channel_name: channel_name }" in create
    # a registration of a workspace is no channel configuration, and makes nothing the list shows
    assert "a_ in" not in tool_body(text, "register_workspace")


def _episode(world_path: Path):
    sampler = load_sampler(str(world_path))
    for i in range(40):
        try:
            task = sampler.task(3, i, 3)
        except Rejected:
            continue
        ep = Episode(sampler.world)
        ep.reset(task)
        return sampler, task, ep
    raise AssertionError("no task to play on")


def _call(ep: Episode, tool: str, **args) -> dict:
    return ep.call("call_tool", {"tool_name": tool, "arguments": args})


def test_a_channel_of_another_team_is_refused_and_changes_nothing(tmp_path):
    _, world = imported(tmp_path)
    _, _, ep = _episode(world)
    rows = _call(ep, "list_alert_channel_configurations")["data"]
    assert len(rows) >= 2
    a, b = rows[0], next(r for r in rows if r["team_id"] != rows[0]["team_id"])
    before = ep.gateway.state.snapshot()
    got = _call(ep, "delete_alert_channel_configuration", channel_id=a["channel_id"], team_id=b["team_id"])
    assert not got["success"] and "no alert channel configuration with that channel id and team id" in got["error"]["message"]
    assert ep.gateway.state.tables == before.tables  # a failed call changes no state
    assert not _call(ep, "update_alert_channel_configuration", channel_id=a["channel_id"], team_id=b["team_id"])["success"]
    # the right pair: it is gone from what the list answers
    assert _call(ep, "delete_alert_channel_configuration", channel_id=a["channel_id"], team_id=a["team_id"])["success"]
    after = _call(ep, "list_alert_channel_configurations")["data"]
    assert len(after) == len(rows) - 1 and all((r["channel_id"], r["team_id"]) != (a["channel_id"], a["team_id"]) for r in after)


def test_a_created_configuration_is_listed_once(tmp_path):
    _, world = imported(tmp_path)
    _, _, ep = _episode(world)
    n = len(_call(ep, "list_alert_channel_configurations")["data"])
    new = {"channel_id": "C-NEW-1", "team_id": "T-NEW-1", "channel_name": "alerts"}
    assert _call(ep, "create_alert_channel_configuration", **new)["success"]
    listed = _call(ep, "list_alert_channel_configurations")["data"]
    assert len(listed) == n + 1 and any(r["channel_id"] == "C-NEW-1" and r["team_id"] == "T-NEW-1" for r in listed)
    again = _call(ep, "create_alert_channel_configuration", **new)
    assert not again["success"] and again["error"]["code"] == 409
    assert _call(ep, "update_alert_channel_configuration", channel_id="C-NEW-1", team_id="T-NEW-1", channel_name="ops")["success"]


def test_tasks_act_on_configurations_the_state_holds_and_pass_only_when_done(tmp_path):
    """Every sampled delete or update names a configuration by a channel and team it holds
    together; the reference plan passes, the empty plan fails, and each task rebuilds."""
    _, world = imported(tmp_path)
    sampler = load_sampler(str(world))
    seen = 0
    for i in range(60):
        try:
            task = sampler.task(5, i, 3)
        except Rejected:
            continue
        assert rebuild_problems(sampler, task) == []
        ep = Episode(sampler.world)
        ep.reset(task)
        state = ep.gateway.state
        for step in task["reference_plan"]:
            name = step["tool"].split(".")[-1]
            if name in ("delete_alert_channel_configuration", "update_alert_channel_configuration"):
                args = step["arguments"]
                held = {(r["channel_id"], r["team_id"]) for r in state.tables["chat_alerts.list_alert_channel_configurations_answers"].values()}
                assert (args["channel_id"], args["team_id"]) in held, (task["instruction"], args)
                seen += 1
            assert _call(ep, name, **step["arguments"])["success"]
        assert ep.score()["reward"] == 1
        empty = Episode(sampler.world)
        empty.reset(task)
        assert empty.score()["reward"] == 0
    assert seen >= 2, "no task deleted or updated a configuration"


def test_arguments_that_name_a_row_together_are_drawn_from_one_row(tmp_path):
    """`_from_row`: with the team given, the channel is one of that team's configurations (a
    channel drawn on its own seldom is)."""
    _, world = imported(tmp_path)
    sampler = load_sampler(str(world))
    facts = sampler.facts
    tool = next(t for t in facts.tools if t.name == "delete_alert_channel_configuration")
    assert facts.row_args[tool.qualified] == [("chat_alerts.list_alert_channel_configurations_answers", {"channel_id": "channel_id", "team_id": "team_id"})]
    _, task, ep = _episode(world)
    rows = list(ep.gateway.state.tables["chat_alerts.list_alert_channel_configurations_answers"].values())
    team = rows[-1]["team_id"]
    free = [(n, t) for n, t in tool.params if n == "channel_id"]
    for seed in range(5):
        got = bindings._from_row(facts, random.Random(seed), ep.gateway.state, tool, {"team_id": team}, free)
        assert got["channel_id"] in {r["channel_id"] for r in rows if r["team_id"] == team}
    # a team no row has: nothing drawn, the draws go on as before
    assert bindings._from_row(facts, random.Random(0), ep.gateway.state, tool, {"team_id": "no such team"}, free) == {}


def test_a_write_recorded_on_a_row_names_it_with_its_own_team(tmp_path):
    """Lists with no body: the configurations are a table keyed by their channel, the delete and
    update are recorded on the row the channel names, and its team ID must be the row's."""
    text, world = imported(tmp_path, keyed=True)
    for name in ("delete_channel_configuration", "update_channel_configuration"):
        body = tool_body(text, name)
        assert "require channel_id in channel_configurations" in body
        assert "require channel_configurations[channel_id].team_id == team_id else not_found" in body, body
    _, _, ep = _episode(world)
    rows = ep.call("call_tool", {"tool_name": "list_channel_configurations", "arguments": {}})["data"]
    a, b = rows[0], next(r for r in rows if r["team_id"] != rows[0]["team_id"])
    call = lambda team: ep.call("call_tool", {"tool_name": "delete_channel_configuration", "arguments": {"channel_id": a["channel_id"], "team_id": team}})
    assert not call(b["team_id"])["success"]
    assert call(a["team_id"])["success"]


def test_a_condition_is_never_on_a_field_an_earlier_write_on_the_record_sets(tmp_path):
    """An update recorded as a call leaves the answered row as it was: "update ... with severity
    high. Once that is done, if the severity of that configuration is high, ..." would read the
    old value while an agent reads the new (`requests._set_on`). Conditions on other fields stay."""
    sev = {"type": "string", "enum": ["none", "all", "high"]}
    config = {**CONFIG, "properties": {**CONFIG["properties"], "severity": sev, "muted": {"type": "boolean"}}}
    update = {"type": "object", "required": ["channelId", "teamId"], "properties": {"channelId": S, "teamId": S, "severity": sev}}
    doc = json.loads(spec(tmp_path).read_text())
    doc["components"]["schemas"]["AlertChannelConfiguration"] = config
    doc["paths"]["/control/update-alert-channel-configuration"] = action("UpdateAlertChannelConfiguration", update, {"type": "object"})
    doc["paths"]["/control/create-alert-channel-configuration"] = action("CreateAlertChannelConfiguration", config, {"type": "object"})
    p = tmp_path / "chat_alerts.json"
    p.write_text(json.dumps(doc))
    result = import_openapi(p)
    out = tmp_path / "out"
    write_files(out, result.files, True)
    sampler = load_sampler(str(out / result.world_file))
    branched = 0
    for i in range(80):
        try:
            task = sampler.task(9, i, 3)
        except Rejected:
            continue
        br = task.get("branch")
        if not br:
            continue
        branched += 1
        cond = br["if"]
        for k, st in enumerate(task["reference_plan"][: br["step"] - 1]):
            if st["tool"].endswith(".update_alert_channel_configuration") and k + 1 > cond["step"]:
                assert cond["field"] != "severity", task["instruction"]
    assert branched, "no task branched"
