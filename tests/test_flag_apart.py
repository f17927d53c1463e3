"""A write may not repeat an earlier step's call but for a flag: Spotify's "create playlist with
name "Atlas album" ... and marked as public, and create playlist with name "Atlas album" ..." made
two playlists one flag apart, one errand said twice (a fresh draw, stop 73;
`walk.Walker._candidate`)."""

from __future__ import annotations

import json

from compoworld_dsl.sample.run import Job, run as sample
from import_specs import arr, body, obj, ok, pparam, ref, run, s, spec

USER = obj({"id": s(), "display_name": s(), "country": s(enum=["GB", "US", "DE"])})


def _doc() -> dict:
    return spec(
        {
            "/users": {"get": {"operationId": "listUsers", "responses": ok(arr(ref("User")))}},
            "/users/{user_id}": {
                "get": {"operationId": "getUser", "parameters": [pparam("user_id")], "responses": ok(ref("User"))},
                "post": {"operationId": "followUser", "parameters": [pparam("user_id")], "requestBody": body(obj({"note": s()}, ["note"])), "responses": {"204": {"description": "followed"}}},
            },
            "/users/{user_id}/playlists": {
                "post": {"operationId": "createPlaylist", "parameters": [pparam("user_id")], "requestBody": body(obj({"name": s(), "description": s(), "public": s("boolean")}, ["name"])), "responses": {"201": {"description": "created"}}},
            },
        },
        {"User": USER},
    )


def test_no_second_call_one_flag_apart(tmp_path):
    _, ops, _, world = run(tmp_path, _doc())
    assert ops["POST /users/{user_id}/playlists"][0] == "recorded", ops  # (Spotify's, as imported)
    out = tmp_path / "t.jsonl"
    sample(Job(str(world), 3, 12, 7, max_attempts=120), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert tasks
    for t in tasks:
        creates = [st["arguments"] for st in t["reference_plan"] if st["tool"].endswith("create_playlist")]
        for i, a in enumerate(creates):
            for b in creates[i + 1 :]:
                apart = {k for k in a if a[k] != b.get(k)}
                assert not apart or any(not isinstance(a[k], bool) for k in apart), t["instruction"]


def test_what_a_post_under_a_row_makes_is_named_as_that_collections(tmp_path):
    """The same world: `POST /users/{user_id}/playlists`, recorded on a user, drew its `name` as
    a person's ("create playlist with name "Grace Adeyemi"", stop 73). What a person gives is a
    playlist's name."""
    result, _, _, _ = run(tmp_path, _doc())
    text = "".join(result.files.values())
    pool = next(line for line in text.splitlines() if line.startswith("pool ") and "create_playlist_name" in line)
    assert "playlist" in pool and "Grace Adeyemi" not in pool, pool


def test_a_parameters_own_pool_comes_before_another_services_field_of_its_name(tmp_path):
    """Spotify's playlists were named "Atlas album" (a fresh draw, stop 73): no field of the
    user's service is a `name`, and the albums' was drawn before the pool the import wrote for
    the parameter."""
    doc = _doc()
    doc["paths"]["/albums"] = {"get": {"operationId": "listAlbums", "responses": ok(arr(ref("Album")))}}
    doc["paths"]["/albums/{id}"] = {"get": {"operationId": "getAlbum", "parameters": [pparam("id")], "responses": ok(ref("Album"))}}
    doc["components"]["schemas"]["Album"] = obj({"id": s(), "name": s(), "label": s()})
    _, _, _, world = run(tmp_path, doc)
    out = tmp_path / "t.jsonl"
    sample(Job(str(world), 3, 12, 7, max_attempts=120), out)
    named = [st["arguments"]["name"] for line in out.read_text().splitlines() for st in json.loads(line)["reference_plan"] if st["tool"].endswith("create_playlist")]
    assert named and all("album" not in n.lower() for n in named), named


def _requests_doc() -> dict:
    paths = {
        "/requests": {"get": {"operationId": "listRequests", "responses": ok(arr(ref("Request")))}},
        "/requests/{id}": {"get": {"operationId": "getRequest", "parameters": [pparam("id")], "responses": ok(ref("Request"))}},
        "/requests/{id}/approve": {"post": {"operationId": "approveRequest", "summary": "Approves a request", "parameters": [pparam("id")], "requestBody": body(obj({"expireTime": s(format="date-time")})), "responses": {"204": {"description": "approved"}}}},
        "/requests/{id}/escalate": {"post": {"operationId": "escalateRequest", "summary": "Escalates a request", "parameters": [pparam("id")], "requestBody": body(obj({"note": s()}, ["note"])), "responses": {"204": {"description": "escalated"}}}},
    }
    return spec(paths, {"Request": obj({"id": s(), "requestedResourceName": s(), "requestTime": s(format="date-time"), "approveExpireTime": s(format="date-time")})})


def test_no_recorded_action_asked_again_on_the_same_record(tmp_path):
    """Access Approval's "approve the approval request ... After that, approve that approval
    request ..., with expire time ..." (a fresh draw, stop 73): a call only the world model's log
    shows, asked for again on the same record, leaves nothing the first did not."""
    _, ops, _, world = run(tmp_path, _requests_doc())
    assert ops["POST /requests/{id}/approve"][0] == "recorded", ops
    out = tmp_path / "t.jsonl"
    sample(Job(str(world), 3, 12, 7, max_attempts=150), out)
    tasks = [json.loads(line) for line in out.read_text().splitlines()]
    assert tasks
    for t in tasks:
        calls = [(st["tool"], st["arguments"].get("id")) for st in t["reference_plan"] if not st["tool"].split(".")[-1].startswith(("list", "get"))]
        assert len(calls) == len(set(calls)), t["instruction"]
