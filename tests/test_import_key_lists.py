"""`worldc import openapi`: a list that answers only its rows' keys (AWS CloudHSM's `ListHsms`:
`{HsmList: [HsmArn], NextToken}`) is a list of the rows, a view that shows their keys (D58;
docs/import.md, "Lists of keys"). Before, it was read as no list of them and answered from a
table of its own, so no task could start from it; now an agent lists the keys and looks each
row up to find the one the instruction names, and a task holds those look-ups.

Also here, the two readings that kept AWS's own lists of objects from their rows: a property
described the AWS way (`allOf: [{$ref: CertificateAuthority}, {description}]`) is the object it
refers to, name and all, and a path's `{CertificateAuthorityArn}` is the row's `Arn`."""

from __future__ import annotations

from import_specs import run, sample_tasks, spec

from compoworld_dsl.taskfile import agent_plan

TARGET = "CloudHsmFrontendService"


def described(name: str, text: str) -> dict:
    return {"allOf": [{"$ref": f"#/components/schemas/{name}"}, {"description": text}]}


def action(name: str) -> dict:
    return {
        f"/#X-Amz-Target={TARGET}.{name}": {
            "post": {
                "operationId": name,
                "description": f"{name} of the hsm service.",
                "parameters": [{"name": "X-Amz-Target", "in": "header", "required": True, "schema": {"type": "string", "enum": [f"{TARGET}.{name}"]}}],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}Request"}}}},
                "responses": {"200": {"description": "Success", "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}Response"}}}}},
            }
        }
    }


def hsm_spec() -> dict:
    s = {"type": "string"}
    arn = described("HsmArn", "The ARN of the HSM.")
    schemas = {
        "HsmArn": {"type": "string", "pattern": "arn:aws(-iso)?:cloudhsm:.*"},
        "HsmList": {"type": "array", "items": {"$ref": "#/components/schemas/HsmArn"}, "description": "A list of ARNs that identify the HSMs."},
        "HsmStatus": {"type": "string", "enum": ["PENDING", "RUNNING", "UPDATING", "SUSPENDED"]},
        "CreateHsmRequest": {"type": "object", "required": ["Label", "SubnetId"], "properties": {"Label": s, "SubnetId": s}},
        "CreateHsmResponse": {"type": "object", "properties": {"HsmArn": arn}},
        "DescribeHsmRequest": {"type": "object", "required": ["HsmArn"], "properties": {"HsmArn": arn}},
        "DescribeHsmResponse": {"type": "object", "properties": {"HsmArn": arn, "Label": s, "SubnetId": s, "Status": described("HsmStatus", "The status.")}},
        "ListHsmsRequest": {"type": "object", "properties": {"NextToken": s}},
        "ListHsmsResponse": {"type": "object", "properties": {"HsmList": described("HsmList", "The list of ARNs that identify the HSMs."), "NextToken": s}},
        "ModifyHsmRequest": {"type": "object", "required": ["HsmArn"], "properties": {"HsmArn": arn, "SubnetId": s}},
        "ModifyHsmResponse": {"type": "object", "properties": {"HsmArn": arn}},
        "DeleteHsmRequest": {"type": "object", "required": ["HsmArn"], "properties": {"HsmArn": arn}},
        "DeleteHsmResponse": {"type": "object", "properties": {"Status": s}},
    }
    paths: dict = {}
    for name in ("CreateHsm", "DescribeHsm", "ListHsms", "ModifyHsm", "DeleteHsm"):
        paths.update(action(name))
    return spec(paths, schemas)


def test_a_list_of_keys_is_a_list_of_the_rows_that_shows_their_keys(tmp_path):
    result, ops, _, _ = run(tmp_path, hsm_spec())
    kind, why = ops[f"POST /#X-Amz-Target={TARGET}.ListHsms"]
    assert kind == "list", why
    text = "".join(result.files.values())
    assert "tool list_hsms() -> list[HsmSummary]" in text, text
    assert "map(HsmSummary(hsm_arn: r_.hsm_arn) for r_ in hsms)" in text, text
    assert "list_hsms_answers" not in text, text  # no answer table of its own


def test_a_task_from_a_list_of_keys_looks_the_rows_up_and_is_passed(tmp_path):
    """Each task that starts from the list names the row by what only its describe shows, so its
    `lookups` describe the row meant; the reference with them earns 1, and a player who acts on
    some other listed hsm earns 0."""
    from test_scripted_agents import play

    _, _, _, wf = run(tmp_path, hsm_spec())
    world, tasks = sample_tasks(wf, tmp_path, 3, 6, 5, 400)
    from_list = [t for t in tasks if t["reference_plan"][0]["tool"].endswith(".list_hsms")]
    assert from_list, [t["instruction"] for t in tasks]
    for task in tasks:
        calls = [(c["tool"], c["arguments"]) for _, c in agent_plan(task)]
        score, results = play(world, task, calls, task.get("answer"))
        assert score["reward"] == 1, (task["instruction"], calls, results, score)
    from compoworld_dsl.sample.worker import load_sampler

    mutating = load_sampler(str(wf)).facts.mutating
    acted = 0
    for task in from_list:
        assert any(look["tool"].endswith(".describe_hsm") for look in task["lookups"]), task
        meant = next(c["arguments"]["hsm_arn"] for c in task["reference_plan"] if "hsm_arn" in c["arguments"])
        if not any(c["tool"] in mutating and c["arguments"].get("hsm_arn") == meant for c in task["reference_plan"]):
            # (a task that copies a value from the hsm, "add a hsm ... the same subnet ID as the
            # hsm ...", writes the value, not the hsm: a play that describes another hsm and
            # still writes the reference's value is the reference's)
            continue
        acted += 1
        _, results = play(world, task, [(task["reference_plan"][0]["tool"], {})])
        listed = [row["hsm_arn"] for row in results[0]["data"]]
        other = next((k for k in listed if k != meant), None)
        assert other is not None, results[0]
        wrong = [(c["tool"], {**c["arguments"], "hsm_arn": other} if c["arguments"].get("hsm_arn") == meant else c["arguments"]) for c in task["reference_plan"]]
        score, _ = play(world, task, wrong, task.get("answer"))
        assert score["reward"] == 0, (task["instruction"], wrong)
    assert acted, [t["instruction"] for t in from_list]


def test_a_property_described_the_aws_way_is_the_object_it_refers_to():
    """`allOf: [{$ref: CertificateAuthority}, {description}]` is the certificate authority, named
    so, though none of its fields is named as a key (`Arn`): merged, it lost its name, and the
    list of them was read as no list of the rows."""
    from compoworld_dsl.importers.common import Budget
    from compoworld_dsl.importers.schema import SchemaReader

    doc = spec({}, {"CertificateAuthority": {"type": "object", "properties": {"Arn": {"type": "string"}, "Serial": {"type": "string"}}}})
    shape = SchemaReader(doc, Budget()).shape(described("CertificateAuthority", "The CA."), (), 0, "#")
    assert shape.kind == "object" and shape.name == "CertificateAuthority", shape
    assert set(shape.props) == {"Arn", "Serial"}


def test_a_path_parameter_of_the_noun_and_arn_is_the_rows_arn(tmp_path):
    """ACM PCA reads, lists and deletes certificate authorities by `CertificateAuthorityArn`, the
    field the object calls `Arn`: that is the row's key, not a made-up id beside an `arn` the
    `certificate_authority_arn` argument never took."""
    s = {"type": "string"}
    ca = {"type": "object", "properties": {"Arn": s, "OwnerAccount": s, "Serial": s, "Status": {"type": "string", "enum": ["ACTIVE", "DISABLED"]}}}
    item = [{"name": "CertificateAuthorityArn", "in": "path", "required": True, "schema": s}]
    one = {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"CertificateAuthority": described("CertificateAuthority", "The CA.")}}}}}}
    many = {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"CertificateAuthorities": {"type": "array", "items": {"$ref": "#/components/schemas/CertificateAuthority"}}}}}}}}
    doc = spec(
        {
            "/certificate-authorities": {"get": {"operationId": "ListCertificateAuthorities", "responses": many}},
            "/certificate-authorities/{CertificateAuthorityArn}": {
                "get": {"operationId": "DescribeCertificateAuthority", "parameters": item, "responses": one},
                "delete": {"operationId": "DeleteCertificateAuthority", "parameters": item, "responses": {"200": {"description": "ok"}}},
            },
        },
        {"CertificateAuthority": ca},
    )
    result, ops, _, _ = run(tmp_path, doc)
    assert ops["GET /certificate-authorities"][0] == "list", ops
    text = "".join(result.files.values())
    assert "key arn: CertificateAuthorityId" in text, text
    # an owner account says whose the row is, not what it is called
    assert "known by owner_account" not in text, text
