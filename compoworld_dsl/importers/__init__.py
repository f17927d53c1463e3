"""Importers: `.world` source from descriptions of real APIs.

- `openapi.import_openapi`: an OpenAPI 3.0/3.1 or Swagger 2.0 spec → one service per resource
  (tables, seeds, CRUD tools inferred from the REST shape) plus simulated tools for the rest;
- `mcp.import_mcp`: an MCP server's `tools/list` result → simulated tools;
- `cli.add_parser`: the `worldc import openapi|mcp` verb.

See docs/import.md."""
