"""A required text parameter that no field of the world is named like (a recorded comment's
`text`) takes a value the world holds, and where the parameter holds a sentence (`vocab.
prose_field`), a sentence: never a code of another field. Round 16 of blind play met 'add
comment on a task with text "AI-4716"', a task's assignee id (`bindings._draw`)."""

from __future__ import annotations

from import_specs import arr, body, obj, ok, pparam, ref, run, s, sample_tasks, spec


def test_a_comments_text_is_a_sentence_the_world_holds_not_another_fields_code(tmp_path):
    """A recorded comment on a task: no field of the world is its `text`, so the value comes from
    the world's other texts, and of those a sentence (a task's description), never its
    assignee's id or its name."""
    task = obj({"id": s(), "name": s(), "assigneeId": s(), "description": s(), "priority": s(enum=["low", "high"])})
    doc = spec(
        {
            "/tasks": {"get": {"operationId": "listTasks", "responses": ok(arr(ref("Task")))}},
            "/tasks/{taskId}": {"get": {"operationId": "getTask", "parameters": [pparam("taskId")], "responses": ok(ref("Task"))}},
            "/tasks/{taskId}/comments": {"post": {"operationId": "addComment", "summary": "Add a comment on a task", "parameters": [pparam("taskId")], "requestBody": body(obj({"text": s()}, ["text"])), "responses": ok()}},
        },
        {"Task": task},
    )
    _, ops, _, wf = run(tmp_path, doc)
    assert ops["POST /tasks/{taskId}/comments"][0] == "recorded", ops
    _, tasks = sample_tasks(wf, tmp_path, 2, 6, 11, 400)
    texts = [c["arguments"]["text"] for t in tasks for c in t["reference_plan"] if c["tool"].endswith(".add_comment")]
    assert texts, [t["instruction"] for t in tasks]
    assert all(len(x.split()) >= 3 for x in texts), texts
