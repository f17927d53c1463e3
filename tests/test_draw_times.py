"""A time Z3 chooses is one a person would write, also in a world of timestamps only.

Google's Data Lineage has no `date` field, only times: `_sensible` read the state's dates, found
none, and let Z3's answer for a run's start stand, the epoch ("add a run ... with start time
1970-01-01T00:00", a fresh draw's task, stop 55). Where a state holds no date its times' days
bound the value (`pools.date_range(..., times=True)`)."""
import json
from import_specs import body, obj, ok, pparam, ref, run, s, spec


def test_a_world_of_times_only_states_no_time_from_1970(tmp_path):
    from compoworld_dsl.sample.run import Job, run as sample

    ev = obj({"name": s(), "startTime": s(format="date-time"), "endTime": s(format="date-time")})
    runo = obj({"name": s(), "displayName": s(), "startTime": s(format="date-time"), "endTime": s(format="date-time"), "state": s(enum=["UNKNOWN", "STARTED", "COMPLETED", "FAILED"])})
    doc = spec(
        {
            "/v1/{parent}/runs": {
                "get": {"operationId": "datalineage.projects.locations.processes.runs.list", "parameters": [pparam("parent")], "responses": ok(obj({"runs": {"type": "array", "items": ref("Run")}}))},
                "post": {"operationId": "datalineage.projects.locations.processes.runs.create", "parameters": [pparam("parent")], "requestBody": body(ref("Run")), "responses": ok(ref("Run"))},
            },
            "/v1/{parent}/lineageEvents": {
                "get": {"operationId": "datalineage.projects.locations.processes.runs.lineageEvents.list", "parameters": [pparam("parent")], "responses": ok(obj({"lineageEvents": {"type": "array", "items": ref("LineageEvent")}}))},
                "post": {"operationId": "datalineage.projects.locations.processes.runs.lineageEvents.create", "parameters": [pparam("parent")], "requestBody": body(ref("LineageEvent")), "responses": ok(ref("LineageEvent"))},
            },
            "/v1/{name}": {"delete": {"operationId": "datalineage.projects.locations.processes.runs.lineageEvents.delete", "parameters": [pparam("name")], "responses": ok(obj({}))}},
        },
        {"Run": runo, "LineageEvent": ev},
    )
    _, _, _, wf = run(tmp_path, doc)
    rep = sample(Job(str(wf), 2, 30, 5, max_attempts=200), tmp_path / "t.jsonl")
    tasks = [json.loads(l) for l in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert len(tasks) >= 10, rep.rejected.most_common(3)
    years = [v[:4] for t in tasks for st in t["reference_plan"] for k, v in st["arguments"].items() if k.endswith("_time") and isinstance(v, str) and v]
    assert years and all(y >= "2024" for y in years), sorted(set(years))
