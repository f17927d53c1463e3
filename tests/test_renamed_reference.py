"""A record the task renamed is not named by its old name alone afterwards.

AWS IoT Fleet Hub (blind round 20): "Update the application "Riverside application" with
application name "Summit application" ... After that, add an application "Northwind application",
the same role arn as the application "Riverside application"": the application a later sentence
copies from is the one the first renamed (a write's result, described by the step that found
it), and no application is called "Riverside application" any more. Now it is 'that application
formerly "Riverside application"' (`Phraser._again`)."""
import json
import re

from import_specs import body, obj, ok, pparam, ref, run, s, spec


def test_a_renamed_record_is_referred_to_as_it_was(tmp_path):
    from compoworld_dsl.sample.run import Job, run as sample

    app = obj({"applicationId": s(), "applicationName": s(), "applicationDescription": s(), "roleArn": s()})
    item = [pparam("applicationId")]
    create = obj({"applicationName": s(), "applicationDescription": s(), "roleArn": s()}) | {"required": ["applicationName", "roleArn"]}
    doc = spec(
        {
            "/applications": {
                "get": {"operationId": "ListApplications", "responses": ok(obj({"applicationSummaries": {"type": "array", "items": ref("Application")}}))},
                "post": {"operationId": "CreateApplication", "requestBody": body(create), "responses": ok(obj({"applicationId": s()}))},
            },
            "/applications/{applicationId}": {
                "get": {"operationId": "DescribeApplication", "parameters": item, "responses": ok(ref("Application"))},
                "patch": {"operationId": "UpdateApplication", "parameters": item, "requestBody": body(obj({"applicationName": s(), "applicationDescription": s()})), "responses": ok(ref("Application"))},
            },
        },
        {"Application": app},
    )
    _, _, _, wf = run(tmp_path, doc)
    sample(Job(str(wf), 3, 10, 9191, max_attempts=80), tmp_path / "t.jsonl")
    renamed = 0
    for line in (tmp_path / "t.jsonl").read_text().splitlines():
        text = json.loads(line)["instruction"]
        m = re.match(r'Update the application "([^"]+)"[^.]* with application name "([^"]+)"', text)
        if m is None or m.group(1) == m.group(2):
            continue
        later = text[m.end() :]
        if "role arn" in later:
            renamed += 1
            # the old name only as what it was
            assert f'the application "{m.group(1)}"' not in later and f'formerly "{m.group(1)}"' in later, text
    assert renamed, "no task renamed an application and then copied from it"
