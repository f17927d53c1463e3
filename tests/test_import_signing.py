"""Request signing and constants are no arguments: AWS's query-signed APIs (Import/Export, SimpleDB,
EC2) give every operation `AWSAccessKeyId`, `Signature`, `SignatureMethod`, `SignatureVersion`,
`Timestamp` and a one-valued `Action` and `Version`. Read as arguments, an answered read matched
its seeded rows on all of them, and no call found one (`not_found: no ... for those arguments`)."""

from __future__ import annotations

import re

from import_specs import obj, ok, run, s, spec

from compoworld_dsl.importers.ops import Param, constant, signing
from compoworld_dsl.importers.schema import Shape


def _q(name: str, required: bool = True, **kw) -> dict:
    return {"name": name, "in": "query", "required": required, "schema": s(**kw)}


def _signed_api() -> dict:
    job = obj({"JobId": s(), "JobType": s(enum=["Import", "Export"]), "CreationDate": s(format="date-time")})
    status = obj({"JobId": s(), "ProgressMessage": s(), "LocationCode": s(), "Carrier": s()})
    signed = [_q("AWSAccessKeyId"), _q("Signature"), _q("SignatureMethod"), _q("SignatureVersion"), _q("Timestamp"),
              _q("Action", enum=["GetStatus"]), _q("Version", enum=["2010-06-01"])]
    doc = spec({
        "/jobs": {"get": {"operationId": "ListJobs", "responses": ok({"type": "array", "items": job})}},
        "/jobs/{JobId}": {"get": {"operationId": "GetJob", "parameters": [{"name": "JobId", "in": "path", "required": True, "schema": s()}], "responses": ok(job)}},
        "/status": {"parameters": signed, "get": {"operationId": "GetStatus", "parameters": [_q("JobId")], "responses": ok(status)}},
    })
    return doc


def test_signing_and_constant_parameters_are_no_arguments(tmp_path):
    result, ops, model, world = run(tmp_path, _signed_api())
    text = world.parent.joinpath(next(n for n in result.files if not n.endswith("_world.world"))).read_text()
    line = next(l for l in text.splitlines() if "tool get_status(" in l)
    # the one argument that asks something: the job
    assert re.fullmatch(r"\s*tool get_status\(job_id: \w+\) -> \w+", line), line
    for gone in ("aws_access_key_id", "signature", "timestamp", "action", "version"):
        assert f"{gone}:" not in text.split("tool get_status(")[1].split("\n  }")[0], gone
    # and nothing it answers is matched on them: the seeded answers hold none
    assert "a_.signature" not in text and "a_.timestamp" not in text
    # left out with a comment, not silently
    assert "AWSAccessKeyId" in text and "left out" in text


def test_a_timestamp_is_signing_only_beside_a_signature():
    def p(name, **kw):
        return Param(name, "query", Shape("scalar", "string", **kw), True)
    assert [x.name for x in signing([p("Timestamp"), p("JobId")])] == []
    assert [x.name for x in signing([p("Timestamp"), p("Signature"), p("JobId")])] == ["Timestamp", "Signature"]
    assert constant(p("Action", enum=["GetStatus"]))
    assert not constant(p("Kind", enum=["a", "b"])) and not constant(p("Kind"))
    assert not constant(Param("Action", "query", Shape("scalar", "string", enum=["GetStatus"]), False))


def test_an_optional_list_argument_is_blank_text_not_a_required_list(tmp_path):
    """A list has no default: an optional list argument of a simulated or answered tool was
    required, and no person states a list, so the tool was out of every task (W102)."""
    from import_specs import arr
    answer = obj({"summary": s(), "temperature": s("number")})
    doc = spec({"/forecast": {"get": {"operationId": "getForecast", "parameters": [
        _q("city"), {"name": "layers", "in": "query", "required": False, "schema": arr(s())},
        {"name": "units", "in": "query", "required": True, "schema": arr(s())}], "responses": ok(answer)}}})
    result, ops, model, world = run(tmp_path, doc)
    text = "\n".join(result.files.values())
    line = next(l for l in text.splitlines() if "tool get_forecast(" in l)
    assert 'layers: text = ""' in line, line
    assert "units: list[text]" in line, line  # a list the API asks for stays one
    assert "layers: a list of text in the API, kept as comma-separated text (optional" in text
