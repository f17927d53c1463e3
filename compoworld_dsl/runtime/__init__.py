"""The runtime that compiled worlds run on: values, state, seeding, tool calls.
Generated service packages import only this subpackage; it never imports the parser or checker."""
