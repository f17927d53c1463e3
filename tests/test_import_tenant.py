"""`worldc import openapi`: a scope of the whole API that no resource owns is one value in every
answer (issue 30, stop 67). Azure Policy Insights' policy states are answers to reads under
`/subscriptions/{subscriptionId}`, and no resource of the spec holds a subscription. Each table of
answers drew its own subscription from the spec's example varied eight ways, so no walk found two
reads that named the same one, and the spec gave no task. The world is one tenant: one
subscription, as `resources.scope_seeds` already gives resources' rows."""

from __future__ import annotations

import re

from import_specs import arr, obj, ok, ref, run, sample_tasks, s, spec
from test_import_values import seed_line

GUID = "fffedd8f-ffff-fffd-fffd-fffed2f84852"


def _states_spec() -> dict:
    sub = {"name": "subscriptionId", "in": "path", "required": True, "description": "Microsoft Azure subscription ID.", "schema": {"type": "string"}, "example": GUID}
    assignment = {"name": "policyAssignmentName", "in": "path", "required": True, "description": "Policy assignment name.", "schema": {"type": "string"}}
    definition = {"name": "policyDefinitionName", "in": "path", "required": True, "description": "Policy definition name.", "schema": {"type": "string"}}
    state = {"subscriptionId": s(), "policyAssignmentName": s(), "policyDefinitionName": s(), "complianceState": s(), "timestamp": s(format="date-time")}
    summary = {"nonCompliantResources": s("integer"), "nonCompliantPolicies": s("integer")}
    states = ok(obj({"value": arr(ref("PolicyState"))}))
    pre = "/subscriptions/{subscriptionId}/providers/Microsoft.PolicyInsights"
    return spec(
        {
            "/providers/Microsoft.PolicyInsights/operations": {"get": {"operationId": "Operations_List", "responses": ok(obj({"value": arr(obj({"name": s()}))}))}},
            f"{pre}/policyStates/queryResults": {"post": {"operationId": "PolicyStates_ListQueryResultsForSubscription", "parameters": [sub], "responses": states}},
            f"{pre}/policyStates/summarize": {"post": {"operationId": "PolicyStates_SummarizeForSubscription", "parameters": [sub], "responses": ok(ref("Summary"))}},
            f"{pre}/policyAssignments/{{policyAssignmentName}}/policyStates/queryResults": {"post": {"operationId": "PolicyStates_ListQueryResultsForPolicyAssignment", "parameters": [sub, assignment], "responses": states}},
            f"{pre}/policyDefinitions/{{policyDefinitionName}}/policyStates/queryResults": {"post": {"operationId": "PolicyStates_ListQueryResultsForPolicyDefinition", "parameters": [sub, definition], "responses": states}},
            f"{pre}/policyDefinitions/{{policyDefinitionName}}/policyStates/summarize": {"post": {"operationId": "PolicyStates_SummarizeForPolicyDefinition", "parameters": [sub, definition], "responses": ok(ref("Summary"))}},
        },
        {"PolicyState": {"type": "object", "properties": state}, "Summary": {"type": "object", "properties": summary}},
    )


def _answer_tables(world: str) -> list[str]:
    return [m.group(1) for m in re.finditer(r"seed (\w+_answers): ", world)]


def test_a_scope_no_resource_owns_is_one_value_in_every_answer(tmp_path):
    result, _, _, world_file = run(tmp_path, _states_spec())
    world = result.files[next(n for n in result.files if n != result.world_file and n.endswith(".world"))]
    tables = [t for t in _answer_tables(world) if t != "operations_list_answers"]
    assert len(tables) == 5, tables
    for t in tables:
        # the argument of every read, and what the states say of their subscription
        assert seed_line(world, t, "subscription_id") == f'"{GUID}"', t
    # a name in a few of the paths is one of many things, not the tenant: still drawn, and the
    # same pool as the states' own names, so that a walk goes from a state to its assignment
    named = seed_line(world, "policy_states_list_query_results_for_policy_assignment_answers", "policy_assignment_name")
    assert named.startswith("pick(") and named == seed_line(world, "policy_states_list_query_results_for_subscription_answers", "policy_assignment_name")


def test_reads_under_one_tenant_chain(tmp_path):
    """With one subscription the reads chain: a task lists the states of an assignment, then
    reads what one of them names, in the same subscription."""
    _, _, _, world_file = run(tmp_path, _states_spec())
    _, tasks = sample_tasks(world_file, tmp_path, 2, 3, 1, 40)
    for t in tasks:
        plan = t["reference_plan"]
        assert len(plan) == 2 and {step["arguments"]["subscription_id"] for step in plan} == {GUID}, plan
